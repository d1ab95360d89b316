//! Moderation: `staff_roles`, `reports`, `moderated`, `moderation_decisions` and
//! `muted_reporters` (see `migrations/*/0015_moderation.sql` and `0018_moderation_notices.sql`),
//! folded from the `moderation-*` streams. A muted reporter's report is filed `MUTED`: recorded
//! and counted, never in the queue.
//!
//! Moderation events are few (people acting), so each is written with its own statements;
//! the model never reads the tables back into memory (what a decision needs of its reports, the
//! count and the oldest's time, the database computes in the statement), so it fills in the
//! pipeline like any write-only model. Hiding or restoring an NFT stamps `nft_changes`, so the
//! browse index (explore, search, profiles, collections) drops or takes it back at once.

use async_trait::async_trait;
use domain::{
    RecordedEvent,
    moderation::{ModerationEvent, TargetKind},
};

use crate::{
    ProjectionError, ReadModel,
    read_model::Prefetched,
    sql::{self, Conn, Value},
};

/// The moderation tables.
#[derive(Default)]
pub struct Moderation {
    /// What [`ReadModel::prefetch`] decoded.
    decoded: Prefetched<ModerationEvent>,
}

fn decode(event: &RecordedEvent) -> Result<ModerationEvent, ProjectionError> {
    event.payload().map_err(|e| ProjectionError::malformed(event, e.to_string()))
}

/// The ids of reports as text values.
fn ids(report_ids: &[impl ToString]) -> Vec<String> {
    report_ids.iter().map(ToString::to_string).collect()
}

#[async_trait]
impl ReadModel for Moderation {
    fn handles(&self, event_type: &str) -> bool {
        ModerationEvent::TYPES.contains(&event_type)
    }

    fn prefetch(&self, events: &[&RecordedEvent]) {
        self.decoded.put(events, decode);
    }

    async fn apply(&self, conn: &mut Conn<'_>, events: &[&RecordedEvent]) -> Result<(), ProjectionError> {
        let mut touched = Vec::new();
        for (event, parsed) in self.decoded.take(events, decode)? {
            let position = event.position as i64;
            if let Some(nft) = fold(conn, position, parsed).await? {
                touched.push((nft, position));
            }
        }
        crate::nft::mark_changed(conn, touched.iter().map(|(id, position)| (id.as_str(), *position))).await
    }
}

