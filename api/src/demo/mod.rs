//! `marketplace demo`: fills a running local stack with a lively market through the real
//! contract and the real HTTP API, exactly as the UI would: people sign up with a code from
//! the dev mailbox, fill their profiles and link a wallet with a signed message; NFTs with
//! generated artwork are uploaded, minted from their creator's wallet and recorded; other
//! people buy, bid and outbid, like and bookmark; collections are made and filled.
//!
//! Idempotent: every step first asks the API (or the chain) whether its outcome is already
//! there (a person by e-mail, an NFT by creator and title, a collection by creator and title,
//! a purchase by the NFT's owner, bids by the auction's bids on chain, a like by `isLiked`), so
//! a second run adds nothing. It also resumes a run killed between a transaction and the API
//! call recording it: a token its creator minted with the planned metadata URI is recorded
//! rather than minted again, an auction's planned bids missing on chain are placed, and a
//! purchase on chain is recorded again (a user's retry of a record appends nothing).
//!
//! - [`plan`]: what the market holds;
//! - [`artwork`]: the generated images;
//! - [`client`]: the HTTP API as the UI calls it.

pub mod artwork;
pub mod client;
pub mod plan;

use std::{collections::BTreeMap, collections::HashMap, fmt, sync::Arc, time::Duration};

use alloy::{
    eips::BlockNumberOrTag,
    network::{EthereumWallet, TransactionBuilder},
    primitives::{Address, B256, U256, Uint, utils::parse_ether},
    providers::{DynProvider, Provider, ProviderBuilder},
    rpc::types::{TransactionReceipt, TransactionRequest},
    signers::{
        SignerSync,
        local::{MnemonicBuilder, PrivateKeySigner, coins_bip39::English},
    },
};
use anyhow::{Context, bail};
use domain::EventStore;
use indexer::bindings::Marketplace;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use self::{
    client::{Api, Body, encode, refused_with},
    plan::{NftPlan, Plan, Sale, Size},
};
use crate::{
    chain::local::{DEV_ACCOUNTS, DEV_MNEMONIC},
    config::Config,
};

// The demo's people hold dev wallet accounts: the dev wallet must offer them all.
const _: () = assert!(plan::FIRST_ACCOUNT as usize + plan::PEOPLE.len() <= DEV_ACCOUNTS as usize);

/// In the data directory while `dev`'s demo has not finished: the next `dev` runs it again.
pub const DEMO_PENDING: &str = "demo-pending";

/// Whether `dev` runs the demo (unless `--empty`): on a fresh market, whose event log holds no
/// event yet (asked before the log is seeded: SQLite and Postgres alike), or when an earlier
/// demo did not finish (`data/demo-pending`). A fresh market is marked pending at once, so a
/// start killed before its demo began still gets one next time.
pub async fn wants_demo(config: &Config, empty: bool) -> anyhow::Result<bool> {
    if empty {
        return Ok(false);
    }
    let pending = config.data_dir.join(DEMO_PENDING);
    if pending.exists() {
        return Ok(true);
    }
    std::fs::create_dir_all(&config.data_dir).with_context(|| format!("creating {}", config.data_dir.display()))?;
    let store = crate::log::open(config).await?;
    let (last, _) = store.head().await.context("reading the event log's head")?;
    if last != 0 {
        return Ok(false);
    }
    std::fs::write(&pending, b"").with_context(|| format!("writing {}", pending.display()))?;
    Ok(true)
}

/// Where [`run_until_crash`] stops, as if the process were killed there: right after a
/// transaction was mined and before the API call that records it. For tests of resuming.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crash {
    /// After the mint transaction of the plan's NFT `nft` (index into [`plan::Plan::nfts`]).
    AfterMint {
        /// The NFT.
        nft: usize,
    },
    /// After the transaction of the planned bid `bid` (0-based) on the plan's NFT `nft`.
    AfterBid {
        /// The NFT.
        nft: usize,
        /// The bid.
        bid: usize,
    },
    /// After the `buyToken` transaction of the planned purchase of the plan's NFT `nft`.
    AfterPurchase {
        /// The NFT.
        nft: usize,
    },
}

/// The error a simulated [`Crash`] ends the run with.
#[doc(hidden)]
#[derive(Debug, thiserror::Error)]
#[error("simulated crash: {0:?}")]
pub struct Crashed(pub Crash);

/// Where the demo runs and how much it makes.
#[derive(Clone)]
pub struct Options {
    /// The marketplace server, e.g. `http://127.0.0.1:8080`.
    pub api_url: String,
    /// The chain's JSON-RPC URL (the one the server indexes).
    pub rpc_url: String,
    /// How big a market.
    pub size: Size,
    /// The event log, where the server's operator grants the staff's roles (as `marketplace
    /// admin grant` does): with it the demo has an admin, a moderator, reports, a hidden NFT
    /// and verified badges; without it (a remote server) no moderation.
    pub log: Option<Arc<dyn EventStore>>,
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("api_url", &self.api_url)
            .field("rpc_url", &self.rpc_url)
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

/// What a run did: per kind of thing, how many it created and how many were already there.
#[derive(Debug, Default)]
pub struct Summary {
    counts: BTreeMap<&'static str, (usize, usize)>,
}

impl Summary {
    fn created(&mut self, kind: &'static str) {
        self.counts.entry(kind).or_default().0 += 1;
    }

    fn existing(&mut self, kind: &'static str) {
        self.counts.entry(kind).or_default().1 += 1;
    }

