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

    /// Folds one event.
    async fn apply(&self, conn: &mut AnyConnection, event: &RecordedEvent) -> Result<(), ProjectionError>;

    /// Deletes what was derived from `stream_id`, before a reorg refolds it without the
    /// retracted events. Models of off-chain streams never see retractions and keep the default.
    async fn forget_stream(&self, _conn: &mut AnyConnection, _stream_id: &str) -> Result<(), ProjectionError> {
        Ok(())
    }
}
