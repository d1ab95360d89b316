//! Notices on a hand-made history: bids received, a raise (nothing), an outbid, a rejection,
//! an auction won (no "bought" besides), a fixed-price sale, an auction stopped, offers
//! received, rejected and accepted; unread counts through reads and a muted kind; the same
//! whatever the batches; the stream's view of everybody's new notices.

use chrono::Utc;
use domain::{
    Metadata,
    chain::{ChainEvent, SaleType},
    notices::{self, NoticeEvent},
};
use projections::{
    Projector, ReadDb,
    queries::{
        Page,
        notices::{between, notices, unread},
    },
    test_utils::register_user,
};
use uuid::Uuid;

use crate::{append, auction, bid, each_read_db, minted, offer, origin, refunded, sold, transferred};

const A: &str = "0xa1";
const B: &str = "0xb2";
const C: &str = "0xc3";
/// Linked to nobody: their notices reach no one.
const D: &str = "0xd4";
const ALL: Page = Page { page: 1, limit: 50 };

/// A owns tokens 1-4. Token 1 (auction): B bids, raises (same transaction as his refund), C
/// outbids him, A rejects C, B bids again and wins. Token 2: C buys it at a fixed price. Token 3
/// (auction): D bids, A stops it. Token 4: B and C offer, A rejects C's and accepts B's.
fn history() -> Vec<ChainEvent> {
    let mut events: Vec<ChainEvent> = ["1", "2", "3", "4"].into_iter().map(|t| minted(t, A)).collect();
    events.extend([
        auction("1"),
        bid("1", B, "1", 3),
        bid("1", B, "2", 4),
        refunded("1", B, "1", 4),
        bid("1", C, "3", 5),
        refunded("1", B, "2", 5),
        ChainEvent::BidRejected { token_id: "1".into(), auction_id: "1".into(), bidder: C.into(), amount: "3".into(), origin: origin(6) },
        bid("1", B, "4", 7),
        ChainEvent::AuctionEnded { token_id: "1".into(), auction_id: "1".into(), winner: B.into(), amount: "4".into(), origin: origin(8) },
        transferred("1", A, B, 8),
        sold("1", "1", B, A, "4", 8),
        ChainEvent::SaleUpdated {
            token_id: "2".into(),
            sale_type: SaleType::FixedPrice,
            price: "5".into(),
            base_price: "0".into(),
            end_time: 0,
            auction_id: "0".into(),
            origin: origin(9),
        },
        transferred("2", A, C, 9),
        sold("2", "0", C, A, "5", 9),
        auction("3"),
        bid("3", D, "6", 10),
        refunded("3", D, "6", 11),
        ChainEvent::AuctionEnded {
            token_id: "3".into(),
            auction_id: "1".into(),
            winner: "0x0000000000000000000000000000000000000000".into(),
            amount: "0".into(),
            origin: origin(11),
        },
        offer("4", B, "7", 12),
        offer("4", C, "8", 13),
        ChainEvent::OfferRejected { token_id: "4".into(), offerer: C.into(), amount: "8".into(), origin: origin(14) },
        ChainEvent::OfferAccepted { token_id: "4".into(), offerer: B.into(), seller: A.into(), amount: "7".into(), origin: origin(15) },
        transferred("4", A, B, 15),
        sold("4", "0", B, A, "7", 15),
    ]);
    events
}

/// (kind, NFT, amount in wei, counterpart) of a user's notices, newest first.
async fn told(db: &ReadDb, user: Uuid) -> Vec<(String, String, String, Option<String>)> {
    let page = notices(db, &user.to_string(), false, ALL).await.unwrap();
    assert_eq!(page.total_items as usize, page.data.len());
    page.data.into_iter().map(|n| (n.kind, n.nft_id, n.amount_wei, n.counterpart_address)).collect()
}

fn row(kind: &str, token: &str, amount: &str, counterpart: Option<&str>) -> (String, String, String, Option<String>) {
    (kind.into(), format!("80001-{token}"), amount.into(), counterpart.map(str::to_owned))
}

async fn read(store: &dyn domain::EventStore, event: NoticeEvent) {
    notices::record(store, &event, Metadata::default()).await.unwrap();
}