    fn either(&mut self, kind: &'static str, created: bool) {
        if created { self.created(kind) } else { self.existing(kind) }
    }

    /// How many of `kind` this run created.
    pub fn created_count(&self, kind: &str) -> usize {
        self.counts.get(kind).map_or(0, |c| c.0)
    }

    /// How many of `kind` were already there.
    pub fn existing_count(&self, kind: &str) -> usize {
        self.counts.get(kind).map_or(0, |c| c.1)
    }

    /// How many things this run created, of every kind.
    pub fn total_created(&self) -> usize {
        self.counts.values().map(|c| c.0).sum()
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> =
            self.counts.iter().map(|(kind, (created, existing))| format!("{kind}: {created} created, {existing} already there")).collect();
        write!(f, "{}", rows.join("; "))
    }
}

/// A demo person, signed in.
struct Member {
    token: String,
    user_id: String,
    address: Address,
}

/// The chain side: a provider signing for the demo's accounts (and account 0, which funds them).
struct Chain {
    provider: DynProvider,
    market: Marketplace::MarketplaceInstance<DynProvider>,
    funder: Address,
}

/// Each demo account holds at least this much (in MATIC) before it trades.
const MIN_BALANCE: u128 = 50;
/// What an account short of [`MIN_BALANCE`] is sent from account 0.
const TOP_UP: u128 = 200;

fn signer(index: u32) -> anyhow::Result<PrivateKeySigner> {
    Ok(MnemonicBuilder::<English>::default().phrase(DEV_MNEMONIC).index(index)?.build()?)
}

impl Chain {
    fn connect(rpc_url: &str, market: Address, people: usize) -> anyhow::Result<(Self, Vec<PrivateKeySigner>)> {
        let funder = signer(0)?;
        let funder_address = funder.address();
        let mut wallet = EthereumWallet::new(funder);
        let mut signers = Vec::new();
        for i in 0..people {
            let person = signer(plan::FIRST_ACCOUNT + i as u32)?;
            wallet.register_signer(person.clone());
            signers.push(person);
        }
        let provider = ProviderBuilder::new().wallet(wallet).connect_http(rpc_url.parse().context("the RPC URL")?).erased();
        let market = Marketplace::new(market, provider.clone());
        Ok((Self { provider, market, funder: funder_address }, signers))
    }

    /// Sends `request` and waits for its receipt; a reverted transaction is an error.
    async fn send(&self, request: TransactionRequest, what: &str) -> anyhow::Result<TransactionReceipt> {
        let receipt = self.provider.send_transaction(request).await.with_context(|| format!("sending {what}"))?.get_receipt().await?;
        if !receipt.status() {
            bail!("{what}: the transaction reverted ({:#x})", receipt.transaction_hash);
        }
        Ok(receipt)
    }

    /// The mints `creator` sent since `from_block`, by token URI: the token and the mint's
    /// transaction (the first such mint when one URI was minted twice), from the chain's
    /// `Minted` logs, whose second topic is the creator.
    async fn mints_of(&self, creator: Address, from_block: u64) -> anyhow::Result<HashMap<String, (U256, B256)>> {
        let logs = self
            .market
            .Minted_filter()
            .topic2(creator)
            .from_block(from_block)
            .to_block(BlockNumberOrTag::Latest)
            .query()
            .await
            .context("reading the chain's Minted logs")?;
        let mut mints = HashMap::new();
        for (event, log) in logs {
            let hash = log.transaction_hash.context("a Minted log without its transaction")?;
            mints.entry(event.tokenURI).or_insert((event.tokenId, hash));
        }
        Ok(mints)
    }

    /// The bids of `auction` on `token`, in order: bidder, amount and transaction (the
    /// `BidPlaced` logs, whose topics are the token and the auction).
    async fn bids_of(&self, token: U256, auction: U256, from_block: u64) -> anyhow::Result<Vec<(Address, U256, B256)>> {
        let logs = self
            .market
            .BidPlaced_filter()
            .topic1(token)
            .topic2(auction)
            .from_block(from_block)
            .to_block(BlockNumberOrTag::Latest)
            .query()
            .await
            .context("reading the chain's BidPlaced logs")?;
        let mut logs: Vec<_> = logs.into_iter().collect();
        logs.sort_by_key(|(_, log)| (log.block_number, log.log_index));
        logs.into_iter()
            .map(|(event, log)| Ok((event.bidder, event.amount, log.transaction_hash.context("a BidPlaced log without its transaction")?)))
            .collect()
    }

    /// The transaction of the last fixed-price sale of `token` to `buyer` (the `Sold` logs,
    /// whose topics are the token, the auction, 0 for a fixed price, and the buyer), if any.
    async fn last_purchase(&self, token: U256, buyer: Address, from_block: u64) -> anyhow::Result<Option<B256>> {
        let logs = self
            .market
            .Sold_filter()
            .topic1(token)
            .topic2(U256::ZERO)
            .topic3(buyer)
            .from_block(from_block)
            .to_block(BlockNumberOrTag::Latest)
            .query()
            .await
            .context("reading the chain's Sold logs")?;
        let last = logs.into_iter().max_by_key(|(_, log)| (log.block_number, log.log_index));
        last.map(|(_, log)| log.transaction_hash.context("a Sold log without its transaction")).transpose()
    }

