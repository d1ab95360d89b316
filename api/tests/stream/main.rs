//! `GET /api/stream` over a real event log, projector and read database: topics, resuming with
//! `Last-Event-ID` after a server restart (nothing lost, nothing twice), a signed-in stream's
//! own notices and nobody else's, a slow client dropped, bad requests; and on Postgres a change
//! projected by one process reaching a client of another that follows it through the database.

#[path = "../support/facts.rs"]
mod facts;

use std::{sync::Arc, time::Duration};

use api::{config::Config, http::AppState};
use axum::{
    body::{Body, BodyDataStream},
    http::{Request, StatusCode},
};
use clap::Parser;
use domain::{
    EventStore, ExpectedVersion, Metadata, StreamAppend,
    chain::{ChainEvent, SaleType},
    test_utils::TestPostgres,
};
use facts::*;
use futures::StreamExt;
use projections::{ProjectorHandle, ReadDb};
use serde_json::Value;
use tower::ServiceExt;
use uuid::Uuid;

#[derive(Parser)]
struct Cli {
    #[command(flatten)]
    config: Config,
}

/// A server over the log and read database at `url`s (a "process": drop it and open another
/// on the same ones to restart).
struct Server {
    state: AppState,
    projector: Option<projections::Projector>,
}

impl Server {
    /// The process that projects.
    async fn projecting(dir: &std::path::Path, events: &str, read: &str) -> Self {
        let (config, store) = open(dir, events).await;
        let read = ReadDb::open(read).await.unwrap();
        let projector = projections::Projector::new(store.clone(), read.clone()).await.unwrap();
        projector.catch_up().await.unwrap();
        let state = AppState::new(config, store, read, projector.handle()).unwrap();
        Self { state, projector: Some(projector) }
    }

    /// A process that follows the projector through the database, as `serve` does on a
    /// Postgres deployment when another process holds the election.
    async fn following(dir: &std::path::Path, events: &str, read: &str) -> Self {
        let (config, store) = open(dir, events).await;
        let read = ReadDb::open(read).await.unwrap();
        let (handle, follower) = ProjectorHandle::following(read.clone(), read.position().await.unwrap(), Duration::from_millis(20));
        tokio::spawn(async move { follower.run().await });
        let state = AppState::new(config, store, read, handle).unwrap();
        Self { state, projector: None }
    }

    async fn chain(&self, events: &[ChainEvent]) {
        append(self.state.store.as_ref(), events).await;
        if let Some(projector) = &self.projector {
            projector.catch_up().await.unwrap();
        }
    }