/// Writes one event; returns the NFT whose visibility changed, if any.
async fn fold(conn: &mut Conn<'_>, position: i64, event: ModerationEvent) -> Result<Option<String>, ProjectionError> {
    match event {
        ModerationEvent::ReportFiled { report_id, target_kind, target_id, reporter_id, reason, text, muted, at } => {
            let columns = ["report_id", "target_kind", "target_id", "reporter_id", "reason", "text", "filed_at", "state", "position"];
            let (report_id, reporter_id) = (report_id.to_string(), reporter_id.to_string());
            let row = vec![
                Value::from(&report_id),
                target_kind.as_str().into(),
                (&target_id).into(),
                (&reporter_id).into(),
                reason.as_str().into(),
                (&text).into(),
                at.timestamp().into(),
                if muted { "MUTED" } else { "OPEN" }.into(),
                position.into(),
            ];
            sql::insert(conn, "reports", &columns, "ON CONFLICT (report_id) DO NOTHING", &[row]).await?;
            Ok(None)
        }
        ModerationEvent::TargetHidden { target_kind, target_id, moderator_id, reason, report_ids, at } => {
            let decided = Decided {
                position,
                kind: target_kind,
                id: &target_id,
                moderator: moderator_id.to_string(),
                reason: &reason,
                at: at.timestamp(),
            };
            decided.close_reports(conn, &report_ids, "ACTIONED").await?;
            decided.record(conn, "HIDE").await?;
            let sql = "INSERT INTO moderated (target_kind, target_id, hidden, hidden_reason, hidden_at, appealed) VALUES ($1, $2, 1, $3, $4, 0) \
                       ON CONFLICT (target_kind, target_id) DO UPDATE SET hidden = 1, hidden_reason = excluded.hidden_reason, \
                       hidden_at = excluded.hidden_at, appealed = 0, appeal_text = NULL, appealed_at = NULL";
            sql::execute(conn, sql, &[target_kind.as_str().into(), (&target_id).into(), (&reason).into(), at.timestamp().into()]).await?;
            Ok((target_kind == TargetKind::Nft).then_some(target_id))
        }
        ModerationEvent::TargetRestored { target_kind, target_id, moderator_id, reason, at } => {
            let decided = Decided {
                position,
                kind: target_kind,
                id: &target_id,
                moderator: moderator_id.to_string(),
                reason: &reason,
                at: at.timestamp(),
            };
            // An appeal, or reports filed while it was hidden, are decided by the restore.
            decided.close_open_reports(conn, "ACTIONED").await?;
            decided.record(conn, "RESTORE").await?;
            let sql = "UPDATE moderated SET hidden = 0, hidden_reason = NULL, hidden_at = NULL, appealed = 0, appeal_text = NULL, \
                       appealed_at = NULL WHERE target_kind = $1 AND target_id = $2";
            sql::execute(conn, sql, &[target_kind.as_str().into(), (&target_id).into()]).await?;
            Ok((target_kind == TargetKind::Nft).then_some(target_id))
        }
        ModerationEvent::ReportsDismissed { target_kind, target_id, moderator_id, reason, report_ids, at } => {
            let decided = Decided {
                position,
                kind: target_kind,
                id: &target_id,
                moderator: moderator_id.to_string(),
                reason: &reason,
                at: at.timestamp(),
            };
            decided.close_reports(conn, &report_ids, "DISMISSED").await?;
            decided.record(conn, "DISMISS").await?;
            // An appeal turned down leaves the queue (the hiding holds; no second appeal).
            let sql = "UPDATE moderated SET appeal_text = NULL, appealed_at = NULL WHERE target_kind = $1 AND target_id = $2";
            sql::execute(conn, sql, &[target_kind.as_str().into(), (&target_id).into()]).await?;
            Ok(None)
        }
        ModerationEvent::HidingAppealed { target_kind, target_id, text, at, .. } => {
            let sql = "UPDATE moderated SET appealed = 1, appeal_text = $3, appealed_at = $4 WHERE target_kind = $1 AND target_id = $2";
            sql::execute(conn, sql, &[target_kind.as_str().into(), (&target_id).into(), (&text).into(), at.timestamp().into()]).await?;
            Ok(None)
        }
        ModerationEvent::TargetVerified { target_kind, target_id, admin_id, at } => {
            let decided =
                Decided { position, kind: target_kind, id: &target_id, moderator: admin_id.to_string(), reason: "", at: at.timestamp() };
            decided.record(conn, "VERIFY").await?;
            let sql = "INSERT INTO moderated (target_kind, target_id, verified, verified_at) VALUES ($1, $2, 1, $3) \
                       ON CONFLICT (target_kind, target_id) DO UPDATE SET verified = 1, verified_at = excluded.verified_at";
            sql::execute(conn, sql, &[target_kind.as_str().into(), (&target_id).into(), at.timestamp().into()]).await?;
            Ok(None)
        }
        ModerationEvent::VerificationRevoked { target_kind, target_id, admin_id, reason, at } => {
            let decided = Decided {
                position,
                kind: target_kind,
                id: &target_id,
                moderator: admin_id.to_string(),
                reason: &reason,
                at: at.timestamp(),
            };
            decided.record(conn, "UNVERIFY").await?;
            let sql = "UPDATE moderated SET verified = 0, verified_at = NULL WHERE target_kind = $1 AND target_id = $2";
            sql::execute(conn, sql, &[target_kind.as_str().into(), (&target_id).into()]).await?;
            Ok(None)
        }
        ModerationEvent::ReporterMuted { user_id, moderator_id, reason, at } => {
            let (user, moderator) = (user_id.to_string(), moderator_id.to_string());
            let decided =
                Decided { position, kind: TargetKind::User, id: &user, moderator: moderator.clone(), reason: &reason, at: at.timestamp() };
            decided.record(conn, "MUTE").await?;
            let sql = format!(
                "INSERT INTO muted_reporters (user_id, muted_by, reason, muted_at) VALUES ($1, $2, $3, $4) {}",
                sql::upsert(&["user_id"], &["user_id", "muted_by", "reason", "muted_at"])
            );
            sql::execute(conn, &sql, &[(&user).into(), (&moderator).into(), (&reason).into(), at.timestamp().into()]).await?;
            Ok(None)
        }
        ModerationEvent::ReporterUnmuted { user_id, moderator_id, reason, at } => {
            let user = user_id.to_string();
            let decided = Decided {
                position,
                kind: TargetKind::User,
                id: &user,
                moderator: moderator_id.to_string(),
                reason: &reason,
                at: at.timestamp(),
            };
            decided.record(conn, "UNMUTE").await?;
            sql::execute(conn, "DELETE FROM muted_reporters WHERE user_id = $1", &[(&user).into()]).await?;
            Ok(None)
        }
        ModerationEvent::RoleGranted { user_id, role, at, .. } => {
            let user = user_id.to_string();
            let sql = "INSERT INTO staff_roles (user_id, role, granted_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, role) DO NOTHING";
            sql::execute(conn, sql, &[(&user).into(), role.as_str().into(), at.timestamp().into()]).await?;
            Ok(None)
        }
        ModerationEvent::RoleRevoked { user_id, role, .. } => {
            let user = user_id.to_string();
            sql::execute(conn, "DELETE FROM staff_roles WHERE user_id = $1 AND role = $2", &[(&user).into(), role.as_str().into()]).await?;
            Ok(None)
        }
    }
}

