//! Likes and bookmarks: `likes`, `bookmarks`, the LIKED / UNLIKED rows of `like_history`, and
//! `nfts.total_likes`, folded from the `social-{userId}` streams.
//!
//! The model never reads the tables back, so a fresh generation fills it as a pipeline like any
//! write-only model (see [`ReadModel::remember`]): a batch keeps each (user, NFT)'s last state
//! in memory and writes it with a few statements. `total_likes` is counted by the database from
//! `likes`, for the tokens whose likes changed in the batch and for those minted in it: a reorg
//! that refolds a token's stream inserts its `nfts` row again (with no likes), and the likes,
//! off-chain facts, must count again once it is minted (this model also folds `NftMinted`, which
//! comes after the chain model's in each batch, to recount them then). Every token whose count
//! changed is stamped in `nft_changes`, so the browse index's popularity order follows.

use std::collections::{BTreeMap, BTreeSet};

use async_trait::async_trait;
use domain::{RecordedEvent, social::SocialEvent};

use crate::{
    ProjectionError, ReadModel,
    read_model::Prefetched,
    sql::{self, Conn, Value},
};

/// The likes and bookmarks tables.
#[derive(Default)]
pub struct Socials {
    /// What [`ReadModel::prefetch`] decoded (`None` for a mint: only its stream id counts).
    decoded: Prefetched<Option<SocialEvent>>,
}

fn decode(event: &RecordedEvent) -> Result<Option<SocialEvent>, ProjectionError> {
    if event.event_type == "NftMinted" {
        return Ok(None);
    }
    event.payload().map(Some).map_err(|e| ProjectionError::malformed(event, e.to_string()))
}

/// A LIKED or UNLIKED history row.
struct History {
    position: i64,
    nft_id: String,
    user_id: String,
    kind: &'static str,
    at: i64,
}

/// `(user, nft)`: the time of the like (or bookmark) that stands at the end of the batch, or
/// `None` when it was taken back.
type Standing = BTreeMap<(String, String), Option<i64>>;

#[async_trait]
impl ReadModel for Socials {
    fn handles(&self, event_type: &str) -> bool {
        event_type == "NftMinted" || SocialEvent::TYPES.contains(&event_type)
    }

    fn prefetch(&self, events: &[&RecordedEvent]) {
        self.decoded.put(events, decode);
    }

    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        let mut likes = Standing::new();
        let mut bookmarks = Standing::new();
        let mut history = Vec::new();
        // Tokens whose like count may have changed (liked, unliked, or minted again).
        let mut recount = BTreeSet::new();
        // Tokens whose likes changed, with the batch's last such position: the browse index.
        let mut touched: BTreeMap<String, i64> = BTreeMap::new();
        for (event, parsed) in self.decoded.take(events, decode)? {
            let position = event.position as i64;
            let Some(parsed) = parsed else {
                // A mint: `nft-{chain}-{token}` is about token `{chain}-{token}`.
                if let Some(nft_id) = event.stream_id.strip_prefix("nft-") {
                    recount.insert(nft_id.to_owned());
                }
                continue;
            };
            let user = parsed.user_id().to_string();
            match parsed {
                SocialEvent::NftLiked { nft_id, at, .. } | SocialEvent::NftUnliked { nft_id, at, .. } => {
                    let liked = event.event_type == "NftLiked";
                    likes.insert((user.clone(), nft_id.clone()), liked.then_some(at.timestamp()));
                    let kind = if liked { "LIKED" } else { "UNLIKED" };
                    history.push(History { position, nft_id: nft_id.clone(), user_id: user, kind, at: at.timestamp() });
                    recount.insert(nft_id.clone());
                    touched.insert(nft_id, position);
                }
                SocialEvent::NftBookmarked { nft_id, at, .. } => {
                    bookmarks.insert((user, nft_id), Some(at.timestamp()));
                }
                SocialEvent::NftUnbookmarked { nft_id, .. } => {
                    bookmarks.insert((user, nft_id), None);
                }
            }
        }

        write_standing(conn, "likes", &likes).await?;
        write_standing(conn, "bookmarks", &bookmarks).await?;
        let rows: Vec<Vec<Value<'_>>> =
            history.iter().map(|h| vec![h.position.into(), (&h.nft_id).into(), (&h.user_id).into(), h.kind.into(), h.at.into()]).collect();
        sql::insert(conn, "like_history", &["position", "nft_id", "user_id", "type_of_event", "at"], "", &rows).await?;
        // Counted by the database, from what the statements above left: never read back here.
        // Only rows whose count differs are written (a token just minted has none to count,
        // mostly: rewriting its whole row for nothing was most of this statement's cost).
        let recount: Vec<Value<'_>> = recount.iter().map(Value::from).collect();
        sql::execute_in(
            conn,
            "UPDATE nfts SET total_likes = (SELECT COUNT(*) FROM likes l WHERE l.nft_id = nfts.nft_id) WHERE nft_id IN () \
             AND total_likes <> (SELECT COUNT(*) FROM likes l WHERE l.nft_id = nfts.nft_id)",
            &recount,
        )
        .await?;
        crate::nft::mark_changed(conn, touched.iter().map(|(id, position)| (id.as_str(), *position))).await
    }
}

/// Writes each (user, NFT)'s standing like or bookmark into `table`: inserted, or deleted when
/// taken back.
async fn write_standing(conn: &mut Conn<'_>, table: &str, standing: &Standing) -> Result<(), ProjectionError> {
    let mut rows: Vec<Vec<Value<'_>>> = Vec::new();
    for ((user, nft), at) in standing {
        match at {
            Some(at) => rows.push(vec![user.into(), nft.into(), (*at).into()]),
            // Taken back: few per batch (a user acting), so one statement each.
            None => {
                sql::execute(conn, &format!("DELETE FROM {table} WHERE user_id = $1 AND nft_id = $2"), &[user.into(), nft.into()]).await?
            }
        }
    }
    let tail = "ON CONFLICT (user_id, nft_id) DO UPDATE SET at = excluded.at";
    sql::insert(conn, table, &["user_id", "nft_id", "at"], tail, &rows).await
}