    /// Waits until the stream hub has passed on everything projected: a client opened now
    /// starts from the present.
    async fn settled(&self) {
        let position = self.state.projector.position();
        while self.state.stream.subscribe().0 < position {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Opens a stream; `token` signs it in, `last` resumes.
    async fn open(&self, query: &str, token: Option<&str>, last: Option<u64>) -> (StatusCode, Events) {
        let mut request = Request::get(format!("/api/stream{query}"));
        if let Some(token) = token {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        if let Some(last) = last {
            request = request.header("last-event-id", last.to_string());
        }
        let app = api::http::app(self.state.clone(), std::path::Path::new("no-ui"));
        let response = app.oneshot(request.body(Body::empty()).unwrap()).await.unwrap();
        (response.status(), Events { body: response.into_body().into_data_stream(), buffer: String::new() })
    }
}

async fn open(dir: &std::path::Path, events: &str) -> (Config, Arc<domain::privacy::PrivateStore>) {
    let config = Cli::parse_from(["test", "--database-url", events, "--contract-address", "0xc0ffee"]).config;
    let config = Config { data_dir: dir.to_owned(), ..config };
    let store = api::log::open(&config).await.unwrap();
    (config, store)
}

async fn append(store: &dyn EventStore, events: &[ChainEvent]) {
    for event in events {
        let append = StreamAppend {
            stream_id: event.stream_id(80001),
            expected: ExpectedVersion::Any,
            events: vec![event.to_new_event(Uuid::now_v7(), Metadata::default()).unwrap()],
        };
        store.append_streams(vec![append]).await.unwrap();
    }
}

/// One server-sent event.
#[derive(Debug)]
struct Event {
    name: String,
    id: u64,
    data: Value,
}

impl Event {
    fn nfts(&self) -> Vec<String> {
        self.data["nfts"].as_array().map_or(Vec::new(), |nfts| nfts.iter().map(|n| n["nftId"].as_str().unwrap().to_owned()).collect())
    }

    fn notices(&self) -> Vec<(String, String)> {
        self.data["notices"].as_array().map_or(Vec::new(), |notices| {
            notices.iter().map(|n| (n["kind"].as_str().unwrap().to_owned(), n["nftId"].as_str().unwrap().to_owned())).collect()
        })
    }
}

/// A stream's events, parsed as a browser would.
struct Events {
    body: BodyDataStream,
    buffer: String,
}

impl Events {
    /// The next event (heartbeat comments skipped); `None` when the stream ended or nothing
    /// came within five seconds.
    async fn next(&mut self) -> Option<Event> {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let (mut name, mut id, mut data) = (String::from("message"), None, String::new());
                for line in block.lines() {
                    match line.split_once(':').map(|(k, v)| (k, v.strip_prefix(' ').unwrap_or(v))) {
                        Some(("event", v)) => name = v.to_owned(),
                        Some(("id", v)) => id = v.parse().ok(),
                        Some(("data", v)) => data.push_str(v),
                        _ => {}
                    }
                }
                if data.is_empty() {
                    continue;
                }
                return Some(Event { name, id: id.expect("every event has an id"), data: serde_json::from_str(&data).unwrap() });
            }
            match tokio::time::timeout(Duration::from_secs(5), self.body.next()).await {
                Ok(Some(Ok(bytes))) => self.buffer.push_str(std::str::from_utf8(&bytes).unwrap()),
                _ => return None,
            }
        }
    }
}

fn refunded(token: u64, bidder: &str, amount: &str, block: u64) -> ChainEvent {
    ChainEvent::BidRefunded {
        token_id: token.to_string(),
        auction_id: "1".into(),
        bidder: bidder.into(),
        amount: amount.into(),
        origin: origin(block),
    }
}

/// Alice (wallet 0xa1) and Bob (0xb2), registered.
async fn alice_and_bob(server: &Server) -> (Uuid, Uuid) {
    let (alice, bob) = (Uuid::now_v7(), Uuid::now_v7());
    projections::test_utils::register_user(server.state.store.as_ref(), alice, "alice", "0xa1", chrono::Utc::now()).await;
    projections::test_utils::register_user(server.state.store.as_ref(), bob, "bob", "0xb2", chrono::Utc::now()).await;
    (alice, bob)
}

fn sqlite(dir: &std::path::Path) -> (String, String) {
    (format!("sqlite://{}", dir.join("events.db").display()), format!("sqlite://{}", dir.join("read.db").display()))
}

#[tokio::test]
async fn a_client_resumes_after_a_restart_missing_and_doubling_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (events, read) = sqlite(dir.path());
    let mut seen: Vec<(u64, String)> = Vec::new();
    let last = {
        let server = Server::projecting(dir.path(), &events, &read).await;
        let (status, mut stream) = server.open("?topics=market", None, None).await;
        assert_eq!(status, StatusCode::OK);
        let ready = stream.next().await.unwrap();
        assert_eq!((ready.name.as_str(), ready.data["position"].as_u64()), ("ready", Some(ready.id)));
        server.chain(&[minted(1, "0xa1"), listed(1, "5", 2)]).await;
        let change = stream.next().await.unwrap();
        assert_eq!((change.name.as_str(), change.nfts()), ("change", vec!["80001-1".to_owned()]));
        assert!(change.id > ready.id && change.data["position"].as_u64() == Some(change.id));
        seen.extend(change.nfts().into_iter().map(|id| (change.id, id)));
        change.id
    };
    // The server is down while tokens 2 and 3 change (and 1 again); a new one starts.
    {
        let (_, store) = open(dir.path(), &events).await;
        append(store.as_ref(), &[minted(2, "0xa1"), minted(3, "0xb2"), listed(1, "6", 4)]).await;
    }
    let server = Server::projecting(dir.path(), &events, &read).await;
    let (_, mut stream) = server.open("?topics=market", None, Some(last)).await;
    let missed = stream.next().await.unwrap();
    assert_eq!(missed.name, "change");
    let mut missed_ids = missed.nfts();
    missed_ids.sort();
    assert_eq!(missed_ids, ["80001-1", "80001-2", "80001-3"], "everything since its last id, once");
    seen.extend(missed.nfts().into_iter().map(|id| (missed.id, id)));
    server.chain(&[listed(2, "7", 5)]).await;
    let live = stream.next().await.unwrap();
    assert_eq!(live.nfts(), ["80001-2"]);
    assert!(live.id > missed.id && missed.id > last, "positions only go forward");
    seen.extend(live.nfts().into_iter().map(|id| (live.id, id)));
    assert_eq!(seen.len(), 5);

