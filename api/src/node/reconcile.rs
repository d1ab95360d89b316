//! Reconciliation: the contract's state, read over RPC, against the read models.
//!
//! The read tables are folded from the log, the log from the chain's logs; this checks the end
//! of that pipeline against the chain itself. For every token the contract ever minted (and
//! every token the read tables know) it reads `tokenInfo` and `auctionInfo`, and `creditsOf`
//! for every account the read tables or the chain's answers name, and compares owner, sale
//! type, price, auction, top bid and bidder, auction end and credits owed.
//!
//! The comparison is made at one block: the last block the read tables include (the last
//! `BlockIndexed` checkpoint at or before the projector's position), so a chain that moved on
//! meanwhile is no difference. Reads go out as JSON-RPC batches (`batch` calls each, `concurrency`
//! batches in flight), all pinned to that block.

use std::{
    collections::{BTreeMap, BTreeSet},
    fmt,
    sync::{
        Arc,
        atomic::{AtomicI64, Ordering},
    },
    time::Duration,
};

use alloy::{
    eips::BlockId,
    primitives::{Address, Bytes, U256},
    providers::{DynProvider, Provider},
    rpc::{client::BatchRequest, types::TransactionRequest},
    sol_types::SolCall,
    transports::{RpcError, TransportError},
};
use domain::{EventStore, Position, chain::ChainEvent};
use futures::{StreamExt, TryStreamExt, stream};
use indexer::bindings::Marketplace;
use projections::ReadDb;
use sqlx::Row;