/// A decision on a target, as the record keeps it.
struct Decided<'a> {
    position: i64,
    kind: TargetKind,
    id: &'a str,
    moderator: String,
    reason: &'a str,
    at: i64,
}

impl Decided<'_> {
    /// Adds the decision to the record, with how many reports it decided and the oldest's
    /// time (run after the reports are stamped with it).
    async fn record(&self, conn: &mut Conn<'_>, decision: &str) -> Result<(), ProjectionError> {
        let sql = "INSERT INTO moderation_decisions (position, target_kind, target_id, decision, moderator_id, reason, reports, first_report_at, at) \
                   SELECT $1, $2, $3, $4, $5, $6, COUNT(*), MIN(filed_at), $7 FROM reports \
                   WHERE decided_by = $1 \
                   ON CONFLICT (position) DO NOTHING";
        let values = [
            self.position.into(),
            self.kind.as_str().into(),
            self.id.into(),
            decision.into(),
            (&self.moderator).into(),
            self.reason.into(),
            self.at.into(),
        ];
        sql::execute(conn, sql, &values).await
    }

    /// Marks the named reports decided.
    async fn close_reports(&self, conn: &mut Conn<'_>, report_ids: &[impl ToString + Sync], state: &str) -> Result<(), ProjectionError> {
        let ids = ids(report_ids);
        let mut values: Vec<Value<'_>> = vec![state.into(), self.at.into(), self.position.into()];
        values.extend(ids.iter().map(Value::from));
        if ids.is_empty() {
            return Ok(());
        }
        // `$1`..`$3` are the state, time and decision; the ids follow as `$4`... (numbered by
        // hand: the `IN ()` helpers number from 1).
        let list: Vec<String> = (4..4 + ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "UPDATE reports SET state = $1, decided_at = $2, decided_by = $3 WHERE state = 'OPEN' AND report_id IN ({})",
            list.join(", ")
        );
        sql::execute(conn, &sql, &values).await
    }

    /// Marks every open report of the target decided.
    async fn close_open_reports(&self, conn: &mut Conn<'_>, state: &str) -> Result<(), ProjectionError> {
        let sql =
            "UPDATE reports SET state = $1, decided_at = $2, decided_by = $3 WHERE state = 'OPEN' AND target_kind = $4 AND target_id = $5";
        sql::execute(conn, sql, &[state.into(), self.at.into(), self.position.into(), self.kind.as_str().into(), self.id.into()]).await
    }
}
