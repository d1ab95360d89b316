//! `notices`: the chain's facts and the moderators' decisions addressed to the wallets and users
//! they concern, and each user's reads and settings (see `migrations/*/0011_notices.sql` and
//! `0018_moderation_notices.sql`).
//!
//! Who is told what:
//! - a bid: the owner (BID_RECEIVED); the bid it replaced, refunded in the same transaction,
//!   its bidder (OUTBID); a refund in any other transaction (the auction stopped, bought out or
//!   the token moved) its bidder (AUCTION_ENDED);
//! - the owner's rejection of the top bid: its bidder (BID_REJECTED);
//! - an auction's end: with the top bidder winning, the winner (BID_ACCEPTED); without a
//!   winner, the owner (AUCTION_ENDED);
//! - a sale: the seller (SOLD) and the buyer (BOUGHT), unless the buyer was just told they won
//!   the auction or had their offer accepted;
//! - an offer: the owner (OFFER_RECEIVED); its acceptance or rejection, the offerer
//!   (OFFER_ACCEPTED, OFFER_REJECTED);
//! - a stolen-item hold of the token's sale, or its renewal: the owner (SALE_HELD); its release
//!   before its end: the owner (SALE_RELEASED);
//! - the clock (`AuctionClockEvent`): an auction ending within the hour, everyone who bid in it
//!   before (AUCTION_ENDING); its time up unsettled, the owner and the top bidder
//!   (AUCTION_ENDED);
//! - a moderator hiding or restoring an NFT or a collection: its owner (HIDDEN, RESTORED, with
//!   the moderator's reason): the NFT's owning wallet at that event, the collection's creator;
//!   the reports a decision closes (a hiding's, a dismissal's, a restore's): each reporter
//!   (REPORT_DECIDED, with the decision and its reason); an owner's appeal turned down (the
//!   hiding holds), the owner who appealed (APPEAL_DECLINED, with the reason). No notice names
//!   the moderator or the other reporters; muted reporters' reports are never decided and tell
//!   nobody.
//!
//! A notice's `recipient` is a wallet, or `user:{userId}` for a person (a collection's creator, a
//! reporter: moderation names people, not wallets); the queries read both as the user's.
//! Moderation events are few (people acting), so each is written with its own statements, in
//! log order with the batch's facts: the reporters of the open reports are kept in
//! `notice_reports`, the appeal awaiting a decision in `notice_appeals`, and read by the
//! statement that tells them (never back into memory), and a
//! collection's creator is read from the collections model, which folds each batch before this
//! one (a collection is created before it can be hidden).
//!
//! Whom to tell depends on the token's owner and top bid *at that event*, which this model keeps
//! in `notice_tokens`. A batch reads the rows of its tokens once, folds its facts in memory in log
//! order, and writes the new notices and the changed rows with a few multi-row statements; while
//! a fresh generation fills from the start it keeps every row in memory instead of reading them
//! back ([`ReadModel::remember`]), so it fills in the pipeline like the other models. The result is
//! the same however the log is cut into batches.

use std::{collections::BTreeSet, sync::Mutex};

use async_trait::async_trait;
use domain::{
    RecordedEvent,
    chain::{ChainEvent, Origin},
    moderation::{ModerationEvent, TargetKind},
    notices::{AuctionClockEvent, NoticeEvent},
};
use rustc_hash::FxHashMap;

use crate::{
    ProjectionError, ReadModel,
    read_model::{Prefetched, Remember, nft_of},
    sql::{self, Conn, Value},
};

/// The notices tables.
#[derive(Default)]
pub struct Notices {
    /// What [`ReadModel::prefetch`] decoded (on the read-ahead's thread).
    decoded: Prefetched<Decoded>,
    /// Every token's row while a fresh generation fills (see [`ReadModel::remember`]).
    memory: Mutex<Option<Memory>>,
}

/// An event this model folds, decoded.
enum Decoded {
    Chain(ChainEvent),
    User(NoticeEvent),
    Clock(AuctionClockEvent),
    Moderation(ModerationEvent),
}