    /// Tops up `account` from account 0 when it holds less than [`MIN_BALANCE`]; true if it did.
    async fn fund(&self, account: Address) -> anyhow::Result<bool> {
        let one = U256::from(10u64).pow(U256::from(18u64));
        if self.provider.get_balance(account).await? >= U256::from(MIN_BALANCE) * one {
            return Ok(false);
        }
        let request = TransactionRequest::default().from(self.funder).with_to(account).with_value(U256::from(TOP_UP) * one);
        self.send(request, "a top-up from account 0").await?;
        Ok(true)
    }

    async fn now(&self) -> anyhow::Result<u64> {
        let block = self.provider.get_block_by_number(alloy::eips::BlockNumberOrTag::Latest).await?.context("no latest block")?;
        Ok(block.header.timestamp)
    }
}

fn wei(matic: &str) -> anyhow::Result<U256> {
    parse_ether(matic).with_context(|| format!("{matic} MATIC"))
}

/// The demo's state as it goes: people, the chain, the cards of the plan's NFTs.
struct Demo {
    api: Api,
    chain: Chain,
    signers: Vec<PrivateKeySigner>,
    chain_id: u64,
    /// The contract's deployment block: where its logs start.
    from_block: u64,
    plan: Plan,
    members: Vec<Member>,
    /// The NFT id (`{chain}-{token}`) of each planned NFT, once it exists.
    nft_ids: Vec<Option<String>>,
    /// The id of each planned collection, once it exists.
    collection_ids: Vec<String>,
    summary: Summary,
    crash: Option<Crash>,
}

/// Runs the demo against the server at `options.api_url`; answers what it created.
pub async fn run(options: &Options) -> anyhow::Result<Summary> {
    run_until_crash(options, None).await
}

/// [`run`], ending with [`Crashed`] at `crash` if it gets there: what a kill at that point
/// leaves behind, for tests of resuming.
#[doc(hidden)]
pub async fn run_until_crash(options: &Options, crash: Option<Crash>) -> anyhow::Result<Summary> {
    let Size { users, nfts_per_user } = options.size;
    if !(3..=plan::PEOPLE.len()).contains(&users) || nfts_per_user == 0 {
        bail!("a demo needs 3 to {} people and at least one NFT each (asked: {users} and {nfts_per_user})", plan::PEOPLE.len());
    }
    let started = std::time::Instant::now();
    let api = Api::new(&options.api_url)?;
    api.wait_until_up(Duration::from_secs(60)).await?;
    let config = api.get("/api/config", None).await.context("reading /api/config")?;
    let market: Address = config["contractAddress"]
        .as_str()
        .filter(|a| !a.is_empty())
        .context("the server has no contract (RPC_URL and CONTRACT_ADDRESS)")?
        .parse()
        .context("the server's contract address")?;
    let chain_id = config["chainId"].as_u64().context("the server's chain id")?;
    let from_block = config["deploymentBlock"].as_u64().unwrap_or(0);
    let categories: Vec<String> = api
        .get("/api/misc/category", None)
        .await?
        .as_array()
        .map(|list| list.iter().filter_map(|c| c["_id"].as_str().or(c["id"].as_str()).map(str::to_owned)).collect())
        .unwrap_or_default();
    if categories.is_empty() {
        bail!("the server lists no categories");
    }
    let plan = Plan::new(options.size, &categories);
    let (chain, signers) = Chain::connect(&options.rpc_url, market, plan.people.len())?;
    let rpc_chain = chain.provider.get_chain_id().await.with_context(|| format!("asking {} for its chain id", options.rpc_url))?;
    if rpc_chain != chain_id {
        bail!("{} is chain {rpc_chain}, the server's is {chain_id}", options.rpc_url);
    }
    let nft_ids = vec![None; plan.nfts.len()];
    let mut demo = Demo {
        api,
        chain,
        signers,
        chain_id,
        from_block,
        plan,
        members: Vec::new(),
        nft_ids,
        collection_ids: Vec::new(),
        summary: Summary::default(),
        crash,
    };
    demo.people().await.context("signing up the demo's people")?;
    tracing::info!(people = demo.members.len(), "demo: people ready");
    demo.mint_all().await.context("minting the demo's NFTs")?;
    tracing::info!(nfts = demo.nft_ids.len(), "demo: NFTs ready");
    demo.trade().await.context("buying and bidding")?;
    demo.collections().await.context("making collections")?;
    demo.social().await.context("likes and bookmarks")?;
    if let Some(log) = &options.log {
        demo.moderation(log.as_ref()).await.context("the staff, reports and decisions")?;
    }
    tracing::info!(seconds = started.elapsed().as_secs(), "demo: done");
    Ok(demo.summary)
}

impl Demo {
    /// Signs each person in, or up (with the code from the dev mailbox); fills their profile;
    /// links their wallet with a signed message; funds the wallet.
    async fn people(&mut self) -> anyhow::Result<()> {
        for (index, person) in self.plan.people.iter().enumerate() {
            let email = plan::email(person);
            let token = match self.sign_in(&email).await? {
                Some(token) => {
                    self.summary.existing("users");
                    token
                }
                None => {
                    let registration = json!({
                        "email": email, "fullName": person.full_name, "username": person.username,
                        "password": plan::PASSWORD, "confirmPassword": plan::PASSWORD,
                    });
                    self.api.call(Method::POST, "/api/auth/register", None, Body::Json(registration)).await?;
                    let token = self.verify(&email).await?;
                    self.summary.created("users");
                    token
                }
            };
            let profile = self.api.get("/api/account/myprofile", Some(&token)).await?;
            let user_id = profile["userId"].as_str().context("myprofile without userId")?.to_owned();
            let filled =
                !profile["avatar"].as_str().unwrap_or_default().is_empty() && !profile["bio"].as_str().unwrap_or_default().is_empty();
            if !filled {
                let seed = 0xA5A5 + index as u64;
                let fields = vec![("fullName", person.full_name.to_owned()), ("bio", person.bio.to_owned())];
                let images = vec![("avatar", artwork::avatar(seed)), ("coverImage", artwork::cover(seed))];
                self.api.call(Method::PUT, "/api/account/myprofile", Some(&token), Body::Multipart(fields, images)).await?;
            }
            self.summary.either("profiles", !filled);
            let signer = &self.signers[index];
            let address = signer.address();
            let linked = profile["connectedWallet"].as_array().is_some_and(|wallets| {
                wallets.iter().any(|w| w["walletAddress"].as_str().is_some_and(|a| a.eq_ignore_ascii_case(&address.to_string())))
            });
            if !linked {
                self.link_wallet(&token, signer).await?;
            }
            self.summary.either("wallets linked", !linked);
            let funded = self.chain.fund(address).await?;
            self.summary.either("wallets funded", funded);
            self.members.push(Member { token, user_id, address });
        }
        Ok(())
    }