    // Resuming from the last id: nothing is sent twice.
    let (_, mut again) = server.open("?topics=market", None, Some(live.id)).await;
    let ready = again.next().await.unwrap();
    assert_eq!((ready.name.as_str(), ready.id), ("ready", live.id));
    // A position ahead of the server's log (another deployment's): refetch.
    let (_, mut ahead) = server.open("?topics=market", None, Some(live.id + 1_000)).await;
    let reset = ahead.next().await.unwrap();
    assert_eq!((reset.name.as_str(), reset.id), ("reset", live.id));
}

#[tokio::test]
async fn topics_choose_the_nfts_and_a_signed_in_stream_carries_only_its_own_notices() {
    let dir = tempfile::tempdir().unwrap();
    let (events, read) = sqlite(dir.path());
    let server = Server::projecting(dir.path(), &events, &read).await;
    let (alice, bob) = alice_and_bob(&server).await;
    server.chain(&[minted(1, "0xa1"), auction(1, 2), minted(2, "0xa1")]).await;
    let tokens = &server.state.accounts.tokens;
    let (alice_token, bob_token) = (tokens.issue(alice).unwrap(), tokens.issue(bob).unwrap());
    server.settled().await;

    let (_, mut on_two) = server.open("?topics=nft:80001-2", None, None).await;
    let (_, mut alices) = server.open("?topics=nft:80001-1", Some(&alice_token), None).await;
    let (_, mut bobs) = server.open("", Some(&bob_token), None).await;
    for stream in [&mut on_two, &mut alices, &mut bobs] {
        assert_eq!(stream.next().await.unwrap().name, "ready");
    }
    // Bob bids on Alice's token 1, then Carol (no account) outbids him.
    server.chain(&[bid(1, "0xb2", "10", 3)]).await;
    server.chain(&[bid(1, "0xc3", "20", 4), refunded(1, "0xb2", "10", 4)]).await;
    server.chain(&[listed(2, "9", 5)]).await;

    // Alice's events until both bids' notices came (an NFT's change is told once, with its latest
    // position: when the projector is ahead of the hub, the first bid's change comes with the
    // second's).
    let (mut nfts, mut notices, mut second) = (Vec::new(), Vec::new(), None);
    while notices.len() < 2 {
        let event = alices.next().await.expect("Alice's notices arrive");
        nfts.extend(event.nfts());
        notices.extend(event.notices());
        if notices.len() == 2 {
            second = Some(event);
        }
    }
    let second = second.unwrap();
    nfts.dedup();
    assert_eq!(nfts, ["80001-1"], "her topic's NFT, not token 2");
    assert_eq!(notices, [("BID_RECEIVED".to_owned(), "80001-1".to_owned()), ("BID_RECEIVED".to_owned(), "80001-1".to_owned())]);
    assert_eq!(second.data["notices"][0]["amountWei"], "20");
    // Bob follows no topic: only his notice comes, the outbid, never Alice's.
    let outbid = bobs.next().await.unwrap();
    assert_eq!((outbid.nfts(), outbid.notices()), (vec![], vec![("OUTBID".to_owned(), "80001-1".to_owned())]));
    assert_eq!(outbid.id, second.id, "the same change, at the same position");
    // Token 2's topic sees its listing only.
    let listing = on_two.next().await.unwrap();
    assert_eq!((listing.nfts(), listing.notices()), (vec!["80001-2".to_owned()], vec![]));
    // Nothing else is on its way to anyone.
    for stream in [&mut on_two, &mut alices, &mut bobs] {
        assert!(tokio::time::timeout(Duration::from_millis(300), stream.next()).await.is_err());
    }
    // The answer also counts in /api/notifications (the read model behind the notices).
    let app = api::http::app(server.state.clone(), std::path::Path::new("no-ui"));
    let request = Request::get("/api/notifications/unread").header("authorization", format!("Bearer {bob_token}"));
    let response = app.oneshot(request.body(Body::empty()).unwrap()).await.unwrap();
    let body: Value = serde_json::from_slice(&axum::body::to_bytes(response.into_body(), 1 << 20).await.unwrap()).unwrap();
    assert_eq!(body["body"]["unread"], 1);
}

