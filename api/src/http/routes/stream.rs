//! `GET /api/stream`: the market's changes as server-sent events (see [`crate::node::stream`]).
//!
//! A client names its topics (`market`: every NFT; `nft:{id}`; `collection:{id}`) and, signed
//! in, also gets its own notices, never anyone else's. Each event is one `change`, whose `id` is
//! the log position it brings the client to; reconnecting with `Last-Event-ID` (or
//! `?lastEventId=`, for clients that cannot set headers) resumes after it: every change missed
//! arrives, in order, once. A position the server cannot resume from (ahead of its log, or so
//! far behind that refetching is cheaper) gets a `reset`: refetch what is shown, then carry on.

use std::{
    collections::{HashMap, HashSet},
    convert::Infallible,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll, ready},
    time::Duration,
};

use axum::{
    body::{Body, Bytes},
    extract::State,
    http::{HeaderMap, header},
    response::{IntoResponse, Response},
};
use futures::{FutureExt, Stream, StreamExt, stream};
use projections::queries::{self, notices::NoticeView};
use serde::Serialize;
use serde_json::value::RawValue;
use tokio::{
    sync::broadcast::{self, error::RecvError},
    time::{Instant, Sleep},
};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    openapi::BadRequest,
    params::{Params, Text, query_params},
};
use crate::{
    http::{
        AppState,
        auth::MaybeUser,
        error::{ApiError, db_error},
    },
    node::stream::{NftChange, Update},
};

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(stream))
}

/// How often an idle stream sends a comment, so proxies and clients know it is alive.
const HEARTBEAT: Duration = Duration::from_secs(15);

/// At most this many topics per stream.
const MAX_TOPICS: usize = 20;

/// A backlog of more NFT changes than this is a `reset` instead: refetching is cheaper.
const MAX_BACKLOG: usize = 2_000;

const TOPICS: Text = Text {
    name: "topics",
    description: "Comma-separated topics: `market` (every NFT's changes, for lists), `nft:{nftId}`, `collection:{collectionId}`. \
                  A signed-in stream also carries the caller's notices.",
};
const LAST_EVENT_ID: Text =
    Text { name: "lastEventId", description: "The last event id received, for clients that cannot send the `Last-Event-ID` header" };
const CARDS: Text = Text {
    name: "cards",
    description: "`true`: each change also carries the changed NFTs' cards (`cards`), as lists show them to a visitor, \
                  so a dashboard needs no request per change; `false` (the default): only their ids",
};

query_params!(
    /// The stream's query.
    StreamQuery: TOPICS, LAST_EVENT_ID, CARDS
);

/// The changed NFTs' cards, by id, as a visitor's lists show them (a burned NFT has none).
type Cards = HashMap<String, Box<RawValue>>;

/// What one client asked for.
#[derive(Debug, Default)]
struct Topics {
    market: bool,
    nfts: HashSet<String>,
    collections: HashSet<String>,
    user: Option<String>,
    /// Whether each change carries its NFTs' cards.
    cards: bool,
}

impl Topics {
    fn parse(text: Option<&str>, user: Option<String>, cards: Option<&str>) -> Result<Self, ApiError> {
        let cards = match cards.map(str::trim) {
            None | Some("" | "false") => false,
            Some("true") => true,
            Some(other) => return Err(ApiError::BadRequest(format!("cards: true or false, not {other:?}"))),
        };
        let mut topics = Self { user, cards, ..Self::default() };
        let names: Vec<&str> = text.unwrap_or("").split(',').map(str::trim).filter(|t| !t.is_empty()).collect();
        if names.len() > MAX_TOPICS {
            return Err(ApiError::BadRequest(format!("topics: at most {MAX_TOPICS}")));
        }
        for name in names {
            match name.split_once(':') {
                None if name == "market" => topics.market = true,
                Some(("nft", id)) if !id.is_empty() => drop(topics.nfts.insert(id.to_owned())),
                Some(("collection", id)) if !id.is_empty() => drop(topics.collections.insert(id.to_owned())),
                _ => {
                    return Err(ApiError::BadRequest(format!(
                        "topics: unknown topic {name:?}; the topics are market, nft:{{nftId}} and collection:{{collectionId}}"
                    )));
                }
            }
        }
        Ok(topics)
    }

    /// Whether this client follows `change`, past position `after`.
    fn wants(&self, change: &NftChange, after: u64) -> bool {
        change.position > after
            && (self.market || self.nfts.contains(&change.nft_id) || change.collections.iter().any(|id| self.collections.contains(id)))
    }

