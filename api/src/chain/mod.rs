//! The chain as this process sees it: what was resolved at start ([`ChainInfo`]), the receipts
//! of transactions a client says it sent ([`receipts`]), whether a smart account signed a
//! message ([`signatures`]), and the embedded stack's own local chain ([`local`]).

pub mod local;
pub mod receipts;
pub mod signatures;

/// The chain the marketplace runs on, as the server resolved it at start.
#[derive(Clone, Debug, Default)]
pub struct ChainInfo {
    /// EIP-155 id.
    pub chain_id: u64,
    /// The node the server (and the `/rpc` proxy) uses, if any.
    pub rpc_url: Option<String>,
    /// What browsers should use: `/rpc` (the proxy) unless configured otherwise.
    pub public_rpc_url: String,
    /// The marketplace contract.
    pub contract_address: Option<String>,
    /// Its deployment block.
    pub deployment_block: u64,
    /// True only on the local dev chain: the UI then offers the dev wallet.
    pub dev_wallet: bool,
    /// Block explorer base URL ("" when there is none).
    pub explorer_url: String,
    /// WalletConnect project id ("" hides WalletConnect).
    pub walletconnect_project_id: String,
}