/// The moderation events notices are made of (the others concern the staff and the record).
const MODERATION_TYPES: &[&str] = &["ReportFiled", "TargetHidden", "TargetRestored", "ReportsDismissed", "HidingAppealed"];

fn decode(event: &RecordedEvent) -> Result<Decoded, ProjectionError> {
    let malformed = |e: domain::StoreError| ProjectionError::malformed(event, e.to_string());
    let kind = event.event_type.as_str();
    Ok(if NoticeEvent::TYPES.contains(&kind) {
        Decoded::User(event.payload().map_err(malformed)?)
    } else if AuctionClockEvent::TYPES.contains(&kind) {
        Decoded::Clock(event.payload().map_err(malformed)?)
    } else if MODERATION_TYPES.contains(&kind) {
        Decoded::Moderation(event.payload().map_err(malformed)?)
    } else {
        Decoded::Chain(event.payload().map_err(malformed)?)
    })
}

/// The zero address, an auction's end without a winner.
const NOBODY: &str = "0x0000000000000000000000000000000000000000";

/// What deciding a notice needs to know of a token (a `notice_tokens` row).
#[derive(Clone, Debug, Default)]
struct Token {
    owner: String,
    /// The auction's top bidder, the transaction of that bid and its amount (wei).
    bidder: Option<String>,
    bid_tx: Option<String>,
    bid_amount: Option<String>,
    /// Who was just told they won it (not told again that they bought it).
    told_buyer: Option<String>,
}

impl Token {
    fn clear_bid(&mut self) {
        self.bidder = None;
        self.bid_tx = None;
        self.bid_amount = None;
    }
}

/// One notice row.
struct Notice {
    position: i64,
    recipient: String,
    kind: &'static str,
    nft_id: String,
    amount: String,
    counterpart: Option<String>,
    tx: String,
    at: i64,
    /// A moderation notice's target (`nft`, `collection`, `user`) and its id; none for trades.
    target: Option<(&'static str, String)>,
    /// A moderation notice's reason, as the moderator wrote it.
    reason: Option<String>,
    /// An OUTBID's new top bid (wei).
    top_amount: Option<String>,
}

/// The tokens a batch touches (`None`: burned or never minted) and what it tells.
#[derive(Default)]
struct Fold {
    tokens: FxHashMap<String, Option<Token>>,
    changed: BTreeSet<String>,
    notices: Vec<Notice>,
}

impl Fold {
    /// Tells `recipient` of `kind` about `nft_id`.
    #[allow(clippy::too_many_arguments, reason = "one notice's fields")]
    fn tell(
        &mut self,
        position: i64,
        nft_id: &str,
        kind: &'static str,
        recipient: &str,
        counterpart: Option<&str>,
        amount: &str,
        origin: &Origin,
    ) {
        self.notices.push(Notice {
            position,
            recipient: recipient.to_owned(),
            kind,
            nft_id: nft_id.to_owned(),
            amount: amount.to_owned(),
            counterpart: counterpart.map(str::to_owned),
            tx: origin.tx_hash.clone(),
            at: origin.block_time,
            target: None,
            reason: None,
            top_amount: None,
        });
    }

    /// Tells the wallet owning NFT `nft_id` now (if this model knows it) that a moderator hid or
    /// restored it.
    fn tell_owner(&mut self, position: i64, nft_id: &str, kind: &'static str, reason: &str, at: i64) {
        let Some(Some(token)) = self.tokens.get(nft_id) else { return };
        self.notices.push(Notice {
            position,
            recipient: token.owner.clone(),
            kind,
            nft_id: nft_id.to_owned(),
            amount: "0".to_owned(),
            counterpart: None,
            tx: String::new(),
            at,
            target: Some((TargetKind::Nft.as_str(), nft_id.to_owned())),
            reason: Some(reason.to_owned()),
            top_amount: None,
        });
    }