    /// This client's notices of `update`, past position `after`.
    fn notices<'u>(&self, update: &'u Update, after: u64) -> impl Iterator<Item = &'u NoticeView> {
        let user = self.user.as_deref();
        update.notices.iter().filter(move |(to, n)| Some(to.as_str()) == user && n.position as u64 > after).map(|(_, notice)| notice)
    }

    /// The part of `update` this client gets, past position `after`; `None` when nothing.
    fn message<'u>(&self, update: &'u Update, after: u64) -> Option<Change<'u>> {
        let nfts: Vec<&NftChange> = update.nfts.iter().filter(|c| self.wants(c, after)).collect();
        let notices: Vec<&NoticeView> = self.notices(update, after).collect();
        (!nfts.is_empty() || !notices.is_empty()).then_some(Change { position: update.up_to, nfts, notices, cards: None })
    }

    /// The cards of `update`'s NFTs when this client asked for them and gets some of the NFTs.
    async fn cards<'u>(&self, state: &AppState, update: &'u Update, after: u64) -> Result<Option<&'u Cards>, ApiError> {
        if self.cards && update.nfts.iter().any(|c| self.wants(c, after)) { cards_of(state, update).await.map(Some) } else { Ok(None) }
    }

    /// This client's `change` event of `update`, past position `after` (`None`: nothing for it),
    /// with `cards` (the update's, given when it asked for them).
    fn event(&self, update: &Update, after: u64, cards: Option<&Cards>) -> Option<Bytes> {
        // A client that gets every NFT of the update and none of its notices (one following the
        // market, most often) writes the same bytes as every other such client: rendered once.
        if !update.nfts.is_empty() && update.nfts.iter().all(|c| self.wants(c, after)) && self.notices(update, after).next().is_none() {
            let whole = &update.whole[usize::from(cards.is_some())];
            return Some(
                whole
                    .get_or_init(|| {
                        frame("change", update.up_to, &Change::of(update.up_to, update.nfts.iter().collect(), Vec::new(), cards))
                    })
                    .clone(),
            );
        }
        let Change { nfts, notices, .. } = self.message(update, after)?;
        Some(frame("change", update.up_to, &Change::of(update.up_to, nfts, notices, cards)))
    }
}

/// The cards of `update`'s NFTs, read once for every client that wants them.
async fn cards_of<'u>(state: &AppState, update: &'u Update) -> Result<&'u Cards, ApiError> {
    let cards = update
        .cards
        .get_or_try_init(|| async {
            let ids: Vec<&str> = update.nfts.iter().map(|c| c.nft_id.as_str()).collect();
            // As of the update's position at least: a read replica behind it is not read.
            let views = projections::reads::after(update.up_to, queries::nft::cards(&state.read, &ids)).await.map_err(db_error)?;
            let mut cards = Cards::with_capacity(views.len());
            for view in &views {
                let json = serde_json::value::to_raw_value(&super::nft::card(state, view, (false, false)))
                    .map_err(|e| ApiError::Internal(e.into()))?;
                cards.insert(view.id.clone(), json);
            }
            Ok::<_, ApiError>(Arc::new(cards))
        })
        .await?;
    Ok(cards.as_ref())
}

impl<'u> Change<'u> {
    /// The change to `position` of `nfts` and `notices`, with the NFTs' `cards` when given.
    fn of(position: u64, nfts: Vec<&'u NftChange>, notices: Vec<&'u NoticeView>, cards: Option<&'u Cards>) -> Self {
        let cards =
            cards.filter(|_| !nfts.is_empty()).map(|cards| nfts.iter().filter_map(|c| cards.get(&c.nft_id).map(AsRef::as_ref)).collect());
        Self { position, nfts, notices, cards }
    }
}

/// One `change` event's data.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Change<'u> {
    /// The log position this change brings the client to (also the event's id).
    position: u64,
    /// NFTs that changed, of the client's topics: refetch what shows them.
    #[schema(value_type = Vec<NftChangeDoc>)]
    nfts: Vec<&'u NftChange>,
    /// The caller's new notices.
    #[schema(value_type = Vec<super::notices::Notice>)]
    notices: Vec<&'u NoticeView>,
    /// With `cards=true`: the cards of `nfts` as a visitor's lists show them now (one per NFT
    /// that still shows: a burned NFT has none).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<super::nft::NftCard>>)]
    cards: Option<Vec<&'u RawValue>>,
}