    /// Signs in with the demo password: the token, or `None` when no such account exists.
    async fn sign_in(&self, email: &str) -> anyhow::Result<Option<String>> {
        let body = Body::Json(json!({ "email": email, "password": plan::PASSWORD }));
        match self.api.call(Method::POST, "/api/auth/login", None, body).await {
            Ok(answer) => Ok(Some(answer["accessToken"].as_str().context("login without accessToken")?.to_owned())),
            // Signed up but never verified (a run stopped there): login mailed a fresh code.
            Err(err) if refused_with(&err, StatusCode::FORBIDDEN) => Ok(Some(self.verify(email).await?)),
            Err(err) if refused_with(&err, StatusCode::UNAUTHORIZED) || refused_with(&err, StatusCode::NOT_FOUND) => Ok(None),
            Err(err) => Err(err),
        }
    }

    /// Verifies `email` with the newest code in the dev mailbox; answers the access token.
    async fn verify(&self, email: &str) -> anyhow::Result<String> {
        let mails = self.api.get(&format!("/api/dev/mailbox?to={}", encode(email)), None).await.context("reading the dev mailbox")?;
        let code = mails.as_array().and_then(|m| m.iter().find_map(|mail| mail["code"].as_str())).context("no code in the dev mailbox")?;
        let body = Body::Json(json!({ "email": email, "verificationCode": code }));
        let verified = self.api.call(Method::POST, "/api/auth/verifyaccount", None, body).await?;
        match verified["accessToken"].as_str() {
            Some(token) => Ok(token.to_owned()),
            // Already verified: sign in instead.
            None => {
                let body = Body::Json(json!({ "email": email, "password": plan::PASSWORD }));
                let answer = self.api.call(Method::POST, "/api/auth/login", None, body).await?;
                Ok(answer["accessToken"].as_str().context("login without accessToken")?.to_owned())
            }
        }
    }

    /// Links `signer`'s address with a Sign-In with Ethereum message, as the wallet dialog does.
    async fn link_wallet(&self, token: &str, signer: &PrivateKeySigner) -> anyhow::Result<()> {
        let nonce = self.api.get("/api/account/walletnonce", Some(token)).await?;
        let nonce = nonce["nonce"].as_str().context("walletnonce without nonce")?;
        let host = self.api.host()?;
        let address = signer.address().to_checksum(None);
        let issued = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let message = format!(
            "{host} wants you to sign in with your Ethereum account:\n{address}\n\nLink this wallet to your marketplace account.\n\n\
             URI: {}\nVersion: 1\nChain ID: {}\nNonce: {nonce}\nIssued At: {issued}",
            self.api.base(),
            self.chain_id
        );
        let signature = signer.sign_message_sync(message.as_bytes())?.to_string();
        let body = json!({ "walletProvider": "Metamask", "walletAddress": address, "message": message, "signature": signature });
        self.api.call(Method::PUT, "/api/account/connectwallet", Some(token), Body::Json(body)).await?;
        Ok(())
    }

    /// Mints every planned NFT its creator has not made yet (found by title among their
    /// created NFTs), uploading its artwork first and recording the mint after. A token the
    /// creator already minted with the planned metadata (a run killed between the mint and its
    /// record) is recorded instead of minted again.
    async fn mint_all(&mut self) -> anyhow::Result<()> {
        let mut created: Vec<HashMap<String, String>> = Vec::new();
        for member in &self.members {
            let cards = self.api.all_pages(&format!("/api/nft/usercreatednft/{}", member.user_id), None).await?;
            created.push(cards.iter().filter_map(|c| Some((c["title"].as_str()?.to_owned(), c["_id"].as_str()?.to_owned()))).collect());
        }
        // Each creator's mints on chain, read once, when one of their NFTs is missing.
        let mut mints: Vec<Option<HashMap<String, (U256, B256)>>> = vec![None; self.members.len()];
        for index in 0..self.plan.nfts.len() {
            let nft = &self.plan.nfts[index];
            if let Some(id) = created[nft.creator].get(&nft.title) {
                self.nft_ids[index] = Some(id.clone());
                self.summary.existing("nfts");
                continue;
            }
            let creator = nft.creator;
            if mints[creator].is_none() {
                mints[creator] = Some(self.chain.mints_of(self.members[creator].address, self.from_block).await?);
            }
            let minted = mints[creator].as_ref().context("the creator's mints")?;
            let (id, resumed) = self.mint(index, minted).await.with_context(|| format!("minting {:?}", self.plan.nfts[index].title))?;
            self.nft_ids[index] = Some(id);
            self.summary.created(if resumed { "mints resumed" } else { "nfts" });
            if (index + 1) % 8 == 0 {
                tracing::info!(minted = index + 1, of = self.plan.nfts.len(), "demo: minting");
            }
        }
        Ok(())
    }