#[tokio::test]
async fn each_fact_tells_the_wallets_it_concerns_once() {
    each_read_db(async |store, url| {
        let (alice, bob, carol) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
        for (user, name, wallet) in [(alice, "alice", A), (bob, "bob", B), (carol, "carol", C)] {
            register_user(store.as_ref(), user, name, wallet, Utc::now()).await;
        }
        append(store.as_ref(), &history()).await;
        let db = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), db.clone()).await.unwrap();
        projector.catch_up().await.unwrap();

        assert_eq!(
            told(&db, alice).await,
            [
                row("SOLD", "4", "7", Some(B)),
                row("OFFER_RECEIVED", "4", "8", Some(C)),
                row("OFFER_RECEIVED", "4", "7", Some(B)),
                row("AUCTION_ENDED", "3", "0", None),
                row("BID_RECEIVED", "3", "6", Some(D)),
                row("SOLD", "2", "5", Some(C)),
                row("SOLD", "1", "4", Some(B)),
                row("BID_RECEIVED", "1", "4", Some(B)),
                row("BID_RECEIVED", "1", "3", Some(C)),
                row("BID_RECEIVED", "1", "2", Some(B)),
                row("BID_RECEIVED", "1", "1", Some(B)),
            ]
        );
        // Bob: outbid by Carol (his own raise told him nothing), won token 1 (not "bought" as
        // well), and his offer on token 4 accepted (the same).
        assert_eq!(
            told(&db, bob).await,
            [row("OFFER_ACCEPTED", "4", "7", Some(A)), row("BID_ACCEPTED", "1", "4", Some(A)), row("OUTBID", "1", "2", Some(C))]
        );
        assert_eq!(
            told(&db, carol).await,
            [row("OFFER_REJECTED", "4", "8", Some(A)), row("BOUGHT", "2", "5", Some(A)), row("BID_REJECTED", "1", "3", Some(A))]
        );
        // Names of the counterparts come with them; D's refund told D, whom nobody reads.
        let bobs = notices(&db, &bob.to_string(), false, ALL).await.unwrap();
        assert_eq!(bobs.data[2].counterpart_username.as_deref(), Some("carol"));
        assert_eq!(bobs.data[2].amount, "0.000000000000000002");
        // The outbid names the bid that topped it (Carol's 3 wei), the other kinds nothing.
        assert_eq!((bobs.data[2].top_amount_wei.as_deref(), bobs.data[2].top_amount.as_deref()), (Some("3"), Some("0.000000000000000003")));
        assert!(bobs.data[..2].iter().all(|n| n.top_amount_wei.is_none()));
        let all = between(&db, 0, i64::MAX).await.unwrap();
        assert_eq!(all.len(), 17, "every notice once, each with its user");
        assert!(all.windows(2).all(|w| w[0].1.position <= w[1].1.position), "in log order");
        assert_eq!(all.iter().filter(|(user, _)| *user == carol.to_string()).count(), 3);

        // Unread: all 11 of Alice's; reading one, then all up to her token-2 sale, then muting
        // offers received.
        let me = alice.to_string();
        assert_eq!(unread(&db, &me).await.unwrap(), 11);
        let alices = notices(&db, &me, false, ALL).await.unwrap().data;
        let (offer_13, sale_9) = (alices[1].position as u64, alices[5].position as u64);
        read(store.as_ref(), NoticeEvent::NoticeRead { user_id: alice, position: offer_13, at: Utc::now() }).await;
        projector.catch_up().await.unwrap();
        assert_eq!(unread(&db, &me).await.unwrap(), 10);
        read(store.as_ref(), NoticeEvent::NoticesReadUpTo { user_id: alice, position: sale_9, at: Utc::now() }).await;
        // An older "read up to" reads nothing back as unread.
        read(store.as_ref(), NoticeEvent::NoticesReadUpTo { user_id: alice, position: 1, at: Utc::now() }).await;
        projector.catch_up().await.unwrap();
        assert_eq!(unread(&db, &me).await.unwrap(), 4, "tokens 3 and 4 after the sale, but the one read");
        let page = notices(&db, &me, true, ALL).await.unwrap();
        let kinds: Vec<&str> = page.data.iter().map(|n| n.kind.as_str()).collect();
        assert_eq!(kinds, ["SOLD", "OFFER_RECEIVED", "AUCTION_ENDED", "BID_RECEIVED"]);
        assert!(page.data.iter().all(|n| !n.read));
        let flags: Vec<bool> = notices(&db, &me, false, ALL).await.unwrap().data.iter().map(|n| n.read).collect();
        assert_eq!(flags, [false, true, false, false, false, true, true, true, true, true, true]);

        read(store.as_ref(), notices::settings(alice, &["OFFER_RECEIVED".into()], &["SOLD".into()], Utc::now()).unwrap()).await;
        projector.catch_up().await.unwrap();
        assert_eq!(unread(&db, &me).await.unwrap(), 3);
        assert_eq!(notices(&db, &me, false, ALL).await.unwrap().total_items, 9);
        let settings = projections::queries::notices::settings(&db, &me).await.unwrap();
        assert_eq!((settings.muted, settings.email), (vec!["OFFER_RECEIVED".to_owned()], vec!["SOLD".to_owned()]));
    })
    .await;
}

#[tokio::test]
async fn notices_are_the_same_one_event_at_a_time_and_in_one_replay() {
    each_read_db(async |store, url| {
        let live = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), live.clone()).await.unwrap();
        for event in history() {
            append(store.as_ref(), &[event]).await;
            projector.catch_up().await.unwrap();
        }
        let rebuilt = ReadDb::open_generation(&url, "g2").await.unwrap();
        Projector::new(store.clone(), rebuilt.clone()).await.unwrap().catch_up().await.unwrap();
        assert_eq!(rebuilt.checksum().await.unwrap(), live.checksum().await.unwrap(), "replay == live");
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM notices").fetch_one(&live.pool()).await.unwrap();
        assert_eq!(count, 18, "the 17 above, and the refund that told D");
    })
    .await;
}

