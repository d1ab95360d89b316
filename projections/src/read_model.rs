//! The seam between the projector and each read model.

use async_trait::async_trait;
use domain::RecordedEvent;
use sqlx::AnyConnection;

use crate::ProjectionError;

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
    async fn apply(&self, conn: &mut AnyConnection, events: &[&RecordedEvent]) -> Result<(), ProjectionError>;

    /// Deletes what was derived from `stream_id`, before a reorg refolds it without the
    /// retracted events. Models of off-chain streams never see retractions and keep the default.
    async fn forget_stream(&self, _conn: &mut AnyConnection, _stream_id: &str) -> Result<(), ProjectionError> {
        Ok(())
    }
}