    /// Uploads the artwork and metadata of the plan's NFT `index`, mints it unless `minted`
    /// (the creator's mints by token URI) holds its metadata URI, and records the mint. Answers
    /// the NFT's id and whether it recorded an earlier mint.
    async fn mint(&self, index: usize, minted: &HashMap<String, (U256, B256)>) -> anyhow::Result<(String, bool)> {
        let nft: &NftPlan = &self.plan.nfts[index];
        let creator = &self.members[nft.creator];
        let (style, seed) = (nft.style, nft.seed);
        let art = tokio::task::spawn_blocking(move || artwork::nft_image(style, seed)).await?;
        let properties: Vec<Value> = nft.properties.iter().map(|(key, value)| json!({ "key": key, "value": value })).collect();
        let fields = vec![
            ("title", nft.title.clone()),
            ("description", nft.description.clone()),
            ("nftCategory", nft.category.clone()),
            ("properties", Value::Array(properties).to_string()),
        ];
        // Content-addressed: the same artwork and fields give the same metadata URI every run.
        let uploaded =
            self.api.call(Method::POST, "/api/nft/ipfsupload", Some(&creator.token), Body::Multipart(fields, vec![("file", art)])).await?;
        let uri = uploaded["metaData"].as_str().context("ipfsupload without metaData")?.to_owned();

        let receivers: Vec<Address> = nft.royalties.iter().map(|(who, _)| self.members[*who].address).collect();
        let resumed = minted.contains_key(&uri);
        let (receipt, end) = match minted.get(&uri) {
            Some(&(token, hash)) => {
                tracing::info!(token = %token, tx = %hash, title = nft.title, "demo: recording a token minted by an interrupted run");
                let receipt = self
                    .chain
                    .provider
                    .get_transaction_receipt(hash)
                    .await?
                    .with_context(|| format!("no receipt for the mint {hash:#x}"))?;
                let end = match nft.sale {
                    Sale::Auction { .. } => self.chain.market.auctionInfo(token).call().await?.endTime,
                    _ => 0,
                };
                (receipt, end)
            }
            None => {
                // The contract's mint, with the sale as the create form sends it.
                let (sale_type, price, base, end) = match &nft.sale {
                    Sale::NotForSale => (0u8, U256::ZERO, U256::ZERO, 0u64),
                    Sale::Fixed { price } => (1, wei(price)?, U256::ZERO, 0),
                    Sale::Auction { base, buy_now, hours } => (2, wei(buy_now)?, wei(base)?, self.chain.now().await? + hours * 3600),
                };
                let shares: Vec<Uint<96, 2>> = nft.royalties.iter().map(|(_, bps)| Uint::from(*bps)).collect();
                let call = self
                    .chain
                    .market
                    .mint(uri.clone(), sale_type, receivers.clone(), shares, end, base, price)
                    .from(creator.address)
                    .into_transaction_request();
                let receipt = self.chain.send(call, "mint").await?;
                self.crashes_at(Crash::AfterMint { nft: index })?;
                (receipt, end)
            }
        };

        let royalty: Vec<Value> = nft
            .royalties
            .iter()
            .zip(&receivers)
            .map(|((_, bps), address)| json!({ "walletAddress": address.to_checksum(None), "percentage": f64::from(*bps) / 100.0 }))
            .collect();
        let (form_of_sale, fixed, start) = match &nft.sale {
            Sale::NotForSale => ("NOT_FOR_SALE", "0".to_owned(), "0".to_owned()),
            Sale::Fixed { price } => ("FIXEDPRICE", price.clone(), "0".to_owned()),
            Sale::Auction { base, buy_now, .. } => ("AUCTION", buy_now.clone(), base.clone()),
        };
        let fields = vec![
            ("formOfSale", form_of_sale.to_owned()),
            ("saleCoin", "1".to_owned()),
            ("mintNft", "true".to_owned()),
            ("metaData", uri),
            ("mintResponse", serde_json::to_string(&receipt)?),
            ("nftCategory", nft.category.clone()),
            ("fixedPrice", fixed),
            ("auctionStartPrice", start),
            ("auctionEndHours", (end * 1000).to_string()),
            ("royalty", Value::Array(royalty).to_string()),
            ("transactionHash", format!("{:#x}", receipt.transaction_hash)),
        ];
        let card = self.api.call(Method::POST, "/api/nft/generation", Some(&creator.token), Body::Form(fields)).await?;
        let id = card["_id"].as_str().context("generation answered no NFT")?.to_owned();
        Ok((id, resumed))
    }

    fn id(&self, index: usize) -> anyhow::Result<&str> {
        self.nft_ids[index].as_deref().context("an NFT of the plan was not minted")
    }

