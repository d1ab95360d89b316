//! The trending scores ([`super::trending`]) and the ones kept for reuse: below the browse index,
//! which keeps them for every clone of the read database.

use std::{collections::HashMap, sync::Arc};

/// The scores at `now` of every NFT, seller address and creator address with events in the
/// window.
#[derive(Debug, Default)]
pub struct Scores {
    /// By NFT id.
    pub nfts: HashMap<String, f64>,
    /// By seller address.
    pub sellers: HashMap<String, f64>,
    /// By creator address.
    pub creators: HashMap<String, f64>,
}

/// Scores computed at `at` (Unix seconds), and the rankings of people by them.
pub(crate) struct Scored {
    pub at: i64,
    pub scores: Arc<Scores>,
    /// The sellers, then the creators, ranked by these scores from the same tables: each when
    /// first asked (concurrent callers wait for the one ranking).
    pub people: [tokio::sync::OnceCell<Arc<Vec<RankedPerson>>>; 2],
}

/// A user in a ranking of sellers or creators.
#[derive(Clone, Debug)]
pub(crate) struct RankedPerson {
    pub user_id: String,
    pub score: f64,
    /// Sales made from their wallets.
    pub sold: i64,
    /// NFTs they created, not burned.
    pub created: i64,
}
