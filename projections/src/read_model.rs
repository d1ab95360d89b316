//! The seam between the projector and each read model.

use crate::{ProjectionError, sql::Conn};
use std::{collections::BTreeMap, sync::Mutex};

use async_trait::async_trait;
use domain::RecordedEvent;

/// What a read model may keep in memory while the projector fills ([`ReadModel::remember`]).
#[derive(Clone, Copy, Debug)]
pub struct Remember {
    /// Past this many rows, it outgrows its memory.
    pub rows: usize,
    /// The tables were empty when the fill began: what is not in memory does not exist.
    pub empty: bool,
}

/// The NFT id (`{chain}-{token}`) of an event of an `nft-{chain}-{token}` stream.
pub(crate) fn nft_of(event: &RecordedEvent) -> Result<&str, ProjectionError> {
    event
        .stream_id
        .strip_prefix("nft-")
        .filter(|rest| rest.split_once('-').is_some())
        .ok_or_else(|| ProjectionError::malformed(event, "not in an nft-{chain}-{token} stream"))
}

/// The chain id of an `nft-{chain}-{token}` stream.
pub(crate) fn chain_of(event: &RecordedEvent) -> Result<u64, ProjectionError> {
    event
        .stream_id
        .strip_prefix("nft-")
        .and_then(|rest| rest.split('-').next())
        .and_then(|chain| chain.parse().ok())
        .ok_or_else(|| ProjectionError::malformed(event, "not in an nft-{chain}-{token} stream"))
}

/// A set of read tables folded from some event types. The projector calls [`ReadModel::apply`]
/// inside its transaction, so an implementation only writes SQL on `conn`: no I/O elsewhere,
/// no clock, nothing that would make a replay differ from the live run.
#[async_trait]
pub trait ReadModel: Send + Sync {
    /// Whether this model folds events of this type.
    fn handles(&self, event_type: &str) -> bool;

    /// Folds a batch of events, in log order, all of types it handles. The result must be the
    /// same however the log is cut into batches (one event at a time, or thousands): a batch
    /// may start or end anywhere, inside one transaction's events too.
    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError>;

    /// Decodes ahead what [`ReadModel::apply`] will need from these events, of types it
    /// handles: the projector calls it on the next batch, on another thread, while the current
    /// one is written. A cache only: `apply` must come to the same result without it.
    fn prefetch(&self, _events: &[&RecordedEvent]) {}

    /// While the projector fills (catching up a log), it records each batch's statements and
    /// runs them on another thread while it folds the next batch: the tables `apply` would read
    /// back may be being written. A model that reads back what it wrote keeps it in memory
    /// instead, from `remember(Some(..))` until `remember(None)`: on empty tables, what is not in
    /// memory does not exist; otherwise a token met the first time is read from the tables
    /// through another connection (unchanged since the fill began: only what is in memory was
    /// written since) and kept. Once it holds more than [`Remember::rows`] rows,
    /// [`ReadModel::outgrew_memory`] is true: the projector stops filling after the batch and
    /// lets the memory go, and `apply` reads the tables again. A model that never reads keeps
    /// the defaults.
    fn remember(&self, _memory: Option<Remember>) {}

    /// Whether `apply` needs to read the tables: it remembers nothing, or more than it may (it
    /// still folds from memory until `remember(None)`, so that a batch folded in runs, up to
    /// each retraction, never reads the tables while they are being written).
    fn outgrew_memory(&self) -> bool {
        false
    }

    /// Deletes what was derived from `stream_id`, before a reorg refolds it without the
    /// retracted events; `at` is the retraction's position (the refold replays older ones).
    /// Models of off-chain streams never see retractions and keep the default.
    async fn forget_stream(&self, _conn: &mut Conn<'_>, _stream_id: &str, _at: i64) -> Result<(), ProjectionError> {
        Ok(())
    }
}

/// What a read model's [`ReadModel::prefetch`] decoded, by position, until its `apply` takes
/// it: events decode the same wherever and whenever they are decoded, so this only moves the
/// work onto the read-ahead's thread.
pub(crate) struct Prefetched<T>(Mutex<BTreeMap<u64, T>>);

impl<T> Default for Prefetched<T> {
    fn default() -> Self {
        Self(Mutex::new(BTreeMap::new()))
    }
}

impl<T: Send> Prefetched<T> {
    /// Decodes `events` ahead. Errors are left for [`Prefetched::take`] to meet in log order.
    pub(crate) fn put(&self, events: &[&RecordedEvent], decode: impl Fn(&RecordedEvent) -> Result<T, ProjectionError> + Sync) {
        let Ok(decoded) = decode_all(events, |event| Ok(decode(event).ok())) else {
            return;
        };
        let mut cache = self.0.lock().expect("not poisoned");
        for (event, decoded) in events.iter().zip(decoded) {
            if let Some(decoded) = decoded {
                cache.insert(event.position, decoded);
            }
        }
    }

    /// `events` decoded, in order: what was decoded ahead, the rest now. Forgets what was
    /// decoded of older positions (a read-ahead that was not used).
    pub(crate) fn take<'e>(
        &self,
        events: &[&'e RecordedEvent],
        decode: impl Fn(&RecordedEvent) -> Result<T, ProjectionError> + Sync,
    ) -> Result<Vec<(&'e RecordedEvent, T)>, ProjectionError> {
        let (Some(first), Some(last)) = (events.first(), events.last()) else {
            return Ok(Vec::new());
        };
        let mut ahead = {
            let mut cache = self.0.lock().expect("not poisoned");
            let mut ahead = cache.split_off(&first.position);
            *cache = ahead.split_off(&(last.position + 1));
            ahead
        };
        if ahead.is_empty() {
            return decode_all(events, |event| Ok((event, decode(event)?)));
        }
        events
            .iter()
            .map(|&event| match ahead.remove(&event.position) {
                Some(decoded) => Ok((event, decoded)),
                None => Ok((event, decode(event)?)),
            })
            .collect()
    }
}

/// Decodes each event (its payload, mostly) in log order, on a few threads when the batch is
/// large: parsing JSON is the biggest part of folding a batch that needs no database. Returns
/// the first error in log order.
pub(crate) fn decode_all<'e, T: Send>(
    events: &[&'e RecordedEvent],
    decode: impl Fn(&'e RecordedEvent) -> Result<T, ProjectionError> + Sync,
) -> Result<Vec<T>, ProjectionError> {
    /// Below this, starting threads is not worth it.
    const SMALL: usize = 2_000;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(4);
    if events.len() < SMALL || threads == 1 {
        return events.iter().map(|event| decode(event)).collect();
    }
    let decode = &decode;
    let decode_part = move |part: &[&'e RecordedEvent]| part.iter().map(|event| decode(event)).collect::<Result<Vec<T>, _>>();
    let mut parts = events.chunks(events.len().div_ceil(threads));
    let first = parts.next().unwrap_or_default();
    std::thread::scope(|scope| {
        let others: Vec<_> = parts.map(|part| scope.spawn(move || decode_part(part))).collect();
        let mut all = decode_part(first);
        for other in others {
            let part = other.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            if let Ok(all) = &mut all {
                all.extend(part?);
            }
        }
        all
    })
}