    /// Purchases and bids: each done only while the chain shows it has not happened yet (the
    /// token still its creator's and for sale for a purchase, no bids past the plan's for an
    /// auction's bids).
    async fn trade(&mut self) -> anyhow::Result<()> {
        for index in 0..self.plan.nfts.len() {
            let id = self.id(index)?.to_owned();
            let card = self.api.get(&format!("/api/nft/detail/{id}"), None).await?;
            let token_id = U256::from_str_radix(card["nftTokenId"].as_str().context("nftTokenId")?, 10)?;
            let (buyer, bids) = (self.plan.nfts[index].buyer, !self.plan.nfts[index].bids.is_empty());
            if let Some(buyer) = buyer {
                self.purchase(index, buyer, token_id, &id).await?;
            }
            if bids {
                self.bid(index, token_id, &id).await?;
            }
        }
        Ok(())
    }

    /// Buys NFT `index` (token `token_id`, NFT `id`) for person `buyer` at its fixed price and
    /// records it, while the chain shows it its creator's and for sale. When it is the
    /// buyer's already, a run may have been killed between the purchase's transaction and its
    /// record: the chain's last fixed-price sale of the token to the buyer is recorded again
    /// (a retry of a record that went through appends nothing).
    async fn purchase(&mut self, index: usize, buyer: usize, token_id: U256, id: &str) -> anyhow::Result<()> {
        let creator = self.members[self.plan.nfts[index].creator].address;
        let address = self.members[buyer].address;
        let info = self.chain.market.tokenInfo(token_id).call().await?;
        let open = info.currentOwner == creator && info.saleType == 1;
        if open {
            let call = self.chain.market.buyToken(token_id).from(address).value(info.price).into_transaction_request();
            let receipt = self.chain.send(call, "buyToken").await?;
            self.crashes_at(Crash::AfterPurchase { nft: index })?;
            self.record_purchase(buyer, id, receipt.transaction_hash).await?;
        } else if info.currentOwner == address
            && let Some(hash) = self.chain.last_purchase(token_id, address, self.from_block).await?
        {
            // A kill may have come between the purchase and its record: record it again (a
            // buyer's retry of a record changes nothing).
            self.record_purchase(buyer, id, hash).await?;
        }
        self.summary.either("purchases", open);
        Ok(())
    }

    /// Ends the run with [`Crashed`] if it is to crash `at` this point.
    fn crashes_at(&self, at: Crash) -> anyhow::Result<()> {
        if self.crash == Some(at) { Err(Crashed(at).into()) } else { Ok(()) }
    }

    /// Records the purchase `hash` of person `buyer`.
    async fn record_purchase(&self, buyer: usize, id: &str, hash: B256) -> anyhow::Result<()> {
        let fields = vec![
            ("formOfSale", "FIXEDPRICE".to_owned()),
            ("nftid", id.to_owned()),
            ("saleQuantity", "1".to_owned()),
            ("transactionHash", format!("{hash:#x}")),
        ];
        self.record(buyer, "/api/nft/fixedsale/purchase", fields).await
    }

    /// Places the planned bids on NFT `index` (token `token_id`, NFT `id`) that its auction
    /// lacks. The auction's bids on chain are the truth: those matching the plan's first bids
    /// (same bidder, same amount, in order) are there already; the rest are placed, each
    /// recorded. A run killed between a bid's transaction and its record leaves only that last
    /// bid unrecorded, so the last bid found is recorded again (a retry of a record that went
    /// through appends nothing). Nothing is placed in an auction that is over, not
    /// the creator's, or holds bids the plan does not.
    async fn bid(&mut self, index: usize, token_id: U256, id: &str) -> anyhow::Result<()> {
        let nft = &self.plan.nfts[index];
        let creator = self.members[nft.creator].address;
        let info = self.chain.market.tokenInfo(token_id).call().await?;
        let auction = self.chain.market.auctionInfo(token_id).call().await?;
        let open = info.currentOwner == creator && info.saleType == 2 && !auction.ended && auction.endTime > self.chain.now().await?;
        let placed =
            if info.auctionId.is_zero() { Vec::new() } else { self.chain.bids_of(token_id, info.auctionId, self.from_block).await? };
        let mut planned = Vec::new();
        for (bidder, amount) in &nft.bids {
            planned.push((*bidder, self.members[*bidder].address, amount.clone(), wei(amount)?));
        }
        let matching =
            placed.iter().zip(&planned).take_while(|((who, paid, _), (_, address, _, amount))| who == address && paid == amount).count();
        if matching < placed.len() {
            tracing::warn!(title = nft.title, "demo: the auction holds bids the plan does not make; placing none");
        }
        if let Some(&(_, _, hash)) = placed[..matching].last() {
            let (bidder, _, amount, _) = &planned[matching - 1];
            self.record_bid(*bidder, id, amount, hash).await?;
        }
        for (n, (bidder, address, amount, value)) in planned.iter().enumerate() {
            let place = n >= matching && matching == placed.len() && open;
            if place {
                let call = self.chain.market.bid(token_id).from(*address).value(*value).into_transaction_request();
                let receipt = self.chain.send(call, "bid").await?;
                self.crashes_at(Crash::AfterBid { nft: index, bid: n })?;
                self.record_bid(*bidder, id, amount, receipt.transaction_hash).await?;
            }
            self.summary.either("bids", place);
        }
        Ok(())
    }

    /// Records the bid `hash` of person `bidder`.
    async fn record_bid(&self, bidder: usize, id: &str, amount: &str, hash: B256) -> anyhow::Result<()> {
        let fields = vec![
            ("formOfSale", "AUCTION".to_owned()),
            ("nftid", id.to_owned()),
            ("bidAmount", amount.to_owned()),
            ("transactionHash", format!("{hash:#x}")),
        ];
        self.record(bidder, "/api/nft/auction/placebid", fields).await
    }

