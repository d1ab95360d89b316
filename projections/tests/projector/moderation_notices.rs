//! Notices of moderation decisions on a hand-made history: the owner of a hidden or restored NFT
//! (its owning wallet at the decision) or collection (its creator, addressed as a person), each
//! reporter of the reports a decision closes, the owner whose appeal is turned down, never a
//! muted reporter; the same one event at a time and in one replay.

use chrono::Utc;
use domain::{
    EventStore, ExpectedVersion, Metadata,
    collections::{CollectionEvent, collection_stream},
    moderation::{ModerationEvent, ReportReason, TargetKind, target_stream},
};
use projections::{
    Projector, ReadDb,
    queries::{Page, notices::notices},
    test_utils::register_user,
};
use uuid::Uuid;

use crate::{append, each_read_db, minted, transferred};

const ADA: Uuid = Uuid::from_u128(0xada);
const BOB: Uuid = Uuid::from_u128(0xb0b);
const CYD: Uuid = Uuid::from_u128(0xc1d);
const MIA: Uuid = Uuid::from_u128(0x319);
const GALLERY: Uuid = Uuid::from_u128(0x6a1);
const NFT: &str = "80001-1";

/// One step of the history: a chain fact, or an off-chain event on its stream.
enum Step {
    Chain(domain::chain::ChainEvent),
    Moderation(ModerationEvent),
    Collection(CollectionEvent),
}

fn report(id: u128, kind: TargetKind, target: &str, reporter: Uuid, muted: bool) -> Step {
    Step::Moderation(ModerationEvent::ReportFiled {
        report_id: Uuid::from_u128(id),
        target_kind: kind,
        target_id: target.into(),
        reporter_id: reporter,
        reason: ReportReason::Scam,
        text: String::new(),
        muted,
        at: Utc::now(),
    })
}

/// Ada owns token 1 and a collection. Bob reports the token and Cyd, muted, too: it is hidden
/// (Bob's report decided). It passes to Bob; Cyd, unmuted since, reports it: it is restored
/// (Bob is its owner now; Cyd's report decided). Bob reports the collection: hidden; Ada
/// appeals, turned down. Ada reports Cyd: dismissed.
fn history() -> Vec<Step> {
    let collection = GALLERY.to_string();
    let cyd = CYD.to_string();
    let hidden = |kind, id: &str, reports: &[u128]| {
        Step::Moderation(ModerationEvent::TargetHidden {
            target_kind: kind,
            target_id: id.into(),
            moderator_id: MIA,
            reason: "A copy".into(),
            report_ids: reports.iter().map(|r| Uuid::from_u128(*r)).collect(),
            at: Utc::now(),
        })
    };
    vec![
        Step::Chain(minted("1", "0xa1")),
        Step::Collection(CollectionEvent::CollectionCreated {
            collection_id: GALLERY,
            creator_user_id: ADA,
            title: "Ada's Gallery".into(),
            image: "bafyimage".into(),
            at: Utc::now(),
        }),
        report(1, TargetKind::Nft, NFT, BOB, false),
        report(2, TargetKind::Nft, NFT, CYD, true),
        hidden(TargetKind::Nft, NFT, &[1]),
        Step::Chain(transferred("1", "0xa1", "0xb2", 2)),
        report(3, TargetKind::Nft, NFT, CYD, false),
        Step::Moderation(ModerationEvent::TargetRestored {
            target_kind: TargetKind::Nft,
            target_id: NFT.into(),
            moderator_id: MIA,
            reason: "Cleared".into(),
            at: Utc::now(),
        }),
        report(4, TargetKind::Collection, &collection, BOB, false),
        hidden(TargetKind::Collection, &collection, &[4]),
        Step::Moderation(ModerationEvent::HidingAppealed {
            target_kind: TargetKind::Collection,
            target_id: collection.clone(),
            owner_id: ADA,
            text: "Mine".into(),
            at: Utc::now(),
        }),
        Step::Moderation(ModerationEvent::ReportsDismissed {
            target_kind: TargetKind::Collection,
            target_id: collection.clone(),
            moderator_id: MIA,
            reason: "The copy is plain".into(),
            report_ids: vec![],
            at: Utc::now(),
        }),
        report(5, TargetKind::User, &cyd, ADA, false),
        Step::Moderation(ModerationEvent::ReportsDismissed {
            target_kind: TargetKind::User,
            target_id: cyd.clone(),
            moderator_id: MIA,
            reason: "Nothing wrong".into(),
            report_ids: vec![Uuid::from_u128(5)],
            at: Utc::now(),
        }),
    ]
}