    /// Folds one chain fact of `nft_id` at `position`.
    fn chain(&mut self, position: i64, nft_id: &str, fact: &ChainEvent) -> Result<(), &'static str> {
        if let ChainEvent::NftMinted { creator, .. } = fact {
            self.tokens.insert(nft_id.to_owned(), Some(Token { owner: creator.clone(), ..Token::default() }));
            self.changed.insert(nft_id.to_owned());
            return Ok(());
        }
        // The token's row is taken out while the fact is folded, and put back (no copy of it).
        let (key, mut token) = match self.tokens.remove_entry(nft_id) {
            Some((key, Some(token))) => (key, token),
            other => {
                if let Some((key, None)) = other {
                    self.tokens.insert(key, None);
                }
                // A fact of a token this model does not know (burned, or retracted) tells nobody.
                return if matches!(fact, ChainEvent::NftBurned { .. }) { Ok(()) } else { self.known(fact) };
            }
        };
        if !self.changed.contains(nft_id) {
            self.changed.insert(key.clone());
        }
        let owner = &token.owner;
        match fact {
            ChainEvent::NftTransferred { to, .. } => token.owner.clone_from(to),
            ChainEvent::NftBurned { .. } => {
                self.tokens.insert(key, None);
                return Ok(());
            }
            ChainEvent::BidPlaced { bidder, amount, origin, .. } => {
                self.tell(position, nft_id, "BID_RECEIVED", owner, Some(bidder), amount, origin);
                token.bidder = Some(bidder.clone());
                token.bid_tx = Some(origin.tx_hash.clone());
                token.bid_amount = Some(amount.clone());
            }
            ChainEvent::BidRefunded { bidder, amount, origin, .. } => {
                // Refunded by the bid just placed (same transaction) of another bidder: outbid;
                // of the same bidder: a raise, nothing to tell. Refunded in another transaction:
                // the auction stopped, was bought out, or the token moved.
                if token.bid_tx.as_deref() == Some(origin.tx_hash.as_str()) {
                    if let Some(top) = token.bidder.as_deref().filter(|top| *top != bidder.as_str()) {
                        let top = top.to_owned();
                        self.tell(position, nft_id, "OUTBID", bidder, Some(&top), amount, origin);
                        self.notices.last_mut().expect("just told").top_amount.clone_from(&token.bid_amount);
                    }
                } else {
                    self.tell(position, nft_id, "AUCTION_ENDED", bidder, Some(owner), amount, origin);
                }
            }
            ChainEvent::BidRejected { bidder, amount, origin, .. } => {
                self.tell(position, nft_id, "BID_REJECTED", bidder, Some(owner), amount, origin);
                token.clear_bid();
            }
            ChainEvent::AuctionEnded { winner, amount, origin, .. } if winner == NOBODY => {
                self.tell(position, nft_id, "AUCTION_ENDED", owner, None, amount, origin);
                token.clear_bid();
            }
            ChainEvent::AuctionEnded { winner, amount, origin, .. } => {
                // The top bid won (accepted, or settled after the end); a buy-out is only a sale.
                if token.bidder.as_deref() == Some(winner.as_str()) {
                    self.tell(position, nft_id, "BID_ACCEPTED", winner, Some(owner), amount, origin);
                    token.told_buyer = Some(winner.clone());
                }
            }
            ChainEvent::NftSold { buyer, seller, price, origin, .. } => {
                // The token moved to the buyer before this fact (the contract transfers, then
                // reports the sale): the seller is named by the fact.
                self.tell(position, nft_id, "SOLD", seller, Some(buyer), price, origin);
                if token.told_buyer.as_deref() != Some(buyer.as_str()) {
                    self.tell(position, nft_id, "BOUGHT", buyer, Some(seller), price, origin);
                }
                token.clear_bid();
                token.told_buyer = None;
            }
            ChainEvent::OfferMade { offerer, amount, origin, .. } => {
                if owner != offerer {
                    self.tell(position, nft_id, "OFFER_RECEIVED", owner, Some(offerer), amount, origin);
                }
            }
            ChainEvent::OfferAccepted { offerer, seller, amount, origin, .. } => {
                self.tell(position, nft_id, "OFFER_ACCEPTED", offerer, Some(seller), amount, origin);
                token.told_buyer = Some(offerer.clone());
            }
            ChainEvent::OfferRejected { offerer, amount, origin, .. } => {
                self.tell(position, nft_id, "OFFER_REJECTED", offerer, Some(owner), amount, origin);
            }
            ChainEvent::SaleHeld { origin, .. } => self.tell(position, nft_id, "SALE_HELD", owner, None, "0", origin),
            ChainEvent::SaleReleased { origin, .. } => self.tell(position, nft_id, "SALE_RELEASED", owner, None, "0", origin),
            _ => return Err("not a fact notices are made of"),
        }
        self.tokens.insert(key, Some(token));
        Ok(())
    }

