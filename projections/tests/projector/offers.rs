//! Offers on hand-made histories: made, replaced, cancelled, rejected, accepted (the sale stays a
//! sale), expired at read time, on a burned NFT; a reorg, and a replay equal to the live state.

use domain::chain::ChainEvent;
use projections::{
    Projector, ReadDb,
    queries::{
        Page,
        offers::{OfferState, OfferView, Scope, offers},
    },
    test_utils::register_user,
};
use sqlx::Row;
use uuid::Uuid;

use crate::{append, each_read_db, minted, origin, retract};

const A: &str = "0xa1";
const B: &str = "0xb2";
const C: &str = "0xc3";
const D: &str = "0xd4";
const FAR: i64 = 1_900_000_000;
/// C's offer on token 1 expires here: before it, early; from it on, late.
const SOON: i64 = 1_700_000_100;
const EARLY: i64 = 1_700_000_050;
const LATE: i64 = SOON;
const ALL: Page = Page { page: 1, limit: 50 };

fn made(token: &str, offerer: &str, amount: &str, expires_at: i64, replaced: &str, block: u64) -> ChainEvent {
    ChainEvent::OfferMade {
        token_id: token.into(),
        offerer: offerer.into(),
        amount: amount.into(),
        expires_at,
        fee_bps: 500,
        replaced_amount: replaced.into(),
        origin: origin(block),
    }
}

/// A owns tokens 1, 2 and 3. On 1: B offers 1 MATIC and raises it to 2, C offers 3 expiring
/// soon, D offers and A rejects D, then A accepts B's (B buys it). On 2: C offers and cancels.
/// On 3: D offers and A burns the token.
fn history() -> Vec<ChainEvent> {
    let matic = |n: u32| format!("{n}000000000000000000");
    let mut events: Vec<ChainEvent> = ["1", "2", "3"].into_iter().map(|t| minted(t, A)).collect();
    events.extend([
        made("1", B, &matic(1), FAR, "0", 3),
        made("1", B, &matic(2), FAR, &matic(1), 4),
        made("1", C, &matic(3), SOON, "0", 5),
        made("1", D, &matic(1), FAR, "0", 6),
        ChainEvent::OfferRejected { token_id: "1".into(), offerer: D.into(), amount: matic(1), origin: origin(7) },
        ChainEvent::OfferAccepted { token_id: "1".into(), offerer: B.into(), seller: A.into(), amount: matic(2), origin: origin(8) },
        ChainEvent::NftTransferred { token_id: "1".into(), from: A.into(), to: B.into(), origin: origin(8) },
        ChainEvent::NftSold {
            token_id: "1".into(),
            auction_id: "0".into(),
            buyer: B.into(),
            seller: A.into(),
            price: matic(2),
            fee: "100000000000000000".into(),
            royalties: "50000000000000000".into(),
            seller_proceeds: "1850000000000000000".into(),
            origin: origin(8),
        },
        made("2", C, &matic(1), FAR, "0", 9),
        ChainEvent::OfferCancelled { token_id: "2".into(), offerer: C.into(), amount: matic(1), origin: origin(10) },
        made("3", D, &matic(4), FAR, "0", 11),
        ChainEvent::NftBurned { token_id: "3".into(), owner: A.into(), origin: origin(12) },
    ]);
    events
}

fn summary(rows: &[OfferView]) -> Vec<(&str, &str, OfferState, &str)> {
    rows.iter().map(|o| (o.nft_id.as_str(), o.offerer_address.as_str(), o.state, o.amount.as_str())).collect()
}

