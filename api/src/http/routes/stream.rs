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
    sync::Arc,
    time::Duration,
};

use axum::{
    extract::State,
    http::HeaderMap,
    response::{
        IntoResponse, Response,
        sse::{Event, KeepAlive, Sse},
    },
};
use futures::{Stream, StreamExt, stream};
use projections::queries::{self, notices::NoticeView};
use serde::Serialize;
use serde_json::value::RawValue;
use tokio::sync::broadcast::{self, error::RecvError};
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

    /// The part of `update` this client gets, past position `after`; `None` when nothing.
    fn message<'u>(&self, update: &'u Update, after: u64) -> Option<Change<'u>> {
        let nfts: Vec<&NftChange> = update
            .nfts
            .iter()
            .filter(|c| c.position > after)
            .filter(|c| self.market || self.nfts.contains(&c.nft_id) || c.collections.iter().any(|id| self.collections.contains(id)))
            .collect();
        let notices: Vec<&NoticeView> = match &self.user {
            Some(user) => {
                update.notices.iter().filter(|(to, n)| to == user && n.position as u64 > after).map(|(_, notice)| notice).collect()
            }
            None => Vec::new(),
        };
        (!nfts.is_empty() || !notices.is_empty()).then_some(Change { position: update.up_to, nfts, notices, cards: None })
    }

    /// `change` (of `update`) with its NFTs' cards, when this client asked for them.
    async fn with_cards<'u>(&self, state: &AppState, update: &'u Update, mut change: Change<'u>) -> Result<Change<'u>, ApiError> {
        if self.cards && !change.nfts.is_empty() {
            let cards = cards_of(state, update).await?;
            change.cards = Some(change.nfts.iter().filter_map(|c| cards.get(&c.nft_id).map(AsRef::as_ref)).collect());
        }
        Ok(change)
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

fn event(name: &str, position: u64, data: &impl Serialize) -> Event {
    Event::default().event(name).id(position.to_string()).json_data(data).unwrap_or_default()
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
        None => (event("ready", published, &StreamPosition { position: published }), published),
        Some(from) if from > published => (event("reset", published, &StreamPosition { position: published }), published),
        Some(from) => {
            // Everything changed in `(from, start]`, read in one snapshot of the tables; live
            // updates carry on after `start`.
            let backlog = state.stream.catch_up(from).await.map_err(db_error)?;
            let start = backlog.up_to;
            let first = if start < published || (backlog.nfts.len() > MAX_BACKLOG && topics.market) {
                // Behind what was published (a replay's generation switched meanwhile), or more
                // than is worth naming: refetch.
                let at = start.max(published);
                event("reset", at, &StreamPosition { position: at })
            } else {
                match topics.message(&backlog, from) {
                    Some(change) => event("change", start, &topics.with_cards(&state, &backlog, change).await?),
                    // Nothing missed: only the position moves on (a comment-free ready).
                    None => event("ready", start, &StreamPosition { position: start }),
                }
            };
            (first, start.max(published))
        }
    };
    let live = live(state, Arc::new(topics), start, updates);
    let events = stream::once(async move { Ok::<_, Infallible>(first) }).chain(live);
    Ok(Sse::new(events).keep_alive(KeepAlive::new().interval(HEARTBEAT)).into_response())
}

/// The broadcast's updates after `start`, as this client's events; ends when the client fell
/// too far behind (it reconnects from its last id).
fn live(
    state: AppState,
    topics: Arc<Topics>,
    start: u64,
    updates: broadcast::Receiver<Arc<Update>>,
) -> impl Stream<Item = Result<Event, Infallible>> {
    stream::unfold(updates, move |mut updates| {
        let (state, topics) = (state.clone(), topics.clone());
        async move {
            loop {
                match updates.recv().await {
                    Ok(update) if update.up_to <= start => {}
                    Ok(update) => {
                        let Some(change) = topics.message(&update, start) else { continue };
                        match topics.with_cards(&state, &update, change).await {
                            Ok(change) => return Some((Ok(event("change", update.up_to, &change)), updates)),
                            Err(err) => {
                                // The client reconnects from its last id and catches up.
                                tracing::warn!(%err, "a stream client's cards could not be read; dropping it");
                                return None;
                            }
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
        }
    })
}