    /// Whether `fact` is one this model folds (for a token it does not know).
    fn known(&self, fact: &ChainEvent) -> Result<(), &'static str> {
        use ChainEvent as E;
        match fact {
            E::NftTransferred { .. }
            | E::BidPlaced { .. }
            | E::BidRefunded { .. }
            | E::BidRejected { .. }
            | E::AuctionEnded { .. }
            | E::NftSold { .. }
            | E::OfferMade { .. }
            | E::OfferAccepted { .. }
            | E::OfferRejected { .. }
            | E::SaleHeld { .. }
            | E::SaleReleased { .. } => Ok(()),
            _ => Err("not a fact notices are made of"),
        }
    }

    /// The clock's "time up": the owner and the top bidder.
    fn time_up(&mut self, position: i64, nft_id: &str, end_time: i64) {
        let Some(Some(token)) = self.tokens.get(nft_id).cloned() else { return };
        let origin = Origin { block_number: 0, block_time: end_time, tx_hash: String::new(), log_index: 0 };
        self.tell(position, nft_id, "AUCTION_ENDED", &token.owner, token.bidder.as_deref(), "0", &origin);
        if let Some(bidder) = &token.bidder {
            self.tell(position, nft_id, "AUCTION_ENDED", bidder, Some(&token.owner), "0", &origin);
        }
    }

    /// Reads the rows of the tokens not in memory yet.
    async fn load(&mut self, conn: &mut Conn<'_>, ids: BTreeSet<&str>) -> Result<(), ProjectionError> {
        let wanted: Vec<Value<'_>> = ids.iter().filter(|id| !self.tokens.contains_key(**id)).map(|id| Value::Text(id)).collect();
        let sql = "SELECT nft_id, owner, bidder, bid_tx, told_buyer, bid_amount FROM notice_tokens WHERE nft_id IN ()";
        let rows = sql::select_in(conn, sql, &wanted).await?;
        for id in ids {
            self.tokens.entry(id.to_owned()).or_insert(None);
        }
        for row in rows {
            let token = Token {
                owner: row.try_get(1)?,
                bidder: row.try_get(2)?,
                bid_tx: row.try_get(3)?,
                told_buyer: row.try_get(4)?,
                bid_amount: row.try_get(5)?,
            };
            self.tokens.insert(row.try_get(0)?, Some(token));
        }
        Ok(())
    }

    /// Writes the notices and the changed rows.
    async fn write(&self, conn: &mut Conn<'_>) -> Result<(), ProjectionError> {
        let rows: Vec<Vec<Value<'_>>> = self
            .notices
            .iter()
            .map(|n| {
                vec![
                    n.position.into(),
                    (&n.recipient).into(),
                    n.kind.into(),
                    (&n.nft_id).into(),
                    (&n.amount).into(),
                    (&n.counterpart).into(),
                    (&n.tx).into(),
                    n.at.into(),
                    Value::Opt(n.target.as_ref().map(|(kind, _)| *kind)),
                    Value::Opt(n.target.as_ref().map(|(_, id)| id.as_str())),
                    Value::Opt(n.reason.as_deref()),
                    Value::Opt(n.top_amount.as_deref()),
                ]
            })
            .collect();
        let columns = [
            "position",
            "recipient",
            "kind",
            "nft_id",
            "amount",
            "counterpart",
            "tx_hash",
            "at",
            "target_kind",
            "target_id",
            "reason",
            "top_amount",
        ];
        sql::insert(conn, "notices", &columns, "ON CONFLICT (position, recipient) DO NOTHING", &rows).await?;
        let (mut kept, mut gone) = (Vec::new(), Vec::new());
        for id in &self.changed {
            match self.tokens.get(id) {
                Some(Some(t)) => kept.push(vec![
                    id.into(),
                    (&t.owner).into(),
                    (&t.bidder).into(),
                    (&t.bid_tx).into(),
                    (&t.told_buyer).into(),
                    (&t.bid_amount).into(),
                ]),
                _ => gone.push(Value::from(id)),
            }
        }
        sql::execute_in(conn, "DELETE FROM notice_tokens WHERE nft_id IN ()", &gone).await?;
        let columns = ["nft_id", "owner", "bidder", "bid_tx", "told_buyer", "bid_amount"];
        sql::insert(conn, "notice_tokens", &columns, &sql::upsert(&["nft_id"], &columns), &kept).await
    }
}