/// One event's data: a `change` event carries a `Change`, `ready` and `reset` a `StreamPosition`.
#[derive(ToSchema)]
#[serde(untagged)]
#[allow(dead_code, reason = "documents the stream's data")]
enum StreamData<'u> {
    /// A `change` event's data.
    Change(Change<'u>),
    /// A `ready` or `reset` event's data.
    Position(StreamPosition),
}

/// An NFT that changed.
#[derive(ToSchema)]
#[schema(as = NftChange)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code, reason = "documents the stream's data")]
struct NftChangeDoc {
    /// `{chain}-{token}`.
    nft_id: String,
    /// The position of its latest change.
    position: u64,
    /// The collections it is in (absent when none).
    collections: Option<Vec<String>>,
}

/// A `ready` or `reset` event's data: the log position the client is at (also the event's id).
#[derive(Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct StreamPosition {
    /// The log position the client is at (also the event's id).
    position: u64,
}

/// The bytes of event `name` with id `position` and `data` as JSON: what axum's `Event` writes
/// (`event`, `id`, then `data` on one line: compact JSON has no line breaks), built here so
/// that one rendering can be shared by many clients.
fn frame(name: &str, position: u64, data: &impl Serialize) -> Bytes {
    let mut bytes = format!("event: {name}\nid: {position}\ndata: ").into_bytes();
    // Writing to memory fails only for data that cannot be JSON, which none of the stream's is.
    serde_json::to_writer(&mut bytes, data).expect("the stream's data is JSON");
    bytes.extend_from_slice(b"\n\n");
    Bytes::from(bytes)
}

