//! The market's changes as they reach the read tables, for `GET /api/stream`.
//!
//! One [`StreamHub`] per process follows the projector's position (on a process that does not
//! project, the position it follows through the database: every process serves streams). Each
//! time it moves from `a` to `b`, the hub reads once what changed in `(a, b]` (the NFTs stamped
//! in `nft_changes`, the collections they are in, the notices) and broadcasts it as one
//! [`Update`] to every connected client, which keeps what its topics and its user ask for.
//!
//! Positions make the stream gap-free: an update says the position it brings a client to, a
//! client that reconnects names the last one it got, and [`StreamHub::catch_up`] reads what it
//! missed from the tables. `nft_changes` keeps each NFT's latest change only, so the catch-up
//! reads it together with the projector's checkpoint `P`, in one statement (one snapshot): every
//! NFT stamped after the client's position there changed in `(from, P]`, and every NFT that
//! changed in `(from, P]` is stamped after it. The client's live updates then start after `P`:
//! a later change of one of those NFTs comes again, with its later position. A client that
//! falls behind the broadcast's buffer is dropped (its memory is the buffer's, shared, never its
//! own backlog) and catches up the same way when it reconnects.
//!
//! The hub reads the primary (`ReadDb::pool`, and its queries outside a request, or scoped to
//! it): a read replica's snapshot may be behind the position the hub published, and the
//! catch-up's checkpoint must be at least that position, or changes would fall between. The
//! changed NFTs' cards, read once per update, name the update's position (`routes::stream`).

use std::{collections::BTreeMap, sync::Arc, time::Duration};

use projections::{
    ProjectorHandle, ReadDb,
    queries::notices::{self, NoticeView},
};
use serde::Serialize;
use sqlx::Row;
use tokio::sync::{broadcast, watch};

/// Updates the broadcast keeps for clients still writing earlier ones: past it a client is
/// dropped and reconnects from its position.
const BUFFER: usize = 256;

/// How long the hub waits before reading again after the read tables failed it.
const RETRY: Duration = Duration::from_millis(200);

/// What changed between two positions of the log, as the read tables show it.
#[derive(Debug, Default)]
pub struct Update {
    /// The position before it.
    pub after: u64,
    /// The position it brings a client to.
    pub up_to: u64,
    /// The NFTs that changed, each with the position it was stamped with and its collections.
    pub nfts: Vec<NftChange>,
    /// New notices, each with the user it reaches.
    pub notices: Vec<(String, NoticeView)>,
    /// The changed NFTs' cards (JSON, by NFT id), read once by the first client that wants
    /// them and shared by the others.
    pub cards: tokio::sync::OnceCell<Arc<std::collections::HashMap<String, Box<serde_json::value::RawValue>>>>,
    /// The `change` event of all its NFTs and none of its notices, without and with cards: the
    /// bytes every client whose view that is writes (most follow the market), rendered once by
    /// the first of them.
    pub whole: [std::sync::OnceLock<axum::body::Bytes>; 2],
}

/// One NFT that changed.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct NftChange {
    /// `{chain}-{token}`.
    pub nft_id: String,
    /// The position of its latest change.
    pub position: u64,
    /// The collections it is a member of.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub collections: Vec<String>,
}

/// The process's source of updates.
pub struct StreamHub {
    read: ReadDb,
    updates: broadcast::Sender<Arc<Update>>,
    /// The last position broadcast: every change up to it went out before any update a new
    /// subscriber receives.
    published: watch::Receiver<u64>,
}

impl StreamHub {
    /// Starts following `projector` from where it is now.
    pub fn start(read: ReadDb, projector: &ProjectorHandle) -> Arc<Self> {
        let (updates, _) = broadcast::channel(BUFFER);
        let start = projector.position();
        let (publish, published) = watch::channel(start);
        let hub = Arc::new(Self { read, updates, published });
        let mut projected = projector.subscribe();
        let weak = Arc::downgrade(&hub);
        tokio::spawn(async move {
            let mut last = start;
            while projected.changed().await.is_ok() {
                let Some(hub) = weak.upgrade() else { return };
                loop {
                    let now = *projected.borrow_and_update();
                    if now <= last {
                        break;
                    }
                    match hub.since(last, now).await {
                        Ok(update) => {
                            // Published before it is sent: a client subscribing meanwhile
                            // either gets it from the broadcast or reads it as its backlog.
                            publish.send_replace(now);
                            let _ = hub.updates.send(Arc::new(update));
                            last = now;
                        }
                        Err(err) => {
                            tracing::warn!(%err, "reading the stream's changes; trying again");
                            tokio::time::sleep(RETRY).await;
                        }
                    }
                }
            }
        });
        hub
    }