/// The tokens whose rows `decoded` can change.
fn tokens_of<'e>(decoded: &'e [(&RecordedEvent, Decoded)]) -> Result<BTreeSet<&'e str>, ProjectionError> {
    let mut ids = BTreeSet::new();
    for (event, decoded) in decoded {
        match decoded {
            Decoded::Chain(_) => {
                ids.insert(nft_of(event)?);
            }
            Decoded::Clock(AuctionClockEvent::AuctionTimeUp { nft_id, .. }) => {
                ids.insert(nft_id.as_str());
            }
            // A hidden or restored NFT's owner is told.
            Decoded::Moderation(
                ModerationEvent::TargetHidden { target_kind: TargetKind::Nft, target_id, .. }
                | ModerationEvent::TargetRestored { target_kind: TargetKind::Nft, target_id, .. },
            ) => {
                ids.insert(target_id.as_str());
            }
            _ => {}
        }
    }
    Ok(ids)
}

/// While the projector fills: the tokens' rows, and how many it may hold.
struct Memory {
    tokens: FxHashMap<String, Option<Token>>,
    limit: usize,
    /// It holds more (see [`ReadModel::outgrew_memory`]).
    full: bool,
    /// The tables were empty: a token not in `tokens` has no row. Otherwise it is read the
    /// first time a batch meets it, and kept even with no row (its row may be being deleted).
    empty: bool,
}

#[async_trait]
impl ReadModel for Notices {
    fn handles(&self, event_type: &str) -> bool {
        matches!(
            event_type,
            "NftMinted"
                | "NftTransferred"
                | "NftBurned"
                | "BidPlaced"
                | "BidRefunded"
                | "BidRejected"
                | "AuctionEnded"
                | "NftSold"
                | "OfferMade"
                | "SaleHeld"
                | "SaleReleased"
                | "OfferAccepted"
                | "OfferRejected"
        ) || NoticeEvent::TYPES.contains(&event_type)
            || AuctionClockEvent::TYPES.contains(&event_type)
            || MODERATION_TYPES.contains(&event_type)
    }

