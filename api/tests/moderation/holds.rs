//! A stolen-item hold is a public decision: the record lists the hold and its release, by the
//! moderator's name where their wallet is linked, with the hold's end and whether evidence came
//! with it, never the evidence itself.

use axum::http::StatusCode;
use domain::{
    ExpectedVersion, Metadata, StreamAppend,
    chain::{ChainEvent, Origin},
};
use uuid::Uuid;

use crate::{TestApp, market};

impl TestApp {
    /// A chain fact, indexed.
    async fn fact(&self, event: ChainEvent) {
        let append = StreamAppend {
            stream_id: event.stream_id(80001),
            expected: ExpectedVersion::Any,
            events: vec![event.to_new_event(Uuid::now_v7(), Metadata::default()).unwrap()],
        };
        self.state.store.append_streams(vec![append]).await.unwrap();
        self.projected().await;
    }
}

fn origin(block: u64) -> Origin {
    Origin { block_number: block, block_time: 1_700_000_000 + block as i64, tx_hash: format!("0x{block:064x}"), log_index: 0 }
}

#[tokio::test]
async fn a_hold_and_its_release_are_in_the_public_record_without_the_evidence() {
    let app = TestApp::new(None).await;
    let (_ada, _bob, _mia, _adi) = market(&app).await;
    let evidence = format!("0x{}", "ab".repeat(32));
    let until = 1_700_000_000 + 90 * 86_400;
    let held = ChainEvent::SaleHeld {
        token_id: "1".into(),
        moderator: "0xc1".into(),
        until,
        evidence: Some(evidence.clone()),
        origin: origin(10),
    };
    app.fact(held).await;
    app.fact(ChainEvent::SaleReleased { token_id: "1".into(), moderator: "0xc1".into(), origin: origin(11) }).await;

    let (status, record) = app.get("/api/transparency", None).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    let decisions = record["body"]["decisions"].as_array().unwrap();
    let kinds: Vec<(&str, &str, &str)> = decisions
        .iter()
        .map(|d| (d["decision"].as_str().unwrap(), d["targetId"].as_str().unwrap(), d["moderator"].as_str().unwrap()))
        .collect();
    assert_eq!(kinds, [("RELEASE", "80001-1", "mia"), ("HOLD", "80001-1", "mia")], "by the moderator whose wallet signed");
    assert_eq!(decisions[1]["reason"], "Sale held until 2024-02-12 22:13 UTC, with evidence");
    assert!(!record.to_string().contains(&evidence[2..]), "the evidence stays out: {record}");
    let month = &record["body"]["months"][0]["decisions"];
    assert_eq!((month["HOLD"].as_i64(), month["RELEASE"].as_i64()), (Some(1), Some(1)), "{month}");

    let (_, csv) = app.get("/api/transparency.csv", None).await;
    assert!(csv.as_str().unwrap().contains("HOLD,nft,80001-1"), "{csv}");
}