/// Everything reconciling can fail with (a difference is no error: it is the report).
#[derive(Debug, thiserror::Error)]
pub enum ReconcileError {
    /// The chain's node failed (not a reverted call: that means "no such token").
    #[error("RPC error: {0}")]
    Rpc(#[from] TransportError),
    /// The contract answered something that does not decode as its ABI says.
    #[error("undecodable answer to {call}: {reason}")]
    Decode {
        /// The call.
        call: &'static str,
        /// What was wrong.
        reason: String,
    },
    /// The read tables failed.
    #[error(transparent)]
    Read(#[from] projections::ProjectionError),
    /// The read tables failed (a query of this module).
    #[error("read database error: {0}")]
    Sql(#[from] sqlx::Error),
    /// The event log failed.
    #[error(transparent)]
    Store(#[from] domain::StoreError),
}

/// What to reconcile against.
#[derive(Clone)]
pub struct Target {
    /// A provider on the chain's node.
    pub provider: DynProvider,
    /// The chain id the read tables record.
    pub chain_id: u64,
    /// The marketplace contract.
    pub contract: Address,
    /// Calls per JSON-RPC batch.
    pub batch: usize,
    /// Batches in flight at once.
    pub concurrency: usize,
}

impl Target {
    /// A target on the node at `rpc_url`, with the default batching (100 calls a batch, 8
    /// batches in flight: enough to keep a node busy without flooding a paid endpoint).
    pub fn connect(rpc_url: &str, chain_id: u64, contract: Address) -> Result<Self, url_error::BadUrl> {
        let url = rpc_url.parse().map_err(|_| url_error::BadUrl(rpc_url.to_owned()))?;
        let provider = alloy::providers::ProviderBuilder::new().connect_http(url).erased();
        Ok(Self { provider, chain_id, contract, batch: 100, concurrency: 8 })
    }
}

/// The RPC URL error of [`Target::connect`].
pub mod url_error {
    /// The RPC URL does not parse.
    #[derive(Debug, thiserror::Error)]
    #[error("RPC URL {0:?} does not parse")]
    pub struct BadUrl(pub String);
}

/// One field on which the chain and the read tables disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// What it is about: `token 5`, `account 0x…`.
    pub subject: String,
    /// The field: `owner`, `sale_type`, `price`, `auction_id`, `top_bid`, `top_bidder`,
    /// `auction_end`, `exists`, `credits_owed`.
    pub field: &'static str,
    /// The contract's value.
    pub chain: String,
    /// The read tables' value.
    pub read: String,
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: chain {}, read models {}", self.subject, self.field, self.chain, self.read)
    }
}

/// What a reconciliation compared and found.
#[derive(Clone, Debug)]
pub struct Report {
    /// The block compared at (`None`: nothing indexed yet, compared at the latest block).
    pub block: Option<u64>,
    /// The read tables' log position.
    pub position: Position,
    /// Whether the read tables were behind the log (the comparison is still exact: at the
    /// block they include).
    pub behind: bool,
    /// Token ids compared (1 to the highest minted or known).
    pub tokens: u64,
    /// Accounts whose credits were compared.
    pub accounts: usize,
    /// `eth_call`s made.
    pub calls: usize,
    /// Every difference, tokens in id order, then accounts.
    pub differences: Vec<Difference>,
}

/// A token's row in `nfts`, as compared.
#[derive(Debug)]
struct ReadToken {
    owner: String,
    sale_type: String,
    price: String,
    auction_id: String,
    highest_bid: String,
    highest_bidder: Option<String>,
    end_time: i64,
    burned: bool,
}

/// A token as the contract shows it (`None` for a token that does not exist: never minted, or
/// burned).
struct ChainToken {
    info: Option<Marketplace::TokenInfo>,
    auction: Option<Marketplace::AuctionInfo>,
}

/// Reconciles the read tables of `read` (whose log is `store`) with the contract of `target`.
pub async fn reconcile(store: &dyn EventStore, read: &ReadDb, target: &Target) -> Result<Report, ReconcileError> {
    let position = read.position().await?;
    let (head, _) = store.head().await?;
    let block = indexed_block(store, target.chain_id, position).await?;
    let at = block.map_or(BlockId::latest(), BlockId::number);

    let last: U256 = call(target, at, Marketplace::lastTokenIdCall {}).await?;
    let last = u64::try_from(last).map_err(|_| ReconcileError::Decode { call: "lastTokenId", reason: format!("{last} is not a u64") })?;
    let rows = read_tokens(read, target.chain_id).await?;
    let tokens = last.max(rows.keys().next_back().copied().unwrap_or(0));
    let ids: Vec<u64> = (1..=tokens).collect();
    let chain = chain_tokens(target, at, &ids).await?;

    let mut differences = Vec::new();
    for (&id, token) in ids.iter().zip(&chain) {
        compare_token(id, token, rows.get(&id), &mut differences);
    }

    // Credits: every account either side could owe to, by the read tables or by the chain.
    let owed = projections::credits::owed(read, target.chain_id).await?;
    let mut accounts: BTreeSet<String> = owed.keys().cloned().collect();
    accounts.extend(read_accounts(read, target.chain_id).await?);
    for token in &chain {
        if let Some(info) = &token.info {
            accounts.extend([address(info.currentOwner), address(info.mintedBy)]);
        }
        if let Some(auction) = &token.auction
            && auction.highestBidder != Address::ZERO
        {
            accounts.insert(address(auction.highestBidder));
        }
    }
    accounts.remove(&address(Address::ZERO));
    let accounts: Vec<String> = accounts.into_iter().collect();
    let parsed: Vec<Address> = accounts.iter().filter_map(|a| a.parse().ok()).collect();
    let credits = batched(target, at, &parsed, |&account| Marketplace::creditsOfCall { account }).await?;
    for (account, credit) in accounts.iter().zip(credits) {
        let chain = credit.unwrap_or_default();
        let read = owed.get(account).copied().unwrap_or_default();
        if chain != U256::from(read) {
            differences.push(Difference {
                subject: format!("account {account}"),
                field: "credits_owed",
                chain: chain.to_string(),
                read: read.to_string(),
            });
        }
    }

    let calls = 1 + ids.len() + chain.iter().filter(|t| t.auction.is_some()).count() + parsed.len();
    Ok(Report { block, position, behind: position < head, tokens, accounts: accounts.len(), calls, differences })
}

/// The last block whose checkpoint is at or before `position` in the log: the chain state the
/// read tables at `position` describe. A retraction's checkpoints are skipped (their blocks
/// left the chain).
async fn indexed_block(store: &dyn EventStore, chain_id: u64, position: Position) -> Result<Option<u64>, ReconcileError> {
    let stream = domain::chain::chain_stream(chain_id);
    let mut unread = store.stream_version(&stream).await?;
    let mut dead_from: Option<u64> = None;
    while unread > 0 {
        let from = unread.saturating_sub(255).max(1);
        let page = store.read_stream(&stream, from, (unread - from + 1) as usize).await?;
        for event in page.iter().rev() {
            if event.position > position {
                continue;
            }
            match event.payload::<ChainEvent>() {
                Ok(ChainEvent::BlocksRetracted { from_block, .. }) => dead_from = Some(dead_from.map_or(from_block, |d| d.min(from_block))),
                Ok(ChainEvent::BlockIndexed { number, .. }) if dead_from.is_none_or(|d| number < d) => return Ok(Some(number)),
                _ => {}
            }
        }
        unread = from - 1;
    }
    Ok(None)
}

/// Every `nfts` row of the chain, by token id.
async fn read_tokens(read: &ReadDb, chain_id: u64) -> Result<BTreeMap<u64, ReadToken>, ReconcileError> {
    let rows = sqlx::query(
        "SELECT token_id, owner, sale_type, price, auction_id, highest_bid, highest_bidder, end_time, burned \
         FROM nfts WHERE chain_id = $1",
    )
    .bind(chain_id as i64)
    .fetch_all(&read.pool())
    .await?;
    let mut tokens = BTreeMap::new();
    for row in rows {
        let id: String = row.try_get(0)?;
        let Ok(id) = id.parse::<u64>() else { continue };
        tokens.insert(
            id,
            ReadToken {
                owner: row.try_get(1)?,
                sale_type: row.try_get(2)?,
                price: row.try_get(3)?,
                auction_id: row.try_get(4)?,
                highest_bid: row.try_get(5)?,
                highest_bidder: row.try_get(6)?,
                end_time: row.try_get(7)?,
                burned: row.try_get::<i64, _>(8)? != 0,
            },
        );
    }
    Ok(tokens)
}

/// The addresses the read tables name as owners, creators and bidders.
async fn read_accounts(read: &ReadDb, chain_id: u64) -> Result<Vec<String>, ReconcileError> {
    let sql = "SELECT owner FROM nfts WHERE chain_id = $1 UNION SELECT creator FROM nfts WHERE chain_id = $1 \
               UNION SELECT highest_bidder FROM nfts WHERE chain_id = $1 AND highest_bidder IS NOT NULL";
    Ok(sqlx::query_scalar(sql).bind(chain_id as i64).fetch_all(&read.pool()).await?)
}

/// `tokenInfo` and `auctionInfo` of each id (the auction only for a token in an auction).
async fn chain_tokens(target: &Target, at: BlockId, ids: &[u64]) -> Result<Vec<ChainToken>, ReconcileError> {
    let infos = batched(target, at, ids, |&id| Marketplace::tokenInfoCall { tokenId: U256::from(id) }).await?;
    let auctioned: Vec<u64> =
        ids.iter().zip(&infos).filter(|(_, info)| info.as_ref().is_some_and(|i| i.saleType == 2)).map(|(&id, _)| id).collect();
    let auctions = batched(target, at, &auctioned, |&id| Marketplace::auctionInfoCall { tokenId: U256::from(id) }).await?;
    let mut auctions: BTreeMap<u64, Marketplace::AuctionInfo> =
        auctioned.into_iter().zip(auctions).filter_map(|(id, auction)| Some((id, auction?))).collect();
    Ok(ids.iter().zip(infos).map(|(id, info)| ChainToken { info, auction: auctions.remove(id) }).collect())
}

/// One call at `at`, which must not revert.
async fn call<C: SolCall>(target: &Target, at: BlockId, call: C) -> Result<C::Return, ReconcileError> {
    let request = TransactionRequest::default().to(target.contract).input(Bytes::from(call.abi_encode()).into());
    let answer = target.provider.call(request).block(at).await?;
    C::abi_decode_returns(&answer).map_err(|e| ReconcileError::Decode { call: C::SIGNATURE, reason: e.to_string() })
}

/// `make(item)` called for every item at `at`, in JSON-RPC batches of `target.batch`, with
/// `target.concurrency` batches in flight; answers in the items' order, `None` where the call
/// reverted.
async fn batched<T: Sync, C: SolCall + Send>(
    target: &Target,
    at: BlockId,
    items: &[T],
    make: impl Fn(&T) -> C,
) -> Result<Vec<Option<C::Return>>, ReconcileError>
where
    C::Return: Send,
{
    let chunks: Vec<Vec<Bytes>> =
        items.chunks(target.batch.max(1)).map(|chunk| chunk.iter().map(|i| Bytes::from(make(i).abi_encode())).collect()).collect();
    let answers: Vec<Vec<Option<Bytes>>> = stream::iter(chunks)
        .map(|inputs| raw_batch(&target.provider, target.contract, at, inputs))
        .buffered(target.concurrency.max(1))
        .try_collect()
        .await?;
    answers
        .into_iter()
        .flatten()
        .map(|answer| {
            answer
                .map(|bytes| {
                    C::abi_decode_returns(&bytes).map_err(|e| ReconcileError::Decode { call: C::SIGNATURE, reason: e.to_string() })
                })
                .transpose()
        })
        .collect()
}

/// One JSON-RPC batch of `eth_call`s of `inputs` to `contract` at `at`: each answer's bytes,
/// `None` for a call that reverted. Public for the benchmark, which times these reads bare.
pub async fn raw_batch(
    provider: &DynProvider,
    contract: Address,
    at: BlockId,
    inputs: Vec<Bytes>,
) -> Result<Vec<Option<Bytes>>, TransportError> {
    let mut batch = BatchRequest::new(provider.client());
    let waiters = inputs
        .into_iter()
        .map(|input| {
            let request = TransactionRequest::default().to(contract).input(input.into());
            batch.add_call::<_, Bytes>("eth_call", &(request, at))
        })
        .collect::<Result<Vec<_>, _>>()?;
    batch.send().await?;
    let mut answers = Vec::with_capacity(waiters.len());
    for waiter in waiters {
        match waiter.await {
            Ok(bytes) => answers.push(Some(bytes)),
            Err(RpcError::ErrorResp(error)) if error.code == 3 || error.message.contains("revert") => answers.push(None),
            Err(error) => return Err(error),
        }
    }
    Ok(answers)
}

fn address(address: Address) -> String {
    format!("{address:#x}")
}

fn sale_name(sale: u8) -> String {
    match sale {
        0 => "NOT_FOR_SALE".into(),
        1 => "FIXEDPRICE".into(),
        2 => "AUCTION".into(),
        other => format!("unknown({other})"),
    }
}

/// The differences of one token.
fn compare_token(id: u64, chain: &ChainToken, read: Option<&ReadToken>, out: &mut Vec<Difference>) {
    let subject = format!("token {id}");
    let mut differ = |field: &'static str, chain: String, read: String| {
        if chain != read {
            out.push(Difference { subject: subject.clone(), field, chain, read });
        }
    };
    let (info, read) = match (&chain.info, read) {
        // A burned token's `tokenInfo` reverts, as a never-minted one's does.
        (None, None) => return,
        (None, Some(read)) if read.burned => return,
        (None, Some(_)) => return differ("exists", "no (never minted, or burned)".into(), "yes".into()),
        (Some(_), None) => return differ("exists", "yes".into(), "no row".into()),
        (Some(info), Some(read)) => (info, read),
    };
    if read.burned {
        return differ("exists", "yes".into(), "burned".into());
    }
    differ("owner", address(info.currentOwner), read.owner.clone());
    let sale = sale_name(info.saleType);
    differ("sale_type", sale.clone(), read.sale_type.clone());
    if sale != read.sale_type {
        return;
    }
    if info.saleType != 0 {
        differ("price", info.price.to_string(), read.price.clone());
    }
    if info.saleType == 2 {
        differ("auction_id", info.auctionId.to_string(), read.auction_id.clone());
        let auction = chain.auction.as_ref();
        let (bid, bidder, end) = auction.map_or((U256::ZERO, Address::ZERO, 0), |a| (a.highestBid, a.highestBidder, a.endTime));
        differ("top_bid", bid.to_string(), read.highest_bid.clone());
        let bidder = if bidder == Address::ZERO { "none".into() } else { address(bidder) };
        differ("top_bidder", bidder, read.highest_bidder.clone().unwrap_or_else(|| "none".into()));
        differ("auction_end", end.to_string(), read.end_time.to_string());
    }
}

/// The last reconciliation's count of differences, for `/metrics` (-1: none finished yet).
#[derive(Default)]
pub struct ReconcileMetrics {
    differences: AtomicI64,
    runs: AtomicI64,
    failures: AtomicI64,
}

impl ReconcileMetrics {
    /// Differences the last finished run found, runs finished, runs failed.
    pub fn snapshot(&self) -> (i64, i64, i64) {
        (self.differences.load(Ordering::Relaxed), self.runs.load(Ordering::Relaxed), self.failures.load(Ordering::Relaxed))
    }
}

/// Reconciles every `interval` in the background (after a first wait of one interval), for
/// as long as the process runs, recording each run's count in `metrics` and logging each
/// difference. A run while the read tables are behind the log waits for the next tick.
pub fn spawn_periodic(
    store: Arc<dyn EventStore>,
    read: ReadDb,
    target: Target,
    interval: Duration,
    metrics: Arc<ReconcileMetrics>,
) -> tokio::task::JoinHandle<()> {
    metrics.differences.store(-1, Ordering::Relaxed);
    tokio::spawn(async move {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let mut outcome = reconcile(store.as_ref(), &read, &target).await;
            // Read tables behind the log may be in the middle of a block's facts: give the
            // projector a moment before counting what may be a passing difference.
            for _ in 0..3 {
                match &outcome {
                    Ok(report) if report.behind && !report.differences.is_empty() => {
                        tokio::time::sleep(Duration::from_secs(2)).await;
                        outcome = reconcile(store.as_ref(), &read, &target).await;
                    }
                    _ => break,
                }
            }
            match outcome {
                Ok(report) => {
                    for difference in &report.differences {
                        tracing::warn!(%difference, block = ?report.block, "reconciliation: the read models differ from the chain");
                    }
                    tracing::info!(
                        differences = report.differences.len(),
                        tokens = report.tokens,
                        block = ?report.block,
                        "reconciled the read models with the chain"
                    );
                    metrics.differences.store(report.differences.len() as i64, Ordering::Relaxed);
                    metrics.runs.fetch_add(1, Ordering::Relaxed);
                }
                Err(error) => {
                    tracing::warn!(%error, "reconciliation failed");
                    metrics.failures.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    })
}
