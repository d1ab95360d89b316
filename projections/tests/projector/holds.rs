//! Stolen-item holds on hand-made histories: a hold shows on the NFT's view with its end and
//! whether evidence came with it, and reads as no hold once its end has passed (no clock event);
//! a renewal replaces it, a release removes it, the hold follows the token through a transfer;
//! the owner is told (held, released); a replay equals the live state and a reorg refolds it.

use chrono::Utc;
use domain::chain::ChainEvent;
use projections::{
    Projector, ReadDb,
    queries::{Page, nft::detail, notices::notices},
    test_utils::register_user,
};
use uuid::Uuid;

use crate::{append, each_read_db, minted, origin, retract, transferred};

const A: &str = "0xa1";
const B: &str = "0xb2";
const M: &str = "0xee";
const ALL: Page = Page { page: 1, limit: 50 };

fn held(token: &str, until: i64, evidence: bool, block: u64) -> ChainEvent {
    ChainEvent::SaleHeld {
        token_id: token.into(),
        moderator: M.into(),
        until,
        evidence: evidence.then(|| format!("0x{}", "ab".repeat(32))),
        origin: origin(block),
    }
}

/// A owns tokens 1-3. Token 1: held for a week from now, then renewed with evidence for 60 days,
/// then moved to B (the hold follows). Token 2: held, then released. Token 3: held until a time
/// already past (a hold that has ended).
fn history(now: i64) -> Vec<ChainEvent> {
    let mut events: Vec<ChainEvent> = ["1", "2", "3"].into_iter().map(|t| minted(t, A)).collect();
    events.extend([
        held("1", now + 7 * 86_400, false, 3),
        held("1", now + 60 * 86_400, true, 4),
        transferred("1", A, B, 5),
        held("2", now + 86_400, false, 6),
        ChainEvent::SaleReleased { token_id: "2".into(), moderator: M.into(), origin: origin(7) },
        held("3", now - 1, false, 8),
    ]);
    events
}

fn iso(seconds: i64) -> String {
    chrono::DateTime::from_timestamp(seconds, 0).unwrap().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[tokio::test]
async fn a_hold_shows_with_its_end_until_it_passes_and_its_owner_is_told() {
    each_read_db(async |store, url| {
        let now = Utc::now().timestamp();
        let (alice, bob) = (Uuid::now_v7(), Uuid::now_v7());
        register_user(store.as_ref(), alice, "alice", A, Utc::now()).await;
        register_user(store.as_ref(), bob, "bob", B, Utc::now()).await;
        append(store.as_ref(), &history(now)).await;
        let db = ReadDb::open(&url).await.unwrap();
        Projector::new(store.clone(), db.clone()).await.unwrap().catch_up().await.unwrap();

        let one = detail(&db, "80001-1").await.unwrap().unwrap();
        assert_eq!(one.sale_held_until, Some(iso(now + 60 * 86_400)), "the renewal's end");
        assert!(one.sale_hold_evidence);
        assert_eq!(one.owner_address, B, "the hold follows the token");
        assert_eq!(one.changes_at(), Some(now + 60 * 86_400));
        let json = serde_json::to_value(&one).unwrap();
        assert_eq!(json["saleHeldUntil"], iso(now + 60 * 86_400));
        assert_eq!(json["saleHoldEvidence"], true);

        let two = detail(&db, "80001-2").await.unwrap().unwrap();
        assert_eq!((two.sale_held_until, two.sale_hold_evidence), (None, false), "released");
        let three = detail(&db, "80001-3").await.unwrap().unwrap();
        assert_eq!((three.sale_held_until.clone(), three.sale_hold_evidence, three.changes_at()), (None, false, None), "ended");
        assert_eq!(serde_json::to_value(&three).unwrap()["saleHeldUntil"], serde_json::Value::Null);

        // Alice owned all three when they were held: told of each hold and of the release.
        let kinds = |page: &projections::queries::Paged<projections::queries::notices::NoticeView>| {
            page.data.iter().map(|n| (n.kind.clone(), n.nft_id.clone())).collect::<Vec<_>>()
        };
        let told = notices(&db, &alice.to_string(), false, ALL).await.unwrap();
        assert_eq!(
            kinds(&told),
            [
                ("SALE_HELD".to_owned(), "80001-3".to_owned()),
                ("SALE_RELEASED".to_owned(), "80001-2".to_owned()),
                ("SALE_HELD".to_owned(), "80001-2".to_owned()),
                ("SALE_HELD".to_owned(), "80001-1".to_owned()),
                ("SALE_HELD".to_owned(), "80001-1".to_owned()),
            ]
        );
        assert!(notices(&db, &bob.to_string(), false, ALL).await.unwrap().data.is_empty(), "Bob got it held");
    })
    .await;
}

#[tokio::test]
async fn a_replay_with_holds_equals_the_live_state_and_a_reorg_refolds_them() {
    each_read_db(async |store, url| {
        let now = Utc::now().timestamp();
        let live = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), live.clone()).await.unwrap();
        let mut ids = Vec::new();
        for event in history(now) {
            ids.extend(append(store.as_ref(), &[event]).await);
            projector.catch_up().await.unwrap();
        }
        let rebuilt = ReadDb::open_generation(&url, "g2").await.unwrap();
        Projector::new(store.clone(), rebuilt.clone()).await.unwrap().catch_up().await.unwrap();
        assert_eq!(rebuilt.checksum().await.unwrap(), live.checksum().await.unwrap(), "replay == live");

        // A reorg drops the release of token 2: it is held again.
        retract(store.as_ref(), 7, 7, vec![ids[7]], "2").await;
        projector.catch_up().await.unwrap();
        let two = detail(&live, "80001-2").await.unwrap().unwrap();
        assert_eq!(two.sale_held_until, Some(iso(now + 86_400)));
        // And the renewal of token 1: the first hold, without evidence, is back.
        retract(store.as_ref(), 4, 4, vec![ids[4]], "1").await;
        projector.catch_up().await.unwrap();
        let one = detail(&live, "80001-1").await.unwrap().unwrap();
        assert_eq!((one.sale_held_until, one.sale_hold_evidence), (Some(iso(now + 7 * 86_400)), false));
    })
    .await;
}