#[tokio::test]
async fn a_slow_client_is_dropped_and_catches_up_when_it_reconnects() {
    let dir = tempfile::tempdir().unwrap();
    let (events, read) = sqlite(dir.path());
    let server = Server::projecting(dir.path(), &events, &read).await;
    let (_, mut slow) = server.open("?topics=market", None, None).await;
    let ready = slow.next().await.unwrap();
    // More updates than the broadcast keeps, while the client reads nothing: each passed on
    // before the next is appended, so the hub cannot fold several into one (it does when it
    // falls behind the projector, which a loaded machine made it do).
    let tokens = 300;
    for token in 1..=tokens {
        server.chain(&[minted(token, "0xa1")]).await;
        server.settled().await;
    }
    let mut received = Vec::new();
    let mut last = ready.id;
    while let Some(event) = slow.next().await {
        last = event.id;
        received.extend(event.nfts());
    }
    assert!(received.len() < tokens as usize, "the stream ended before the end: dropped ({} received)", received.len());
    assert_eq!(server.state.stream.clients(), 0, "its receiver is gone");
    let (_, mut again) = server.open("?topics=market", None, Some(last)).await;
    while received.iter().collect::<std::collections::HashSet<_>>().len() < tokens as usize {
        let Some(rest) = again.next().await else { break };
        received.extend(rest.nfts());
    }
    received.sort();
    received.dedup();
    assert_eq!(received.len(), tokens as usize, "what the dropped stream missed came on reconnecting");
}

