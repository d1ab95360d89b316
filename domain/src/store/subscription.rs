//! Catch-up subscriptions: read the log from a position, then follow it live.

use std::{collections::VecDeque, sync::Arc, time::Duration};

use futures::{Stream, stream};

use super::{EventStore, Position, RecordedEvent, StoreError};

/// How many events one read fetches while catching up.
const PAGE: usize = 1_000;
/// Another process may append without waking us (a second SQLite writer): poll this often too.
const POLL: Duration = Duration::from_millis(500);

/// Every event after `after`, in order, then each new one as it is appended; never ends.
///
/// The switch from catching up to live cannot lose events: the subscription always reads the
/// log itself, and it marks the wake-up signal as seen *before* each read, so an append that
/// lands during a read either shows up in that read or wakes the next one.
pub fn subscribe(store: Arc<dyn EventStore>, after: Position) -> impl Stream<Item = Result<RecordedEvent, StoreError>> + Send {
    let state = (store.clone(), after, VecDeque::new(), store.appended());
    stream::unfold(state, |(store, mut after, mut buffer, mut woken)| async move {
        loop {
            if let Some(event) = buffer.pop_front() {
                let event: RecordedEvent = event;
                after = event.position;
                return Some((Ok(event), (store, after, buffer, woken)));
            }
            woken.borrow_and_update();
            match store.read_all(after, PAGE).await {
                Ok(page) if !page.is_empty() => buffer.extend(page),
                Ok(_) => {
                    tokio::select! {
                        _ = woken.changed() => {}
                        _ = tokio::time::sleep(POLL) => {}
                    }
                }
                Err(err) => return Some((Err(err), (store, after, buffer, woken))),
            }
        }
    })
}