    fn prefetch(&self, events: &[&RecordedEvent]) {
        self.decoded.put(events, decode);
    }

    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        let decoded = self.decoded.take(events, decode)?;
        let memory = self.memory.lock().expect("not poisoned").take();
        let mut fold = Fold::default();
        let memory = memory.map(|Memory { tokens, limit, empty, .. }| {
            fold.tokens = tokens;
            (limit, empty)
        });
        // Filling from the start, every token is in memory (absent: never minted); otherwise
        // the rows of the tokens not in memory yet are read.
        if !matches!(memory, Some((_, true))) {
            fold.load(conn, tokens_of(&decoded)?).await?;
        }
        for (event, decoded) in &decoded {
            let position = event.position as i64;
            match decoded {
                Decoded::User(parsed) => apply_user(conn, parsed).await?,
                // Told from the NFT model's bids, written before this model's statements.
                Decoded::Clock(AuctionClockEvent::AuctionEndingSoon { nft_id, auction_id, end_time }) => {
                    ending_soon(conn, position, nft_id, auction_id, *end_time).await?;
                }
                Decoded::Clock(AuctionClockEvent::AuctionTimeUp { nft_id, end_time, .. }) => fold.time_up(position, nft_id, *end_time),
                Decoded::Chain(fact) => {
                    fold.chain(position, nft_of(event)?, fact).map_err(|reason| ProjectionError::malformed(event, reason))?
                }
                Decoded::Moderation(decision) => moderation(conn, &mut fold, position, decision).await?,
            }
        }
        fold.write(conn).await?;
        if let Some((limit, empty)) = memory {
            // Past the limit, the projector lets the memory go after this batch.
            let mut tokens = fold.tokens;
            if empty {
                tokens.retain(|_, t| t.is_some());
            }
            let full = tokens.len() > limit;
            *self.memory.lock().expect("not poisoned") = Some(Memory { tokens, limit, full, empty });
        }
        Ok(())
    }

    fn remember(&self, memory: Option<Remember>) {
        *self.memory.lock().expect("not poisoned") =
            memory.map(|Remember { rows, empty }| Memory { tokens: FxHashMap::default(), limit: rows, full: false, empty });
    }

    fn outgrew_memory(&self) -> bool {
        self.memory.lock().expect("not poisoned").as_ref().is_none_or(|memory| memory.full)
    }

    async fn forget_stream(&self, conn: &mut Conn<'_>, stream_id: &str, _at: i64) -> Result<(), ProjectionError> {
        let Some(nft_id) = stream_id.strip_prefix("nft-") else {
            return Ok(());
        };
        if let Some(memory) = &mut *self.memory.lock().expect("not poisoned") {
            // Its row is deleted below, before it could be read back: known, with none.
            memory.tokens.insert(nft_id.to_owned(), None);
        }
        // Moderation notices of the NFT are not derived from its stream: they stay.
        sql::execute(conn, "DELETE FROM notices WHERE nft_id = $1 AND target_kind IS NULL", &[nft_id.into()]).await?;
        sql::execute(conn, "DELETE FROM notice_tokens WHERE nft_id = $1", &[nft_id.into()]).await
    }
}

/// The clock's "ending within the hour": everyone who bid in the auction before this fact,
/// from the NFT model's `bids` rows (that model folds each batch first, so a row of a later bid
/// in the same batch may be there already: the position bound keeps the result the same however
/// the log is batched).
async fn ending_soon(conn: &mut Conn<'_>, position: i64, nft_id: &str, auction_id: &str, end_time: i64) -> Result<(), ProjectionError> {
    let sql = "INSERT INTO notices (position, recipient, kind, nft_id, amount, counterpart, tx_hash, at) \
               SELECT $1, b.bidder, 'AUCTION_ENDING', b.nft_id, '0', NULL, '', $2 FROM bids b \
               WHERE b.nft_id = $3 AND b.auction_id = $4 AND b.position < $1 GROUP BY b.nft_id, b.bidder";
    sql::execute(conn, sql, &[position.into(), end_time.into(), nft_id.into(), auction_id.into()]).await
}

/// The columns a moderation notice fills.
const MODERATION_COLUMNS: &str =
    "position, recipient, kind, nft_id, amount, counterpart, tx_hash, at, target_kind, target_id, reason, decision";