#[tokio::test]
async fn with_cards_each_change_carries_its_nfts_as_a_visitor_sees_them_live_and_on_resuming() {
    let dir = tempfile::tempdir().unwrap();
    let (events, read) = sqlite(dir.path());
    let server = Server::projecting(dir.path(), &events, &read).await;
    server.chain(&[minted(1, "0xa1"), minted(2, "0xa1")]).await;
    server.settled().await;
    let (_, mut with_cards) = server.open("?topics=market&cards=true", None, None).await;
    let (_, mut without) = server.open("?topics=market", None, None).await;
    let ready = with_cards.next().await.unwrap();
    assert_eq!(without.next().await.unwrap().name, "ready");

    server.chain(&[listed(2, "9000000000000000000", 3)]).await;
    let change = with_cards.next().await.unwrap();
    assert_eq!(change.nfts(), ["80001-2"]);
    let card = &change.data["cards"][0];
    assert_eq!((card["_id"].as_str(), card["formOfSale"].as_str()), (Some("80001-2"), Some("FIXEDPRICE")));
    assert_eq!((card["fixedPrice"].as_str(), card["fixedPriceWei"].as_str()), (Some("9"), Some("9000000000000000000")));
    assert_eq!((card["isLiked"].as_bool(), card["contractType"].as_str()), (Some(false), Some("ERC721")), "a visitor's card");
    assert_eq!(change.data["cards"].as_array().map(Vec::len), Some(1), "the change's NFTs only");
    let plain = without.next().await.unwrap();
    assert_eq!((plain.id, plain.data.get("cards")), (change.id, None), "no cards unless asked for");

    // Resuming from before it: the catch-up carries the cards of what was missed.
    let (_, mut resumed) = server.open("?topics=market&cards=true", None, Some(ready.id)).await;
    let missed = resumed.next().await.unwrap();
    assert_eq!((missed.name.as_str(), missed.nfts()), ("change", vec!["80001-2".to_owned()]));
    assert_eq!(missed.data["cards"][0]["fixedPriceWei"], "9000000000000000000");

    for bad in ["?cards=yes", "?cards=1"] {
        assert_eq!(server.open(bad, None, None).await.0, StatusCode::BAD_REQUEST, "{bad}");
    }
}

#[tokio::test]
async fn bad_topics_and_positions_answer_400() {
    let dir = tempfile::tempdir().unwrap();
    let (events, read) = sqlite(dir.path());
    let server = Server::projecting(dir.path(), &events, &read).await;
    for query in ["?topics=everything", "?topics=nft:", "?topics=user:1", "?lastEventId=abc", "?topics="] {
        let (status, _) = server.open(query, None, None).await;
        let expected = if query == "?topics=" { StatusCode::OK } else { StatusCode::BAD_REQUEST };
        assert_eq!(status, expected, "{query}");
    }
    let many = (0..21).map(|i| format!("nft:{i}")).collect::<Vec<_>>().join(",");
    assert_eq!(server.open(&format!("?topics={many}"), None, None).await.0, StatusCode::BAD_REQUEST);
    // The documented 20 topics fit, each a collection's (the longest usual topic).
    let collections: Vec<String> = (0..20).map(|_| format!("collection:{}", uuid::Uuid::now_v7())).collect();
    let twenty = collections.join(",");
    assert!(twenty.len() > 900, "{}", twenty.len());
    assert_eq!(server.open(&format!("?topics={twenty}"), None, None).await.0, StatusCode::OK, "20 collection topics");
    let long = format!("?topics=nft:80001-{}", "9".repeat(2_000));
    assert_eq!(server.open(&long, None, None).await.0, StatusCode::BAD_REQUEST, "past the parameter's limit");
}

