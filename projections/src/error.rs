/// Everything projecting can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ProjectionError {
    /// The read database failed.
    #[error("read database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The projector's SQLite connection failed.
    #[error("read database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// Its migrations failed.
    #[error("read database migration error: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// The event log failed.
    #[error(transparent)]
    Store(#[from] domain::StoreError),
    /// An event's payload did not have the shape its type promises.
    #[error("event at position {position} ({event_type}) is malformed: {reason}")]
    Malformed {
        /// Its position.
        position: u64,
        /// Its type.
        event_type: String,
        /// What was wrong.
        reason: String,
    },
    /// A read-model generation name or pointer is unusable.
    #[error("read model generation {0}")]
    Generation(String),
    /// A read model read the tables while they could not be read (a fresh generation filling:
    /// see [`crate::ReadModel::remember`]).
    #[error("the read tables cannot be read while a fresh generation fills: {0}")]
    Unreadable(String),
    /// A read table holds a value that does not parse as what its column means.
    #[error("the read tables hold an unusable value: {0}")]
    BadValue(String),
    /// Waiting for the projector to reach a position took too long.
    #[error("the read models did not reach position {0} in time")]
    Timeout(u64),
    /// Another projector moved the checkpoint (two processes projecting the same database: the
    /// one that lost its election stops).
    #[error("the read tables' checkpoint is at {found}, not {expected}: another projector is writing them")]
    Superseded {
        /// Where this projector's batch started.
        expected: u64,
        /// Where the checkpoint was.
        found: u64,
    },
    /// The read replicas are configured wrong.
    #[error("read replicas: {0}")]
    Replicas(String),
    /// The runtime shut down while a batch was being written.
    #[error("the runtime shut down while the read tables were being written")]
    Stopped,
}

impl ProjectionError {
    /// `event`'s payload does not have the shape its type promises, for `reason`.
    pub(crate) fn malformed(event: &domain::RecordedEvent, reason: impl Into<String>) -> Self {
        Self::Malformed { position: event.position, event_type: event.event_type.clone(), reason: reason.into() }
    }
}