async fn apply(store: &dyn EventStore, step: Step) {
    let (stream, event) = match step {
        Step::Chain(fact) => {
            append(store, &[fact]).await;
            return;
        }
        Step::Moderation(event) => {
            let stream = match &event {
                ModerationEvent::ReportFiled { target_kind, target_id, .. }
                | ModerationEvent::TargetHidden { target_kind, target_id, .. }
                | ModerationEvent::TargetRestored { target_kind, target_id, .. }
                | ModerationEvent::ReportsDismissed { target_kind, target_id, .. }
                | ModerationEvent::HidingAppealed { target_kind, target_id, .. } => target_stream(*target_kind, target_id),
                other => panic!("not in this history: {other:?}"),
            };
            (stream, event.to_new_event(Metadata::default()).unwrap())
        }
        Step::Collection(event) => (collection_stream(GALLERY), event.to_new_event(Metadata::default()).unwrap()),
    };
    store.append(&stream, ExpectedVersion::Any, vec![event]).await.unwrap();
}

/// (kind, target kind, decision, title) of a user's notices, newest first.
async fn told(db: &ReadDb, user: Uuid) -> Vec<(String, String, Option<String>, Option<String>)> {
    let page = notices(db, &user.to_string(), false, Page { page: 1, limit: 50 }).await.unwrap();
    page.data.into_iter().map(|n| (n.kind, n.target_kind.unwrap_or_default(), n.decision, n.target_title)).collect()
}

/// The NFT has no catalog details here: its notices carry no title.
fn row(kind: &str, target: &str, decision: Option<&str>, title: Option<&str>) -> (String, String, Option<String>, Option<String>) {
    (kind.into(), target.into(), decision.map(str::to_owned), title.map(str::to_owned))
}

#[tokio::test]
async fn decisions_tell_owners_and_reporters_the_same_one_event_at_a_time_and_in_one_replay() {
    each_read_db(async |store, url| {
        for (id, name, wallet) in [(ADA, "ada", "0xa1"), (BOB, "bob", "0xb2"), (CYD, "cyd", "0xc3"), (MIA, "mia", "0xd4")] {
            register_user(store.as_ref(), id, name, wallet, Utc::now()).await;
        }
        let live = ReadDb::open(&url).await.unwrap();
        let projector = Projector::new(store.clone(), live.clone()).await.unwrap();
        for step in history() {
            apply(store.as_ref(), step).await;
            projector.catch_up().await.unwrap();
        }
        let gallery = Some("Ada's Gallery");
        assert_eq!(
            told(&live, ADA).await,
            [
                row("REPORT_DECIDED", "user", Some("DISMISS"), Some("cyd")),
                row("APPEAL_DECLINED", "collection", None, gallery),
                row("HIDDEN", "collection", None, gallery),
                row("HIDDEN", "nft", None, None)
            ]
        );
        assert_eq!(
            told(&live, BOB).await,
            [
                row("REPORT_DECIDED", "collection", Some("HIDE"), gallery),
                // Restored while Bob owns it: told to the owning wallet of that moment.
                row("RESTORED", "nft", None, None),
                row("REPORT_DECIDED", "nft", Some("HIDE"), None),
            ]
        );
        assert_eq!(
            told(&live, CYD).await,
            [row("REPORT_DECIDED", "nft", Some("RESTORE"), None)],
            "the muted report told nobody; the report filed while hidden was decided by the restore"
        );
        assert!(told(&live, MIA).await.is_empty(), "the moderator is told nothing");
        let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM notice_reports").fetch_one(&live.pool()).await.unwrap();
        assert_eq!(open, 0, "every decided report is forgotten");
        let appeals: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM notice_appeals").fetch_one(&live.pool()).await.unwrap();
        assert_eq!(appeals, 0, "the appeal, answered, is forgotten");

        let rebuilt = ReadDb::open_generation(&url, "g2").await.unwrap();
        Projector::new(store.clone(), rebuilt.clone()).await.unwrap().catch_up().await.unwrap();
        assert_eq!(rebuilt.checksum().await.unwrap(), live.checksum().await.unwrap(), "replay == live");
    })
    .await;
}
