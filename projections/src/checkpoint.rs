//! The projector's checkpoint row: the log position the read tables include. Below the projector
//! and the read database, which both read it.

use domain::Position;
use sqlx::AnyPool;

/// The checkpoint row's name (in `projector_checkpoint`).
pub const NAME: &str = "read_models";

/// The position the read tables behind `pool` include.
pub(crate) async fn checkpoint_in(pool: &AnyPool) -> Result<Position, sqlx::Error> {
    let position: Option<i64> =
        sqlx::query_scalar("SELECT position FROM projector_checkpoint WHERE name = $1").bind(NAME).fetch_optional(pool).await?;
    Ok(position.unwrap_or(0) as Position)
}