#[tokio::test]
async fn on_postgres_a_change_projected_by_one_process_reaches_a_client_of_another() {
    let (events, read) = (TestPostgres::create().await, TestPostgres::create().await);
    let (one_dir, two_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let one = Server::projecting(one_dir.path(), &events.url, &read.url).await;
    let two = Server::following(two_dir.path(), &events.url, &read.url).await;
    let (_, mut client) = two.open("?topics=collection:c1,nft:80001-7", None, None).await;
    assert_eq!(client.next().await.unwrap().name, "ready");
    one.chain(&[minted(7, "0xa1"), listed(7, "5", 8)]).await;
    let change = client.next().await.expect("the follower's client sees the projecting process's change");
    assert_eq!(change.nfts(), ["80001-7"]);
    assert_eq!(change.id, one.state.projector.position());
}

#[tokio::test]
async fn a_notice_its_user_wants_by_email_is_mailed_once_per_kind_and_nft_in_ten_minutes() {
    let dir = tempfile::tempdir().unwrap();
    let (events, read) = sqlite(dir.path());
    let server = Server::projecting(dir.path(), &events, &read).await;
    let (alice, _bob) = alice_and_bob(&server).await;
    let store = server.state.store.as_ref();
    // Alice wants bids received by e-mail; Bob wants nothing by e-mail.
    let settings = domain::notices::settings(alice, &[], &["BID_RECEIVED".into()], chrono::Utc::now()).unwrap();
    domain::notices::record(store, &settings, Metadata::default()).await.unwrap();
    server.chain(&[minted(1, "0xa1"), auction(1, 2), minted(2, "0xa1"), auction(2, 3)]).await;
    server.settled().await;
    api::node::notifier::spawn(server.state.node.clone());
    tokio::task::yield_now().await;

    // Two bids on token 1 within ten minutes, one on token 2; Bob is outbid by Carol.
    server.chain(&[bid(1, "0xb2", "10", 4)]).await;
    server.chain(&[bid(1, "0xc3", "20", 5), refunded(1, "0xb2", "10", 5)]).await;
    server.chain(&[bid(2, "0xc3", "30", 6)]).await;
    server.settled().await;
    let mailbox = server.state.mailer.dev_mailbox().expect("the dev mailbox");
    for _ in 0..100 {
        if mailbox.latest("alice@example.com", 10).await.unwrap().len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mails = mailbox.latest("alice@example.com", 10).await.unwrap();
    assert_eq!(mails.len(), 2, "one for token 1 (the second bid within ten minutes is not mailed), one for token 2: {mails:?}");
    assert!(mails.iter().all(|m| m.subject == "New bid on your NFT"), "{mails:?}");
    assert!(mails.iter().any(|m| m.text.contains("/nft/80001-2")), "{mails:?}");
    assert!(mailbox.latest("bob@example.com", 10).await.unwrap().is_empty(), "Bob asked for no e-mail");
}

#[tokio::test]
async fn the_auction_clock_appends_ending_soon_and_time_up_once_each() {
    let dir = tempfile::tempdir().unwrap();
    let (events, read) = sqlite(dir.path());
    let server = Server::projecting(dir.path(), &events, &read).await;
    let now = chrono::Utc::now().timestamp();
    let ends = now + 1_800;
    let timed = ChainEvent::SaleUpdated {
        token_id: "1".into(),
        sale_type: SaleType::Auction,
        price: "0".into(),
        base_price: "1".into(),
        end_time: ends,
        auction_id: "1".into(),
        origin: origin(2),
    };
    let mut placed = bid(1, "0xb2", "10", 3);
    if let ChainEvent::BidPlaced { end_time, .. } = &mut placed {
        *end_time = ends;
    }
    // Token 2's auction has no bid: nobody to tell.
    server.chain(&[minted(1, "0xa1"), timed.clone(), placed, minted(2, "0xa1"), auction(2, 4)]).await;
    let mut told = std::collections::HashSet::new();
    assert_eq!(api::node::auction_clock::tick(&server.state, &mut told, now).await.unwrap(), 1, "ending within the hour");
    assert_eq!(api::node::auction_clock::tick(&server.state, &mut told, now).await.unwrap(), 0, "once");
    // Another process (its own memory) does not tell it again either.
    assert_eq!(api::node::auction_clock::tick(&server.state, &mut Default::default(), now).await.unwrap(), 0);
    assert_eq!(api::node::auction_clock::tick(&server.state, &mut told, ends + 1).await.unwrap(), 1, "time up");
    server.chain(&[]).await;
    let kinds: Vec<String> = sqlx::query_scalar("SELECT kind FROM notices WHERE nft_id = '80001-1' ORDER BY position, recipient")
        .fetch_all(&server.state.read.pool())
        .await
        .unwrap();
    assert_eq!(kinds, ["BID_RECEIVED", "AUCTION_ENDING", "AUCTION_ENDED", "AUCTION_ENDED"]);
}

/// What one resuming client received: the position it resumed from, its first event and the
/// events after it until the last change was projected.
struct Resumed {
    from: u64,
    first: Event,
    rest: Vec<Event>,
}

/// Keeps changing a few NFTs (one at a time, each projected) while clients resume from random
/// positions, then checks every client against the log: its first event names exactly the
/// NFTs changed after its position up to the event's id (a catch-up that read only where each
/// NFT's latest change lands would miss one changed again meanwhile), and every later change
/// comes in a later event, none named twice.
async fn resume_while_nfts_keep_changing(projecting: &Server, clients: &Server, tokens: std::ops::RangeInclusive<u64>) {
    use rand::Rng;
    const CHANGES: u64 = 160;
    const RESUMES: usize = 40;
    for token in tokens.clone() {
        projecting.chain(&[minted(token, "0xa1")]).await;
    }
    let base = projecting.state.projector.position();
    let (done, finished) = tokio::sync::watch::channel(None::<u64>);
    let writer = async {
        for i in 0..CHANGES {
            let token = rand::rng().random_range(tokens.clone());
            projecting.chain(&[listed(token, &(i + 1).to_string(), 100 + i)]).await;
            if i % 4 == 0 {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
        }
        done.send_replace(Some(projecting.state.projector.position()));
    };
    let resumes = async {
        let mut readers = Vec::new();
        for _ in 0..RESUMES {
            tokio::time::sleep(Duration::from_millis(rand::rng().random_range(0..6))).await;
            let now = projecting.state.projector.position();
            let from = rand::rng().random_range(base..=now);
            let (status, mut events) = clients.open("?topics=market", None, Some(from)).await;
            assert_eq!(status, StatusCode::OK);
            let mut finished = finished.clone();
            readers.push(tokio::spawn(async move {
                let first = events.next().await.expect("a first event");
                let mut rest = Vec::new();
                let mut last = first.id;
                loop {
                    let end = *finished.borrow_and_update();
                    if end.is_some_and(|end| last >= end) {
                        break;
                    }
                    // The last change can arrive before the writer says it was the last:
                    // wait for either (reading an event is cancel-safe).
                    let next = tokio::select! {
                        next = events.next() => next,
                        _ = finished.changed(), if end.is_none() => continue,
                    };
                    let Some(event) = next else {
                        panic!("resumed from {from}: the stream stopped at {last} before the last change ({end:?}); first {first:?}")
                    };
                    last = event.id;
                    rest.push(event);
                }
                Resumed { from, first, rest }
            }));
        }
        readers
    };
    let ((), readers) = tokio::join!(writer, resumes);
    // Which NFT each position changed, from the log.
    let log = projecting.state.store.read_all(base, 100_000).await.unwrap();
    let changes: Vec<(u64, String)> = log.iter().filter_map(|e| Some((e.position, e.stream_id.strip_prefix("nft-")?.to_owned()))).collect();
    let changed_in = |after: u64, up_to: u64| -> std::collections::BTreeSet<String> {
        changes.iter().filter(|(p, _)| *p > after && *p <= up_to).map(|(_, id)| id.clone()).collect()
    };
    let mut caught_up = 0;
    for reader in readers {
        let Resumed { from, first, rest } = reader.await.unwrap();
        assert!(["change", "ready"].contains(&first.name.as_str()), "resumed from {from}: {first:?}");
        assert!(first.id >= from, "resumed from {from}: {first:?}");
        let named: std::collections::BTreeSet<String> = first.nfts().into_iter().collect();
        assert_eq!(named, changed_in(from, first.id), "resumed from {from}, first event at {}: every NFT changed since, once", first.id);
        caught_up += usize::from(!named.is_empty());
        // After it, each change arrives in an event at or after its position, never one at or
        // before the first event's.
        let mut previous = first.id;
        for event in &rest {
            assert!(event.id > previous, "positions only go forward");
            previous = event.id;
            for change in event.data["nfts"].as_array().unwrap() {
                assert!(change["position"].as_u64().unwrap() > first.id, "named again: {event:?} after {first:?}");
            }
        }
        for (position, nft) in changes.iter().filter(|(p, _)| *p > first.id) {
            assert!(
                rest.iter().any(|e| e.id >= *position && e.nfts().contains(nft)),
                "resumed from {from}: {nft} changed at {position} after the catch-up at {} never came",
                first.id
            );
        }
    }
    assert!(caught_up >= RESUMES / 4, "the clients had something to catch up on ({caught_up} of {RESUMES})");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_resuming_while_nfts_keep_changing_get_every_change_since_their_position() {
    let dir = tempfile::tempdir().unwrap();
    let (events, read) = sqlite(dir.path());
    let server = Server::projecting(dir.path(), &events, &read).await;
    resume_while_nfts_keep_changing(&server, &server, 1..=6).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_clients_resuming_while_nfts_keep_changing_get_every_change() {
    let (events, read) = (TestPostgres::create().await, TestPostgres::create().await);
    let dir = tempfile::tempdir().unwrap();
    let one = Server::projecting(dir.path(), &events.url, &read.url).await;
    resume_while_nfts_keep_changing(&one, &one, 1..=6).await;
}

fn offer_made(token: u64, offerer: &str, block: u64) -> ChainEvent {
    ChainEvent::OfferMade {
        token_id: token.to_string(),
        offerer: offerer.into(),
        amount: "7".into(),
        expires_at: 1_900_000_000,
        fee_bps: 500,
        replaced_amount: "0".into(),
        origin: origin(block),
    }
}

#[tokio::test]
async fn an_offer_made_cancelled_rejected_or_accepted_reaches_its_nft_topic_and_the_market() {
    let dir = tempfile::tempdir().unwrap();
    let (events, read) = sqlite(dir.path());
    let server = Server::projecting(dir.path(), &events, &read).await;
    server.chain(&[minted(5, "0xa1"), minted(6, "0xa1")]).await;
    server.settled().await;
    let (_, mut on_five) = server.open("?topics=nft:80001-5", None, None).await;
    let (_, mut market) = server.open("?topics=market", None, None).await;
    for stream in [&mut on_five, &mut market] {
        assert_eq!(stream.next().await.unwrap().name, "ready");
    }
    let steps: [(&str, Vec<ChainEvent>); 4] = [
        ("made", vec![offer_made(5, "0xb2", 10)]),
        (
            "cancelled",
            vec![ChainEvent::OfferCancelled { token_id: "5".into(), offerer: "0xb2".into(), amount: "7".into(), origin: origin(11) }],
        ),
        (
            "made and rejected",
            vec![
                offer_made(5, "0xc3", 12),
                ChainEvent::OfferRejected { token_id: "5".into(), offerer: "0xc3".into(), amount: "7".into(), origin: origin(13) },
            ],
        ),
        (
            "made and accepted",
            vec![
                offer_made(5, "0xd4", 14),
                ChainEvent::OfferAccepted {
                    token_id: "5".into(),
                    offerer: "0xd4".into(),
                    seller: "0xa1".into(),
                    amount: "7".into(),
                    origin: origin(15),
                },
            ],
        ),
    ];
    for (step, facts) in steps {
        // One step at a time, each projected before the next.
        for fact in facts {
            server.chain(&[fact]).await;
        }
        let position = server.state.projector.position();
        for (topic, stream) in [("nft:80001-5", &mut on_five), ("market", &mut market)] {
            let mut named = Vec::new();
            let mut at = 0;
            while at < position {
                let change = stream.next().await.unwrap_or_else(|| panic!("the offer {step} reached {topic}"));
                named.extend(change.nfts());
                at = change.id;
            }
            named.dedup();
            assert_eq!(named, ["80001-5"], "offer {step} on {topic}");
        }
    }
    // An offer on token 6 is not token 5's.
    server.chain(&[offer_made(6, "0xb2", 16)]).await;
    assert_eq!(market.next().await.unwrap().nfts(), ["80001-6"]);
    assert!(tokio::time::timeout(Duration::from_millis(300), on_five.next()).await.is_err());
}