    /// A new subscriber: the updates after the returned position come through the receiver.
    pub fn subscribe(&self) -> (u64, broadcast::Receiver<Arc<Update>>) {
        let receiver = self.updates.subscribe();
        (*self.published.borrow(), receiver)
    }

    /// The last position broadcast.
    pub fn published(&self) -> u64 {
        *self.published.borrow()
    }

    /// How many clients are connected.
    pub fn clients(&self) -> usize {
        self.updates.receiver_count()
    }

    /// What changed in `(after, up_to]`, read from the tables: the hub's update once the
    /// projector passed `up_to`. An NFT that changed in the range and again after `up_to` before
    /// this read is left to the next update, which names it with its later position.
    pub async fn since(&self, after: u64, up_to: u64) -> Result<Update, sqlx::Error> {
        let pool = self.read.pool();
        let rows = sqlx::query("SELECT nft_id, position FROM nft_changes WHERE position > $1 AND position <= $2 ORDER BY position, nft_id")
            .bind(after as i64)
            .bind(up_to as i64)
            .fetch_all(&pool)
            .await?;
        let nfts = rows
            .iter()
            .map(|row| Ok(NftChange { nft_id: row.try_get(0)?, position: row.try_get::<i64, _>(1)? as u64, collections: Vec::new() }))
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        self.complete(after, up_to, nfts).await
    }

    /// Everything that changed after `after`, up to the position the read tables are at: the
    /// backlog of a client resuming from `after`, as one update whose `up_to` is that position
    /// (read in the same statement as the changes, so none changed after it is named, and none
    /// changed up to it is missed however often it changed since `after`).
    pub async fn catch_up(&self, after: u64) -> Result<Update, sqlx::Error> {
        let pool = self.read.pool();
        // The checkpoint's row comes first, named '' (no NFT is).
        let rows = sqlx::query(
            "SELECT '' AS nft_id, position, 0 AS part FROM projector_checkpoint WHERE name = $1 \
             UNION ALL SELECT nft_id, position, 1 AS part FROM nft_changes WHERE position > $2 \
             ORDER BY part, position, nft_id",
        )
        .bind(projections::CHECKPOINT)
        .bind(after as i64)
        .fetch_all(&pool)
        .await?;
        let mut up_to = 0;
        let mut nfts = Vec::with_capacity(rows.len());
        for row in &rows {
            let (nft_id, position): (String, i64) = (row.try_get(0)?, row.try_get(1)?);
            if nft_id.is_empty() {
                up_to = position as u64;
            } else {
                nfts.push(NftChange { nft_id, position: position as u64, collections: Vec::new() });
            }
        }
        // Stamps never pass the checkpoint committed with them; this keeps the promise if one did.
        nfts.retain(|change| change.position <= up_to);
        self.complete(after, up_to.max(after), nfts).await
    }

    /// The update of these NFT changes in `(after, up_to]`, with their collections and the
    /// notices of the range.
    async fn complete(&self, after: u64, up_to: u64, mut nfts: Vec<NftChange>) -> Result<Update, sqlx::Error> {
        let pool = self.read.pool();
        let (a, b) = (after as i64, up_to as i64);
        if !nfts.is_empty() {
            let mut members: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for chunk in nfts.chunks(1_000) {
                let list = (1..=chunk.len()).map(|i| format!("${i}")).collect::<Vec<_>>().join(", ");
                let sql = format!("SELECT nft_id, collection_id FROM collection_nfts WHERE nft_id IN ({list}) ORDER BY collection_id");
                let mut query = sqlx::query(&sql);
                for change in chunk {
                    query = query.bind(&change.nft_id);
                }
                for row in query.fetch_all(&pool).await? {
                    members.entry(row.try_get(0)?).or_default().push(row.try_get(1)?);
                }
            }
            for change in &mut nfts {
                change.collections = members.remove(&change.nft_id).unwrap_or_default();
            }
        }
        // The primary, like the changes above (a resuming client's catch-up runs in its request).
        let notices = projections::reads::on_primary(notices::between(&self.read, a, b)).await?;
        Ok(Update { after, up_to, nfts, notices, ..Update::default() })
    }
}