/// A moderation event: keeps the open reports, tells the owner of a hidden or restored target
/// and the reporters of the reports a decision closes.
async fn moderation(conn: &mut Conn<'_>, fold: &mut Fold, position: i64, event: &ModerationEvent) -> Result<(), ProjectionError> {
    match event {
        ModerationEvent::ReportFiled { report_id, target_kind, target_id, reporter_id, muted: false, .. } => {
            let (report, reporter) = (report_id.to_string(), reporter_id.to_string());
            let row = vec![Value::from(&report), target_kind.as_str().into(), target_id.into(), (&reporter).into()];
            let columns = ["report_id", "target_kind", "target_id", "reporter_id"];
            sql::insert(conn, "notice_reports", &columns, "ON CONFLICT (report_id) DO NOTHING", &[row]).await
        }
        ModerationEvent::ReportFiled { .. } => Ok(()),
        ModerationEvent::HidingAppealed { target_kind, target_id, owner_id, .. } => {
            let owner = owner_id.to_string();
            let columns = ["target_kind", "target_id", "owner_id"];
            let row = vec![Value::from(target_kind.as_str()), target_id.into(), (&owner).into()];
            sql::insert(conn, "notice_appeals", &columns, &sql::upsert(&["target_kind", "target_id"], &columns), &[row]).await
        }
        ModerationEvent::TargetHidden { target_kind, target_id, reason, report_ids, at, .. } => {
            let decided = Decision { position, kind: *target_kind, id: target_id, reason, at: at.timestamp() };
            decided.forget_appeal(conn).await?;
            decided.tell_owner(conn, fold, "HIDDEN").await?;
            decided.tell_reporters(conn, Reports::Listed(report_ids), "HIDE").await
        }
        ModerationEvent::TargetRestored { target_kind, target_id, reason, at, .. } => {
            let decided = Decision { position, kind: *target_kind, id: target_id, reason, at: at.timestamp() };
            // A pending appeal is answered by the restore itself.
            decided.forget_appeal(conn).await?;
            decided.tell_owner(conn, fold, "RESTORED").await?;
            // An appeal, or reports filed while it was hidden, are decided by the restore.
            decided.tell_reporters(conn, Reports::Open, "RESTORE").await
        }
        ModerationEvent::ReportsDismissed { target_kind, target_id, reason, report_ids, at, .. } => {
            let decided = Decision { position, kind: *target_kind, id: target_id, reason, at: at.timestamp() };
            decided.tell_appellant(conn).await?;
            decided.tell_reporters(conn, Reports::Listed(report_ids), "DISMISS").await
        }
        _ => Ok(()),
    }
}

/// Which reports a decision closes.
enum Reports<'a> {
    /// These (a hiding's, a dismissal's).
    Listed(&'a [uuid::Uuid]),
    /// Every open one of the target (a restore's).
    Open,
}

/// A moderator's decision on a target, as its notices tell it.
struct Decision<'a> {
    position: i64,
    kind: TargetKind,
    id: &'a str,
    reason: &'a str,
    at: i64,
}