#[tokio::test]
async fn offers_fold_into_their_states_and_read_per_nft_per_offerer_and_per_owner() {
    each_read_db(async |store, url| {
        let (alice, bob) = (Uuid::now_v7(), Uuid::now_v7());
        register_user(store.as_ref(), alice, "alice", A, chrono::Utc::now()).await;
        register_user(store.as_ref(), bob, "bob", B, chrono::Utc::now()).await;
        append(store.as_ref(), &history()).await;
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        // Token 1, newest first: the replacement kept B's offer in place, at its new amount.
        let on_1 = offers(&db, Scope::Nft("80001-1"), None, EARLY, ALL).await.unwrap();
        assert_eq!(
            summary(&on_1.data),
            [("80001-1", D, OfferState::Rejected, "1"), ("80001-1", C, OfferState::Active, "3"), ("80001-1", B, OfferState::Accepted, "2"),]
        );
        let accepted = &on_1.data[2];
        assert_eq!((accepted.replaced, accepted.seller.as_deref(), accepted.amount_wei.as_str()), (1, Some(A), "2000000000000000000"));
        assert_eq!((accepted.offerer_username.as_deref(), accepted.offerer_user_id.clone()), (Some("bob"), Some(bob.to_string())));
        assert_eq!(accepted.created_at, "2023-11-14T22:13:23Z");
        assert!(accepted.closed_at.is_some() && !accepted.withdrawable && !accepted.acceptable);
        // C's offer: B owns the token now and may accept it until it expires.
        let open = &on_1.data[1];
        assert!(open.acceptable && open.withdrawable && open.offerer_user_id.is_none());
        assert_eq!(open.expires_at_unix, SOON);

        // From its expiry's second on it is EXPIRED: not acceptable, still withdrawable.
        let late = offers(&db, Scope::Nft("80001-1"), None, LATE, ALL).await.unwrap();
        assert_eq!(late.data[1].state, OfferState::Expired);
        assert!(!late.data[1].acceptable && late.data[1].withdrawable);
        let expired = offers(&db, Scope::Nft("80001-1"), Some(OfferState::Expired), LATE, ALL).await.unwrap();
        assert_eq!((summary(&expired.data), expired.total_items), (vec![("80001-1", C, OfferState::Expired, "3")], 1));
        let active = offers(&db, Scope::Nft("80001-1"), Some(OfferState::Active), LATE, ALL).await.unwrap();
        assert_eq!(active.total_items, 0);
        let active = offers(&db, Scope::Nft("80001-1"), Some(OfferState::Active), EARLY, ALL).await.unwrap();
        assert_eq!(active.total_items, 1);

        // Paging.
        let first = offers(&db, Scope::Nft("80001-1"), None, EARLY, Page { page: 1, limit: 2 }).await.unwrap();
        assert_eq!((first.data.len(), first.total_items, first.last_page), (2, 3, false));
        let second = offers(&db, Scope::Nft("80001-1"), None, EARLY, Page { page: 2, limit: 2 }).await.unwrap();
        assert_eq!((summary(&second.data), second.last_page), (vec![("80001-1", B, OfferState::Accepted, "2")], true));

        // Cancelled, and on a burned NFT: still open, only withdrawable.
        let on_2 = offers(&db, Scope::Nft("80001-2"), None, EARLY, ALL).await.unwrap();
        assert_eq!(summary(&on_2.data), [("80001-2", C, OfferState::Cancelled, "1")]);
        let on_3 = offers(&db, Scope::Nft("80001-3"), None, EARLY, ALL).await.unwrap();
        assert_eq!(summary(&on_3.data), [("80001-3", D, OfferState::Active, "4")]);
        assert!(on_3.data[0].nft_burned && on_3.data[0].withdrawable && !on_3.data[0].acceptable);

        // Bob's offers; the offers made to Bob as owner: C's open one on token 1, his own aside
        // (D's was rejected by Alice, before Bob owned it).
        let bobs = offers(&db, Scope::MadeBy(&bob.to_string()), None, EARLY, ALL).await.unwrap();
        assert_eq!(summary(&bobs.data), [("80001-1", B, OfferState::Accepted, "2")]);
        let to_bob = offers(&db, Scope::ReceivedBy(&bob.to_string()), None, EARLY, ALL).await.unwrap();
        assert_eq!(summary(&to_bob.data), [("80001-1", C, OfferState::Active, "3")]);
        let to_bob = offers(&db, Scope::ReceivedBy(&bob.to_string()), Some(OfferState::Active), EARLY, ALL).await.unwrap();
        assert_eq!(to_bob.total_items, 1);
        // Alice's history keeps what was made to her while she owned token 1: the offer she
        // accepted (the sale), the one she rejected; and the one withdrawn on token 2 (D's open
        // offer on token 3 went with the burn).
        let to_alice = offers(&db, Scope::ReceivedBy(&alice.to_string()), None, EARLY, ALL).await.unwrap();
        assert_eq!(
            summary(&to_alice.data),
            [
                ("80001-2", C, OfferState::Cancelled, "1"),
                ("80001-1", D, OfferState::Rejected, "1"),
                ("80001-1", B, OfferState::Accepted, "2")
            ]
        );
        let accepted = offers(&db, Scope::ReceivedBy(&alice.to_string()), Some(OfferState::Accepted), EARLY, ALL).await.unwrap();
        assert_eq!((accepted.total_items, accepted.data[0].seller.as_deref()), (1, Some(A)));

        // The accepted offer's sale is a sale as any other.
        let row = sqlx::query("SELECT owner, sales FROM nfts WHERE nft_id = '80001-1'").fetch_one(&db.pool()).await.unwrap();
        assert_eq!((row.get::<String, _>(0), row.get::<i64, _>(1)), (B.to_owned(), 1));
        let kinds: Vec<String> = sqlx::query_scalar("SELECT type_of_event FROM nft_history WHERE nft_id = '80001-1' ORDER BY position")
            .fetch_all(&db.pool())
            .await
            .unwrap();
        assert!(kinds.contains(&"PURCHASED".to_owned()), "{kinds:?}");
        let sales: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sales WHERE nft_id = '80001-1'").fetch_one(&db.pool()).await.unwrap();
        assert_eq!(sales, 1);
    })
    .await;
}

#[tokio::test]
async fn a_replay_with_offers_equals_the_live_state_and_a_reorg_refolds_them() {
    each_read_db(async |store, url| {
        // Live: one event at a time.
        let live = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), live.clone()).await.unwrap();
        let mut ids = Vec::new();
        for event in history() {
            ids.extend(append(store.as_ref(), &[event]).await);
            projector.catch_up().await.unwrap();
        }
        let rebuilt = ReadDb::open_generation(&url, "g2").await.unwrap();
        Projector::new(store.clone(), rebuilt.clone()).await.unwrap().catch_up().await.unwrap();
        assert_eq!(rebuilt.checksum().await.unwrap(), live.checksum().await.unwrap(), "replay == live");

        // A reorg drops C's cancellation on token 2: the offer is open again.
        retract(store.as_ref(), 10, 10, vec![ids[12]], "2").await;
        projector.catch_up().await.unwrap();
        let on_2 = offers(&live, Scope::Nft("80001-2"), None, EARLY, ALL).await.unwrap();
        assert_eq!(summary(&on_2.data), [("80001-2", C, OfferState::Active, "1")]);
        let on_1 = offers(&live, Scope::Nft("80001-1"), None, EARLY, ALL).await.unwrap();
        assert_eq!(on_1.total_items, 3, "other tokens' offers are untouched");
    })
    .await;
}