/// The market's changes as server-sent events: `ready` (no position given) or `reset` (one
/// that cannot be resumed) first, then `change` events, each with the log position as its id.
#[utoipa::path(
    get,
    path = "/api/stream",
    tag = "stream",
    params(StreamQuery, ("Last-Event-ID" = Option<String>, Header, description = "The last event id received: resume after it")),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "An endless `text/event-stream`: events `ready` and `reset` (data: a `StreamPosition`) and `change` (data: a `Change`), comments as heartbeats", content_type = "text/event-stream", body = StreamData),
        (status = 400, response = BadRequest),
    ),
)]
async fn stream(State(state): State<AppState>, viewer: MaybeUser, headers: HeaderMap, params: Params) -> Result<Response, ApiError> {
    let topics = Topics::parse(params.text(&TOPICS), viewer.0.map(|user| user.to_string()), params.text(&CARDS))?;
    let resume = headers.get("last-event-id").and_then(|v| v.to_str().ok()).or(params.text(&LAST_EVENT_ID));
    let resume = match resume.map(str::trim).filter(|id| !id.is_empty()) {
        Some(id) => Some(id.parse::<u64>().map_err(|_| ApiError::BadRequest(format!("Last-Event-ID: not a position: {id:?}")))?),
        None => None,
    };
    // Subscribed first: every update after `published` comes through the receiver, and the
    // catch-up, read after, reaches at least as far.
    let (published, updates) = state.stream.subscribe();
    let (first, start) = match resume {
        None => (frame("ready", published, &StreamPosition { position: published }), published),
        Some(from) if from > published => (frame("reset", published, &StreamPosition { position: published }), published),
        Some(from) => {
            // Everything changed in `(from, start]`, read in one snapshot of the tables; live
            // updates carry on after `start`.
            let backlog = state.stream.catch_up(from).await.map_err(db_error)?;
            let start = backlog.up_to;
            let first = if start < published || (backlog.nfts.len() > MAX_BACKLOG && topics.market) {
                // Behind what was published (a replay's generation switched meanwhile), or more
                // than is worth naming: refetch.
                let at = start.max(published);
                frame("reset", at, &StreamPosition { position: at })
            } else {
                let cards = topics.cards(&state, &backlog, from).await?;
                match topics.event(&backlog, from, cards) {
                    Some(change) => change,
                    // Nothing missed: only the position moves on (a comment-free ready).
                    None => frame("ready", start, &StreamPosition { position: start }),
                }
            };
            (first, start.max(published))
        }
    };
    let events = Heartbeats::new(stream::once(async move { first }).chain(live(state, topics, start, updates)).boxed(), HEARTBEAT);
    // What axum's `Sse` answers.
    Ok(([(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache")], Body::from_stream(events)).into_response())
}

/// The broadcast's updates after `start`, as this client's events; ends when the client fell
/// too far behind (it reconnects from its last id).
fn live(state: AppState, topics: Topics, start: u64, updates: broadcast::Receiver<Arc<Update>>) -> impl Stream<Item = Bytes> {
    // The state and topics travel with the receiver from one event to the next (not cloned for each).
    stream::unfold((updates, state, topics), move |(mut updates, state, topics)| async move {
        loop {
            match updates.recv().await {
                Ok(update) if update.up_to <= start => {}
                Ok(update) => {
                    let event = match topics.cards(&state, &update, start).await {
                        Ok(cards) => topics.event(&update, start, cards),
                        Err(err) => {
                            // The client reconnects from its last id and catches up.
                            tracing::warn!(%err, "a stream client's cards could not be read; dropping it");
                            return None;
                        }
                    };
                    if let Some(event) = event {
                        return Some((event, (updates, state, topics)));
                    }
                }
                Err(RecvError::Lagged(missed)) => {
                    tracing::debug!(missed, "a stream client fell behind; dropping it");
                    crate::http::routes::metrics::stream_dropped();
                    return None;
                }
                Err(RecvError::Closed) => return None,
            }
        }
    })
}

/// A comment after `HEARTBEAT` without an event, so proxies and clients know the stream is
/// alive: axum's `KeepAlive`, except that its timer is re-armed when it fires too early (an
/// event came since it was armed), not at every event (10,000 clients' timers each change).
struct Heartbeats {
    events: futures::stream::BoxStream<'static, Bytes>,
    /// `HEARTBEAT` (shorter in tests).
    every: Duration,
    timer: Pin<Box<Sleep>>,
    /// When the last event or comment was written.
    last: Instant,
}

impl Heartbeats {
    fn new(events: futures::stream::BoxStream<'static, Bytes>, every: Duration) -> Self {
        Self { events, every, timer: Box::pin(tokio::time::sleep(every)), last: Instant::now() }
    }
}

impl Stream for Heartbeats {
    type Item = Result<Bytes, Infallible>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if let Poll::Ready(event) = this.events.poll_next_unpin(cx) {
            this.last = Instant::now();
            return Poll::Ready(event.map(Ok));
        }
        loop {
            ready!(this.timer.poll_unpin(cx));
            let (now, due) = (Instant::now(), this.last + this.every);
            if due <= now {
                this.last = now;
                this.timer.as_mut().reset(now + this.every);
                return Poll::Ready(Some(Ok(Bytes::from_static(b":\n\n"))));
            }
            this.timer.as_mut().reset(due);
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::response::sse::{Event, Sse};
    use serde_json::{Value, json};

    use super::*;

    fn nft(id: &str, position: u64, collections: &[&str]) -> NftChange {
        NftChange { nft_id: id.into(), position, collections: collections.iter().map(|c| c.to_string()).collect() }
    }

    fn notice(position: i64, nft_id: &str) -> NoticeView {
        NoticeView {
            position,
            kind: "OUTBID".into(),
            nft_id: nft_id.into(),
            nft_title: None,
            nft_file: None,
            amount: "1".into(),
            amount_wei: "1000000000000000000".into(),
            top_amount: None,
            top_amount_wei: None,
            counterpart_address: None,
            counterpart_user_id: None,
            counterpart_username: None,
            transaction_hash: "0x1".into(),
            created_at: "2026-01-01T00:00:00Z".into(),
            read: false,
            target_kind: None,
            target_id: None,
            target_title: None,
            reason: None,
            decision: None,
        }
    }

    fn topics(text: &str, user: Option<&str>) -> Topics {
        Topics::parse(Some(text), user.map(str::to_owned), None).unwrap()
    }

    /// An event's id and data.
    fn parsed(frame: &Bytes) -> (u64, Value) {
        let text = std::str::from_utf8(frame).unwrap();
        let id = text.lines().find_map(|l| l.strip_prefix("id: ")).unwrap().parse().unwrap();
        (id, serde_json::from_str(text.lines().find_map(|l| l.strip_prefix("data: ")).unwrap()).unwrap())
    }

    fn ids(data: &Value, key: &str) -> Vec<String> {
        data[key].as_array().unwrap().iter().map(|n| n["nftId"].as_str().unwrap().to_owned()).collect()
    }

    #[tokio::test]
    async fn a_frame_is_what_axums_sse_writes() {
        let data = json!({"position": 7, "nfts": [{"nftId": "80001-1", "position": 7}], "notices": [], "text": "a\nb\r"});
        let event = Event::default().event("change").id("7").json_data(&data).unwrap();
        let body = Sse::new(stream::iter([Ok::<_, Infallible>(event)])).into_response().into_body();
        assert_eq!(axum::body::to_bytes(body, usize::MAX).await.unwrap(), frame("change", 7, &data));
    }

    #[tokio::test]
    async fn a_heartbeat_comes_a_period_after_the_last_event_or_heartbeat() {
        const EVERY: Duration = Duration::from_millis(200);
        let start = Instant::now();
        // An event at once and one 100 ms later, then none.
        let events = stream::iter([Bytes::from_static(b"a"), Bytes::from_static(b"b")])
            .then(move |bytes| async move {
                if &bytes[..] == b"b" {
                    tokio::time::sleep_until(start + Duration::from_millis(100)).await;
                }
                bytes
            })
            .chain(stream::pending());
        let mut stream = Heartbeats::new(events.boxed(), EVERY);
        let mut next = async || {
            let bytes = stream.next().await.unwrap().unwrap();
            (bytes, Instant::now())
        };
        assert_eq!(&next().await.0[..], b"a");
        let (b, at_b) = next().await;
        assert_eq!(&b[..], b"b");
        // Not 200 ms after the first event (the timer's first deadline): 200 ms after the last.
        let (comment, at_first) = next().await;
        assert_eq!(&comment[..], b":\n\n");
        assert!(at_first >= at_b + EVERY, "a heartbeat {:?} after the last event", at_first - at_b);
        let (comment, at_second) = next().await;
        assert_eq!(&comment[..], b":\n\n");
        assert!(at_second >= at_first + EVERY, "a heartbeat {:?} after the last one", at_second - at_first);
    }

    #[test]
    fn clients_with_the_same_view_share_an_update_s_event_and_the_others_get_their_own() {
        let update = Update {
            after: 4,
            up_to: 6,
            nfts: vec![nft("80001-1", 5, &["c1"]), nft("80001-2", 6, &[])],
            notices: vec![("alice".into(), notice(6, "80001-2"))],
            ..Update::default()
        };
        let market = topics("market", None).event(&update, 4, None).unwrap();
        assert_eq!(
            parsed(&market),
            (
                6,
                json!({"position": 6, "nfts": [{"nftId": "80001-1", "position": 5, "collections": ["c1"]}, {"nftId": "80001-2", "position": 6}], "notices": []})
            )
        );
        assert_eq!(update.whole[0].get(), Some(&market));
        // The same view: the same bytes (one allocation).
        for same in [topics("market", Some("bob")), topics("collection:c1,nft:80001-2", None)] {
            assert_eq!(same.event(&update, 4, None).unwrap().as_ptr(), market.as_ptr());
        }
        // Alice's notice is hers only.
        let alice = topics("market", Some("alice")).event(&update, 4, None).unwrap();
        assert_eq!(ids(&parsed(&alice).1, "nfts"), ["80001-1", "80001-2"]);
        assert_eq!(ids(&parsed(&alice).1, "notices"), ["80001-2"]);
        // Part of the NFTs: by topic, or past a position inside the update (a resumed client's).
        assert_eq!(ids(&parsed(&topics("nft:80001-1", None).event(&update, 4, None).unwrap()).1, "nfts"), ["80001-1"]);
        assert_eq!(ids(&parsed(&topics("market", None).event(&update, 5, None).unwrap()).1, "nfts"), ["80001-2"]);
        assert_eq!(topics("nft:80001-3", Some("bob")).event(&update, 4, None), None);
        // With cards: their own shared event, with the cards of the NFTs that have one.
        let cards: Cards = [("80001-2".to_owned(), serde_json::value::to_raw_value(&json!({"id": "80001-2"})).unwrap())].into();
        let with_cards = topics("market", None).event(&update, 4, Some(&cards)).unwrap();
        assert_eq!(parsed(&with_cards).1["cards"], json!([{"id": "80001-2"}]));
        assert_eq!(update.whole[1].get(), Some(&with_cards));
        assert_eq!(topics("market", None).event(&update, 4, None), Some(market));
        let alice = topics("market", Some("alice")).event(&update, 4, Some(&cards)).unwrap();
        assert_eq!(
            (parsed(&alice).1["cards"].clone(), ids(&parsed(&alice).1, "notices")),
            (json!([{"id": "80001-2"}]), vec!["80001-2".to_owned()])
        );
    }
}
