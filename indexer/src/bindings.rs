//! alloy bindings generated from the built contract artifact (`contracts/out/Marketplace.json`),
//! so the Rust side can never drift from the deployed ABI: a changed event fails to compile here.
#![allow(missing_docs, clippy::too_many_arguments)]

alloy::sol!(
    #[sol(rpc)]
    #[derive(Debug, PartialEq, Eq)]
    Marketplace,
    "../contracts/out/Marketplace.json"
);
