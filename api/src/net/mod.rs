//! Outgoing requests to addresses chosen by others (a token's metadata URI, its image): the
//! [`guard`] that refuses private and denied addresses and caps size and time.

pub mod guard;