    /// Sends the record call `path` as `person`. Sending it again is harmless: the API answers a
    /// user's retry of a record as it answered the first one, appending nothing.
    async fn record(&self, person: usize, path: &str, fields: Vec<(&'static str, String)>) -> anyhow::Result<()> {
        self.api.call(Method::POST, path, Some(&self.members[person].token), Body::Form(fields)).await?;
        Ok(())
    }

    /// Each person's collection (found by title among theirs), with its NFTs they still own.
    async fn collections(&mut self) -> anyhow::Result<()> {
        let mut ids = Vec::new();
        for collection in &self.plan.collections {
            let member = &self.members[collection.creator];
            let mine = self.api.all_pages("/api/collection", Some(&member.token)).await?;
            let id = match mine.iter().find(|c| c["title"] == collection.title.as_str()).and_then(|c| c["_id"].as_str()) {
                Some(id) => {
                    self.summary.existing("collections");
                    id.to_owned()
                }
                None => {
                    let image = artwork::collection_image(collection.style, collection.seed);
                    let body = Body::Multipart(vec![("title", collection.title.clone())], vec![("image", image)]);
                    let created = self.api.call(Method::POST, "/api/collection", Some(&member.token), body).await?;
                    self.summary.created("collections");
                    created["_id"].as_str().context("the new collection has no _id")?.to_owned()
                }
            };
            let members = self.api.all_pages(&format!("/api/nft/browsebycollection/{id}?formOfSale=ALL"), None).await?;
            let present: Vec<&str> = members.iter().filter_map(|c| c["_id"].as_str()).collect();
            let mut missing = Vec::new();
            for &nft in &collection.nfts {
                let nft_id = self.nft_ids[nft].as_deref().context("an NFT of the plan was not minted")?;
                let is_new = !present.contains(&nft_id);
                if is_new {
                    missing.push(json!({ "nftId": nft_id }));
                }
                self.summary.either("collection items", is_new);
            }
            if !missing.is_empty() {
                let path = format!("/api/collection/nft/{id}");
                self.api.call(Method::PUT, &path, Some(&member.token), Body::Json(Value::Array(missing))).await?;
            }
            ids.push(id);
        }
        self.collection_ids = ids;
        Ok(())
    }

    /// Likes and bookmarks of NFTs, likes of collections: each toggled only while the viewer's
    /// flag says it is off (a toggle is not idempotent, the flag makes it so).
    async fn social(&mut self) -> anyhow::Result<()> {
        let mut wanted: BTreeMap<(usize, usize), (bool, bool)> = BTreeMap::new();
        for &(person, nft) in &self.plan.likes {
            wanted.entry((person, nft)).or_default().0 = true;
        }
        for &(person, nft) in &self.plan.bookmarks {
            wanted.entry((person, nft)).or_default().1 = true;
        }
        for ((person, nft), (like, bookmark)) in wanted {
            let token = &self.members[person].token;
            let id = self.nft_ids[nft].as_deref().context("an NFT of the plan was not minted")?;
            let card = self.api.get(&format!("/api/nft/detail/{id}"), Some(token)).await?;
            if like {
                let missing = card["isLiked"] != true;
                if missing {
                    self.api.call(Method::PUT, &format!("/api/nft/like/{id}"), Some(token), Body::Empty).await?;
                }
                self.summary.either("likes", missing);
            }
            if bookmark {
                let missing = card["isBookmarked"] != true;
                if missing {
                    self.api.call(Method::PUT, &format!("/api/nft/bookmark/{id}"), Some(token), Body::Empty).await?;
                }
                self.summary.either("bookmarks", missing);
            }
        }
        for &(person, collection) in &self.plan.collection_likes {
            let token = &self.members[person].token;
            let id = &self.collection_ids[collection];
            let card = self.api.get(&format!("/api/collection/browsebyid/{id}"), Some(token)).await?;
            let missing = card["isLiked"] != true;
            if missing {
                self.api.call(Method::PUT, &format!("/api/collection/like/{id}"), Some(token), Body::Empty).await?;
            }
            self.summary.either("collection likes", missing);
        }
        Ok(())
    }
}

/// The demo's admin (index into the people): ada_lumen, whom the screenshots sign in as.
pub const ADMIN: usize = 0;
/// The demo's moderator: kofi_waves, a moderator of the contract too (holds sales).
pub const MODERATOR: usize = 1;

impl Demo {
    /// The staff and their work: ada an admin and kofi a moderator (granted by the operator, in
    /// the log; kofi's wallet a moderator of the contract, granted by its admin, account 0); a
    /// few reports by others; the last NFT nobody trades, likes or collects hidden by kofi for
    /// a report; ada verifying the first collection and its creator. Each step is skipped when
    /// already done (a role held, a report open, a target hidden or verified).
    async fn moderation(&mut self, store: &dyn EventStore) -> anyhow::Result<()> {
        use domain::moderation::{ModerationCommandError, ModerationError, Role, RoleChange};
        for (person, role) in [(ADMIN, Role::Admin), (MODERATOR, Role::Moderator)] {
            let user_id = self.api.get("/api/account/myprofile", Some(&self.members[person].token)).await?["userId"]
                .as_str()
                .context("a profile without userId")?
                .parse()?;
            let change = RoleChange { actor: None, user_id, role, grant: true, now: chrono::Utc::now() };
            let metadata = domain::Metadata { actor: Some("operator".into()), ..domain::Metadata::default() };
            match domain::moderation::change_role(store, change, &metadata).await {
                Ok(_) => self.summary.created("staff roles"),
                Err(ModerationCommandError::Rejected(ModerationError::Conflict(_))) => self.summary.existing("staff roles"),
                Err(err) => return Err(err.into()),
            }
        }
        let moderator = self.signers[MODERATOR].address();
        let is_moderator = self.chain.market.isModerator(moderator).call().await.context("isModerator")?;
        if !is_moderator {
            let request = self.chain.market.setModerator(moderator, true).from(self.chain.funder).into_transaction_request();
            self.chain.send(request, "setModerator").await?;
        }
        self.summary.either("contract moderators", !is_moderator);

        let plan = &self.plan;
        let quiet = quiet_nft(plan);
        let people = plan.people.len();
        let reporters = [5 % people, 3 % people];
        let quiet = quiet.map(|nft| (nft, plan.nfts[nft].creator));
        let last_creator = plan.collections.last().map(|c| c.creator);
        let first_creator = plan.collections.first().map(|c| c.creator);
        if let Some((nft, creator)) = quiet {
            let id = self.nft_ids[nft].clone().context("an NFT of the plan was not minted")?;
            let reports = [
                (reporters[0], "SCAM".to_owned(), "A copy of another artist's series, minted again.".to_owned()),
                (reporters[1], "SPAM".to_owned(), "Posted many times over.".to_owned()),
            ];
            for (reporter, reason, text) in reports {
                if reporter != creator {
                    self.report(reporter, "nft", id.clone(), reason, text).await?;
                }
            }
            let standing = self.api.get(&format!("/api/moderation/nft/{id}"), None).await?;
            let hidden = standing["hidden"] == true;
            if !hidden {
                let reason =
                    json!({ "text": "Reported as a copy of another artist's work; hidden while the creator shows the originals." });
                let token = &self.members[MODERATOR].token;
                self.api.call(Method::POST, &format!("/api/moderation/nft/{id}/hide"), Some(token), Body::Json(reason)).await?;
            }
            self.summary.either("hidden NFTs", !hidden);
        }
        // An open report awaiting the moderators, on a collection.
        if let Some(collection) = self.collection_ids.last().cloned() {
            let reporter = (0..people).find(|&p| Some(p) != last_creator && p != MODERATOR && p != ADMIN).unwrap_or(2);
            self.report(reporter, "collection", collection, "SCAM".into(), "The name copies a well-known collection.".into()).await?;
        }
        // Verified: the first collection and its creator.
        if let (Some(collection), Some(first_creator)) = (self.collection_ids.first().cloned(), first_creator) {
            let creator = self.api.get("/api/account/myprofile", Some(&self.members[first_creator].token)).await?["userId"]
                .as_str()
                .context("a profile without userId")?
                .to_owned();
            for (kind, id) in [("collection".to_owned(), collection), ("user".to_owned(), creator)] {
                let verified = self.api.get(&format!("/api/moderation/{kind}/{id}"), None).await?["verified"] == true;
                if !verified {
                    let token = &self.members[ADMIN].token;
                    self.api.call(Method::POST, &format!("/api/moderation/{kind}/{id}/verify"), Some(token), Body::Json(json!({}))).await?;
                }
                self.summary.either("verified badges", !verified);
            }
        }
        Ok(())
    }