#[tokio::test]
async fn the_clock_tells_the_bidders_before_the_end_and_the_owner_and_top_bidder_at_it() {
    use domain::notices::AuctionClockEvent;
    each_read_db(async |store, url| {
        let (alice, bob, carol) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
        for (user, name, wallet) in [(alice, "alice", A), (bob, "bob", B), (carol, "carol", C)] {
            register_user(store.as_ref(), user, name, wallet, Utc::now()).await;
        }
        append(store.as_ref(), &[minted("5", A), auction("5"), bid("5", B, "1", 3), bid("5", B, "2", 4), refunded("5", B, "1", 4)]).await;
        let soon = AuctionClockEvent::AuctionEndingSoon { nft_id: "80001-5".into(), auction_id: "1".into(), end_time: 1_800_000_000 };
        assert!(soon.record(store.as_ref()).await.unwrap());
        assert!(!soon.record(store.as_ref()).await.unwrap(), "told once");
        // Carol bids after the word: she saw the end herself.
        append(store.as_ref(), &[bid("5", C, "3", 5), refunded("5", B, "2", 5)]).await;
        let up = AuctionClockEvent::AuctionTimeUp { nft_id: "80001-5".into(), auction_id: "1".into(), end_time: 1_800_000_000 };
        assert!(up.record(store.as_ref()).await.unwrap());
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        let kinds = |rows: Vec<(String, String, String, Option<String>)>| rows.into_iter().map(|r| (r.0, r.3)).collect::<Vec<_>>();
        assert_eq!(
            kinds(told(&db, bob).await),
            [("OUTBID".into(), Some(C.to_owned())), ("AUCTION_ENDING".into(), None)],
            "Bob once, though he bid twice"
        );
        assert_eq!(kinds(told(&db, carol).await), [("AUCTION_ENDED".into(), Some(A.to_owned()))]);
        let alices = kinds(told(&db, alice).await);
        assert_eq!(alices[0], ("AUCTION_ENDED".into(), Some(C.to_owned())), "the owner, naming the top bidder");
        let ending = notices(&db, &bob.to_string(), false, ALL).await.unwrap().data.pop().unwrap();
        assert_eq!(ending.created_at, "2027-01-15T08:00:00Z", "at the auction's end");
    })
    .await;
}

/// Migration 0022 on tables folded before it: each outbid gets the bid of its transaction, and
/// a token's open top bid its amount (what the next outbid is told); a refund without a bid in
/// its transaction, another NFT's bid in it, or a token without a bid get none.
#[tokio::test]
async fn migration_0022_gives_older_outbids_and_top_bids_their_amounts() {
    // Token 1: B bids 5 (t1), C outbids with 7 (t2: B's refund); token 2: D bids 9 in t2 too,
    // and a refund of A's in t3 tells no top bid (no bid in t3).
    let seed = "INSERT INTO notices (position, recipient, kind, nft_id, amount, counterpart, tx_hash, at) VALUES \
             (1, '0xo', 'BID_RECEIVED', '80001-1', '5', '0xb', 't1', 1), (2, '0xo', 'BID_RECEIVED', '80001-1', '7', '0xc', 't2', 2), \
             (3, '0xb', 'OUTBID', '80001-1', '5', '0xc', 't2', 2), (4, '0xo', 'BID_RECEIVED', '80001-2', '9', '0xd', 't2', 2), \
             (5, '0xa', 'OUTBID', '80001-2', '3', '0xd', 't3', 3); \
             INSERT INTO notice_tokens (nft_id, owner, bidder, bid_tx, told_buyer) VALUES \
             ('80001-1', '0xo', '0xc', 't2', NULL), ('80001-2', '0xo', '0xd', 't2', NULL), ('80001-3', '0xo', NULL, NULL, NULL);";
    crate::across_migration("0022", seed, async |dir, pool| {
        let outbids: Vec<(i64, Option<String>)> =
            sqlx::query_as("SELECT position, top_amount FROM notices ORDER BY position").fetch_all(pool).await.unwrap();
        let some = |s: &str| Some(s.to_owned());
        assert_eq!(outbids, [(1, None), (2, None), (3, some("7")), (4, None), (5, None)], "{dir}");
        let tokens: Vec<(String, Option<String>)> =
            sqlx::query_as("SELECT nft_id, bid_amount FROM notice_tokens ORDER BY nft_id").fetch_all(pool).await.unwrap();
        assert_eq!(tokens, [("80001-1".into(), some("7")), ("80001-2".into(), some("9")), ("80001-3".into(), None)], "{dir}");
    })
    .await;
}