impl Decision<'_> {
    /// The NFT a notice of this target names ('' for a collection or a user).
    fn nft_id(&self) -> &str {
        if self.kind == TargetKind::Nft { self.id } else { "" }
    }

    /// Tells the owner: an NFT's owning wallet (from this model's tokens), a collection's creator.
    async fn tell_owner(&self, conn: &mut Conn<'_>, fold: &mut Fold, kind: &'static str) -> Result<(), ProjectionError> {
        match self.kind {
            TargetKind::Nft => {
                fold.tell_owner(self.position, self.id, kind, self.reason, self.at);
                Ok(())
            }
            TargetKind::Collection => {
                let sql = format!(
                    "INSERT INTO notices ({MODERATION_COLUMNS}) \
                     SELECT $1, 'user:' || creator_user_id, $2, '', '0', NULL, '', $3, 'collection', collection_id, $4, NULL \
                     FROM collections WHERE collection_id = $5 ON CONFLICT (position, recipient) DO NOTHING"
                );
                let values = [self.position.into(), kind.into(), self.at.into(), self.reason.into(), self.id.into()];
                sql::execute(conn, &sql, &values).await
            }
            // A user is never hidden (their NFTs and collections are).
            TargetKind::User => Ok(()),
        }
    }

    /// A dismissal while an appeal waits turns it down (the hiding holds): tells its owner.
    async fn tell_appellant(&self, conn: &mut Conn<'_>) -> Result<(), ProjectionError> {
        let sql = format!(
            "INSERT INTO notices ({MODERATION_COLUMNS}) \
             SELECT $1, 'user:' || owner_id, 'APPEAL_DECLINED', $2, '0', NULL, '', $3, target_kind, target_id, $4, NULL \
             FROM notice_appeals WHERE target_kind = $5 AND target_id = $6 ON CONFLICT (position, recipient) DO NOTHING"
        );
        let values =
            [self.position.into(), self.nft_id().into(), self.at.into(), self.reason.into(), self.kind.as_str().into(), self.id.into()];
        sql::execute(conn, &sql, &values).await?;
        self.forget_appeal(conn).await
    }

    /// Forgets the target's pending appeal (answered).
    async fn forget_appeal(&self, conn: &mut Conn<'_>) -> Result<(), ProjectionError> {
        let sql = "DELETE FROM notice_appeals WHERE target_kind = $1 AND target_id = $2";
        sql::execute(conn, sql, &[self.kind.as_str().into(), self.id.into()]).await
    }

    /// Tells each reporter of `reports` that it was decided (`decision`: HIDE, RESTORE,
    /// DISMISS), and forgets them.
    async fn tell_reporters(&self, conn: &mut Conn<'_>, reports: Reports<'_>, decision: &str) -> Result<(), ProjectionError> {
        let select = format!(
            "INSERT INTO notices ({MODERATION_COLUMNS}) \
             SELECT $1, 'user:' || reporter_id, 'REPORT_DECIDED', $2, '0', NULL, '', $3, target_kind, target_id, $4, $5 \
             FROM notice_reports WHERE target_kind = $6 AND target_id = $7"
        );
        let conflict = "ON CONFLICT (position, recipient) DO NOTHING";
        let mut values: Vec<Value<'_>> = vec![
            self.position.into(),
            self.nft_id().into(),
            self.at.into(),
            self.reason.into(),
            decision.into(),
            self.kind.as_str().into(),
            self.id.into(),
        ];
        let delete = "DELETE FROM notice_reports WHERE target_kind = $1 AND target_id = $2";
        match reports {
            Reports::Open => {
                sql::execute(conn, &format!("{select} {conflict}"), &values).await?;
                sql::execute(conn, delete, &[self.kind.as_str().into(), self.id.into()]).await
            }
            Reports::Listed([]) => Ok(()),
            Reports::Listed(report_ids) => {
                let ids: Vec<String> = report_ids.iter().map(ToString::to_string).collect();
                // `$1`..`$7` are above; the ids follow as `$8`... (numbered by hand: the `IN ()`
                // helpers number from 1).
                let list: Vec<String> = (8..8 + ids.len()).map(|i| format!("${i}")).collect();
                let within = format!("report_id IN ({})", list.join(", "));
                values.extend(ids.iter().map(Value::from));
                sql::execute(conn, &format!("{select} AND {within} {conflict}"), &values).await?;
                let list: Vec<String> = (3..3 + ids.len()).map(|i| format!("${i}")).collect();
                let delete = format!("{delete} AND report_id IN ({})", list.join(", "));
                let mut values: Vec<Value<'_>> = vec![self.kind.as_str().into(), self.id.into()];
                values.extend(ids.iter().map(Value::from));
                sql::execute(conn, &delete, &values).await
            }
        }
    }
}

/// A user's read or settings.
async fn apply_user(conn: &mut Conn<'_>, event: &NoticeEvent) -> Result<(), ProjectionError> {
    let user = event.user_id().to_string();
    match event {
        NoticeEvent::NoticeRead { position, .. } => {
            let sql = "INSERT INTO notice_read (user_id, position) VALUES ($1, $2) ON CONFLICT (user_id, position) DO NOTHING";
            sql::execute(conn, sql, &[(&user).into(), (*position as i64).into()]).await
        }
        NoticeEvent::NoticesReadUpTo { position, .. } => {
            // Reading up to an older position than before reads nothing new.
            let sql = "INSERT INTO notice_reads (user_id, read_up_to) VALUES ($1, $2) \
                       ON CONFLICT (user_id) DO UPDATE SET read_up_to = CASE WHEN excluded.read_up_to > notice_reads.read_up_to \
                       THEN excluded.read_up_to ELSE notice_reads.read_up_to END";
            sql::execute(conn, sql, &[(&user).into(), (*position as i64).into()]).await?;
            let sql = "DELETE FROM notice_read WHERE user_id = $1 AND position <= $2";
            sql::execute(conn, sql, &[(&user).into(), (*position as i64).into()]).await
        }
        NoticeEvent::NoticeSettingsChanged { muted, email, .. } => {
            let (muted, email) = (muted.join(","), email.join(","));
            let sql = format!(
                "INSERT INTO notice_settings (user_id, muted, email) VALUES ($1, $2, $3) {}",
                sql::upsert(&["user_id"], &["user_id", "muted", "email"])
            );
            sql::execute(conn, &sql, &[(&user).into(), (&muted).into(), (&email).into()]).await
        }
    }
}