    /// Files a report by `person`; one they filed before and that is still open counts as there.
    async fn report(&mut self, person: usize, kind: &'static str, id: String, reason: String, text: String) -> anyhow::Result<()> {
        let body = json!({ "targetKind": kind, "targetId": id, "reason": reason, "text": text });
        let token = self.members[person].token.clone();
        let answer = self.api.call(Method::POST, "/api/report", Some(&token), Body::Json(body)).await;
        match answer {
            Ok(_) => self.summary.created("reports"),
            Err(err) if refused_with(&err, StatusCode::CONFLICT) => self.summary.existing("reports"),
            Err(err) => return Err(err),
        }
        Ok(())
    }
}

/// The NFT the demo hides: the last one nobody buys, bids on, bookmarks or collects (no other
/// part of the demo, nor a test walking it, misses it; likes it may have), not the staff's own.
fn quiet_nft(plan: &Plan) -> Option<usize> {
    (0..plan.nfts.len()).rev().find(|&i| {
        let nft = &plan.nfts[i];
        nft.sale == Sale::NotForSale
            && nft.buyer.is_none()
            && nft.bids.is_empty()
            && !plan.bookmarks.iter().any(|&(_, n)| n == i)
            && !plan.collections.iter().any(|c| c.nfts.contains(&i))
            && nft.creator != MODERATOR
            && nft.creator != ADMIN
    })
}

/// `marketplace demo`: fills the running server's market; prints what it created.
pub async fn command(config: Config, api_url: Option<String>, size: Size) -> anyhow::Result<std::process::ExitCode> {
    let options = Options {
        api_url: api_url.unwrap_or_else(|| format!("http://{}", config.listen)),
        rpc_url: config.rpc_url.clone().unwrap_or_else(|| format!("http://127.0.0.1:{}", config.anvil_port)),
        size,
        log: Some(crate::log::open(&config).await?),
    };
    let started = std::time::Instant::now();
    let summary = run(&options).await?;
    println!("demo data in {:.0} s: {summary}", started.elapsed().as_secs_f64());
    Ok(std::process::ExitCode::SUCCESS)
}
