//! Moderation: reports from anyone signed in, the moderators' queue and decisions, the owners'
//! appeals, the admins' staff and badges, and the public record (`/api/transparency`).
//!
//! Roles are checked on the server for every decision (the rules in
//! [`domain::moderation::decide`] refuse an actor without the role); the queue, which names
//! reporters, is for moderators only. API keys cannot moderate (a person decides).

use axum::{
    extract::{Path, State},
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};
use chrono::Utc;
use domain::{
    Metadata,
    moderation::{self, Action, Command, Facts, ModerationCommandError, ModerationError, ReportReason, Role, RoleChange, TargetKind},
};
use projections::queries::{
    csv::cell,
    moderation::{self as queries, QueueItem, StaffMember, Standing, Transparency},
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};
use uuid::Uuid;

use super::{
    lists::{PAGE, limit},
    openapi::{BadRequest, Conflict, Forbidden, NotFound, SignedIn, TooManyRequests},
    params::{Params, query_params},
};
use crate::http::{
    AppState,
    auth::{AuthUser, ClientIp, Payload, load_signed_in},
    error::{ApiError, Envelope, db_error, ok},
};

/// The routes of this module.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(report))
        .routes(routes!(my_roles))
        .routes(routes!(queue))
        .routes(routes!(standing))
        .routes(routes!(decide))
        .routes(routes!(staff, grant))
        .routes(routes!(revoke))
        .routes(routes!(transparency))
        .routes(routes!(transparency_csv))
}

/// What can be reported.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code, reason = "a schema only: the values domain::moderation::TargetKind writes")]
enum ModerationTarget {
    /// An NFT (`{chain}-{token}`).
    Nft,
    /// A collection (its id).
    Collection,
    /// A user (their id).
    User,
}

/// Why something is reported.
#[derive(ToSchema)]
#[schema(rename_all = "SCREAMING_SNAKE_CASE")]
#[allow(dead_code, reason = "a schema only: the values domain::moderation::ReportReason writes")]
enum ReportReasonName {
    /// A fake collection or a possible scam.
    Scam,
    /// Explicit or sensitive content.
    Explicit,
    /// Spam.
    Spam,
    /// Might be stolen (NFTs only).
    Stolen,
    /// Anything else: the text is required.
    Other,
}

/// A staff role.
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code, reason = "a schema only: the values domain::moderation::Role writes")]
enum StaffRole {
    /// Grants and revokes roles, verifies, moderates.
    Admin,
    /// Decides on reports.
    Moderator,
}

/// What a report has become.
#[derive(ToSchema)]
#[schema(rename_all = "SCREAMING_SNAKE_CASE")]
#[allow(dead_code, reason = "a schema only: the values the read model writes")]
enum ReportState {
    /// Awaiting a decision.
    Open,
    /// Decided by hiding or restoring its target.
    Actioned,
    /// Dismissed.
    Dismissed,
    /// Filed by a muted reporter: recorded, never queued.
    Muted,
}

/// A decision's kind.
#[derive(ToSchema)]
#[schema(rename_all = "SCREAMING_SNAKE_CASE")]
#[allow(dead_code, reason = "a schema only: the values the read model writes")]
enum DecisionKind {
    /// Hidden.
    Hide,
    /// Restored.
    Restore,
    /// Reports dismissed.
    Dismiss,
    /// Verified.
    Verify,
    /// Verification revoked.
    Unverify,
    /// A stolen-item hold of the NFT's sale (signed on chain by a moderator's wallet).
    Hold,
    /// The hold released before its end.
    Release,
    /// A reporter muted (not in the public list).
    Mute,
    /// A reporter unmuted (not in the public list).
    Unmute,
}

/// What a decision can be asked (the path's `action`).
#[derive(ToSchema)]
#[schema(rename_all = "lowercase")]
#[allow(dead_code, reason = "a schema only: the handler matches the names")]
enum DecisionAction {
    /// Hide (moderators).
    Hide,
    /// Restore (moderators).
    Restore,
    /// Dismiss the open reports (moderators).
    Dismiss,
    /// Verify a user or collection (admins).
    Verify,
    /// Take the badge back (admins).
    Unverify,
    /// Appeal a hiding (its owner).
    Appeal,
    /// Keep a user's reports out of the queue (moderators; users with at least two dismissed
    /// reports).
    Mute,
    /// Let a muted user's reports reach the queue again (moderators).
    Unmute,
}

/// A target's standing.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only: the handler answers projections' Standing")]
struct StandingSchema {
    /// Hidden by a moderator.
    hidden: bool,
    /// Why (public: the record lists it too).
    hidden_reason: Option<String>,
    /// Since when (ISO 8601).
    hidden_at: Option<String>,
    /// Whether the hiding in force was appealed (once per hiding).
    appealed: bool,
    /// Whether the appeal awaits a decision.
    appeal_pending: bool,
    /// Carries a verified badge.
    verified: bool,
}

/// A report, as moderators see it.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only: the handler answers projections' ReportView")]
struct ReportSchema {
    /// Report id.
    report_id: String,
    /// Why.
    reason: ReportReasonName,
    /// What the reporter wrote.
    text: String,
    /// Who reported.
    reporter_id: String,
    /// Their username.
    reporter_username: String,
    /// When (ISO 8601).
    filed_at: String,
    /// What it has become.
    state: ReportState,
    /// How many of the reporter's reports were dismissed.
    reporter_dismissed: i64,
    /// Whether the reporter is muted.
    reporter_muted: bool,
}

/// A decision on the record.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only: the handler answers projections' DecisionView")]
struct DecisionSchema {
    /// Its log position.
    position: i64,
    /// What it was about.
    target_kind: ModerationTarget,
    /// Its id.
    target_id: String,
    /// Its title (an NFT's or collection's) or username; absent when unknown or while the
    /// target is hidden (a hidden item's title may be the abuse itself).
    target_title: Option<String>,
    /// Whether the target is hidden now.
    target_hidden: bool,
    /// Which decision.
    decision: DecisionKind,
    /// The moderator's (or admin's) username.
    moderator: String,
    /// Why.
    reason: String,
    /// How many reports it decided.
    reports: i64,
    /// When (ISO 8601).
    at: String,
}

/// A target awaiting a decision.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only: the handler answers projections' QueueItem")]
struct QueueItemSchema {
    /// What.
    target_kind: ModerationTarget,
    /// Its id.
    target_id: String,
    /// Its title or username, when known.
    title: Option<String>,
    /// Its image (`/ipfs/<cid>`), when known.
    image: Option<String>,
    /// Its standing.
    standing: StandingSchema,
    /// The owner's appeal awaiting a decision.
    appeal: Option<String>,
    /// Since when it waits (ISO 8601).
    waiting_since: String,
    /// Open reports, oldest first.
    open_reports: Vec<ReportSchema>,
    /// Decided reports, newest first (at most 20).
    past_reports: Vec<ReportSchema>,
    /// Decisions on it, newest first (at most 20).
    decisions: Vec<DecisionSchema>,
}

/// A member of the staff.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only: the handler answers projections' StaffMember")]
struct StaffSchema {
    /// User id.
    user_id: String,
    /// Username.
    username: String,
    /// Roles.
    roles: Vec<StaffRole>,
    /// Since when (ISO 8601).
    since: String,
}

/// One month of the record.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only: the handler answers projections' MonthView")]
struct MonthSchema {
    /// `YYYY-MM`.
    month: String,
    /// Reports received, by reason (SCAM, EXPLICIT, SPAM, STOLEN, OTHER).
    reports: std::collections::BTreeMap<String, i64>,
    /// Decisions, by kind (HIDE, RESTORE, DISMISS, VERIFY, UNVERIFY, MUTE, UNMUTE).
    decisions: std::collections::BTreeMap<String, i64>,
    /// Median hours from a report to its decision, over the reports decided that month.
    median_hours_to_decision: Option<f64>,
}

/// The public record.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
#[allow(dead_code, reason = "a schema only: the handler answers projections' Transparency")]
struct TransparencySchema {
    /// Months, newest first.
    months: Vec<MonthSchema>,
    /// Public decisions on this page, newest first.
    decisions: Vec<DecisionSchema>,
    /// Public decisions in all.
    total_decisions: i64,
}

/// A report.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ReportRequest {
    /// What is reported.
    #[schema(value_type = ModerationTarget)]
    target_kind: String,
    /// Its id.
    #[schema(max_length = 100)]
    target_id: String,
    /// Why.
    #[schema(value_type = ReportReasonName)]
    reason: String,
    /// What the reporter adds (required for OTHER).
    #[serde(default)]
    #[schema(max_length = 1000)]
    text: String,
}

/// A report filed.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct ReportFiled {
    /// Its id.
    report_id: String,
}

impl From<ModerationCommandError> for ApiError {
    fn from(err: ModerationCommandError) -> Self {
        match err {
            ModerationCommandError::Rejected(err) => match err {
                ModerationError::UnknownTarget(..) => ApiError::NotFound(err.to_string()),
                ModerationError::Forbidden(_) | ModerationError::OwnTarget(..) => ApiError::Forbidden(err.to_string()),
                ModerationError::Conflict(_) => ApiError::Conflict(err.to_string()),
                ModerationError::Invalid(_) => ApiError::BadRequest(err.to_string()),
            },
            ModerationCommandError::Store(err) => err.into(),
        }
    }
}

fn kind(value: &str) -> Result<TargetKind, ApiError> {
    TargetKind::parse(value).ok_or_else(|| ApiError::BadRequest("targetKind: must be one of nft, collection, user".into()))
}

/// Runs a command on a target for a signed-in person, with the read side's facts about it, and
/// waits until the read models show it.
async fn run(state: &AppState, me: AuthUser, kind: TargetKind, id: &str, action: Action) -> Result<moderation::Executed, ApiError> {
    load_signed_in(state, me).await?;
    let owners = queries::facts(&state.read, kind.as_str(), id).await.map_err(db_error)?;
    let mut facts = Facts {
        exists: owners.is_some(),
        owners: owners.unwrap_or_default().iter().filter_map(|u| Uuid::parse_str(u).ok()).collect(),
        ..Facts::default()
    };
    match action {
        Action::Report { .. } => facts.reporter_muted = queries::reporter(&state.read, &me.0.to_string()).await.map_err(db_error)?.0,
        Action::Mute { .. } => {
            let dismissed = queries::reporter(&state.read, id).await.map_err(db_error)?.1;
            facts.dismissed_reports = u32::try_from(dismissed).unwrap_or(u32::MAX);
        }
        _ => {}
    }
    let command = Command { kind, id: id.to_owned(), actor: me.0, facts, action, now: Utc::now() };
    let metadata = Metadata { actor: Some(me.0.to_string()), correlation_id: Some(Uuid::now_v7()), ..Metadata::default() };
    let executed = moderation::execute(state.store.as_ref(), command, &metadata).await?;
    state.projected(executed.position).await;
    Ok(executed)
}

/// Reports an NFT, a collection or a user to the moderators: one open report per reporter and
/// target; 20 reports an hour per person. The reporter is known to moderators only. A muted
/// reporter's report is answered the same and recorded, but does not enter the queue.
#[utoipa::path(
    post,
    path = "/api/report",
    tag = "moderation",
    request_body = ReportRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Filed", body = Envelope<ReportFiled>),
        (status = 400, response = BadRequest), SignedIn, (status = 403, response = Forbidden), (status = 404, response = NotFound),
        (status = 409, response = Conflict), (status = 429, response = TooManyRequests),
    ),
)]
async fn report(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    me: AuthUser,
    Payload(req): Payload<ReportRequest>,
) -> Result<Response, ApiError> {
    let kind = kind(&req.target_kind)?;
    let reason = ReportReason::parse(&req.reason)
        .ok_or_else(|| ApiError::BadRequest("reason: must be one of SCAM, EXPLICIT, SPAM, STOLEN, OTHER".into()))?;
    state.accounts.limits.check("report", ip, Some(&me.0.to_string())).await?;
    let report_id = Uuid::now_v7();
    run(&state, me, kind, &req.target_id, Action::Report { report_id, reason, text: req.text }).await?;
    Ok(ok(ReportFiled { report_id: report_id.to_string() }, "Report filed"))
}

/// The caller's staff roles.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct MyRoles {
    /// The roles held (none for most people).
    #[schema(value_type = Vec<StaffRole>)]
    roles: Vec<String>,
}

/// The signed-in person's staff roles (the UI shows the moderation pages to those who hold one).
#[utoipa::path(get, path = "/api/moderation/roles", tag = "moderation", security(("bearer" = [])),
    responses((status = 200, description = "The roles", body = Envelope<MyRoles>), SignedIn))]
async fn my_roles(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    let roles = queries::roles_of(&state.read, &me.0.to_string()).await.map_err(db_error)?;
    Ok(ok(MyRoles { roles }, "Roles fetched"))
}

/// 403 unless the caller holds one of `roles`.
async fn require(state: &AppState, me: AuthUser, roles: &[Role]) -> Result<(), ApiError> {
    load_signed_in(state, me).await?;
    let held = queries::roles_of(&state.read, &me.0.to_string()).await.map_err(db_error)?;
    if roles.iter().any(|role| held.iter().any(|h| h == role.as_str())) {
        Ok(())
    } else {
        Err(ApiError::Forbidden(format!("This needs the {} role", roles[0].as_str())))
    }
}

query_params!(
    /// The queue's query.
    QueueQuery: limit(50)
);

/// The moderators' queue.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Queue {
    /// Targets awaiting a decision, longest waiting first.
    #[schema(value_type = Vec<QueueItemSchema>)]
    items: Vec<QueueItem>,
    /// How many await in all.
    total: i64,
}

/// The targets awaiting a decision (open reports, or an owner's appeal), longest waiting first,
/// each with its reports (and reporters), its standing and the decisions taken on it before.
/// Moderators and admins only.
#[utoipa::path(get, path = "/api/moderation/queue", tag = "moderation", params(QueueQuery), security(("bearer" = [])),
    responses((status = 200, description = "The queue", body = Envelope<Queue>), (status = 400, response = BadRequest), SignedIn, (status = 403, response = Forbidden)))]
async fn queue(State(state): State<AppState>, me: AuthUser, params: Params) -> Result<Response, ApiError> {
    let limit = params.number(&limit(50))?;
    require(&state, me, &[Role::Moderator, Role::Admin]).await?;
    let (items, total) = queries::queue(&state.read, limit).await.map_err(db_error)?;
    Ok(ok(Queue { items, total }, "Queue fetched"))
}

/// A target's path.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Path, rename_all = "camelCase")]
#[allow(dead_code, reason = "read through Path<(String, String)>")]
struct TargetPath {
    /// What.
    #[param(value_type = ModerationTarget)]
    target_kind: String,
    /// The target's id.
    target_id: String,
}

/// Whether a target is hidden (and why: the public record says so too), appealed, or verified.
#[utoipa::path(get, path = "/api/moderation/{targetKind}/{targetId}", tag = "moderation", params(TargetPath), security(()),
    responses((status = 200, description = "Its standing", body = Envelope<StandingSchema>), (status = 400, response = BadRequest)))]
async fn standing(State(state): State<AppState>, Path((kind_name, id)): Path<(String, String)>) -> Result<Response, ApiError> {
    let kind = kind(&kind_name)?;
    let standing: Standing = queries::standing(&state.read, kind.as_str(), &id).await.map_err(db_error)?;
    Ok(ok(standing, "Standing fetched"))
}

/// A decision's (or an appeal's) words.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DecisionRequest {
    /// The reason the target's owner (or the reporters) read; for an appeal, what the owner
    /// writes. Required except to verify.
    #[serde(default)]
    #[schema(max_length = 1000)]
    text: String,
}

/// A decision's path.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Path, rename_all = "camelCase")]
#[allow(dead_code, reason = "read through Path<(String, String, String)>")]
struct DecisionPath {
    /// What.
    #[param(value_type = ModerationTarget)]
    target_kind: String,
    /// The target's id.
    target_id: String,
    /// hide, restore, dismiss, and mute or unmute a user as a reporter (moderators); verify,
    /// unverify (admins); appeal (the owner of a hidden target, once per hiding).
    #[param(value_type = DecisionAction, inline)]
    action: String,
}

/// The decided target's standing after a decision.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
struct Decided {
    /// The log position of the decision (also the answer's `Log-Position`: send it back to read past it).
    position: u64,
}

/// Decides on a target: a moderator hides, restores or dismisses its reports, or mutes (or
/// unmutes) a user whose reports were repeatedly dismissed; an admin verifies a user or a
/// collection or takes the badge back; the owner of a hidden target appeals (back to the queue).
/// Each is an event naming who acted; none on one's own target.
#[utoipa::path(post, path = "/api/moderation/{targetKind}/{targetId}/{action}", tag = "moderation", params(DecisionPath), request_body = DecisionRequest,
    security(("bearer" = [])),
    responses((status = 200, description = "Decided", body = Envelope<Decided>), (status = 400, response = BadRequest), SignedIn,
        (status = 403, response = Forbidden), (status = 404, response = NotFound), (status = 409, response = Conflict)))]
async fn decide(
    State(state): State<AppState>,
    me: AuthUser,
    Path((kind_name, id, action)): Path<(String, String, String)>,
    Payload(req): Payload<DecisionRequest>,
) -> Result<Response, ApiError> {
    let kind = kind(&kind_name)?;
    let text = req.text;
    let (action, message) = match action.as_str() {
        "hide" => (Action::Hide { reason: text }, "Hidden"),
        "restore" => (Action::Restore { reason: text }, "Restored"),
        "dismiss" => (Action::Dismiss { reason: text }, "Reports dismissed"),
        "verify" => (Action::Verify, "Verified"),
        "unverify" => (Action::Unverify { reason: text }, "Verification revoked"),
        "appeal" => (Action::Appeal { text }, "Appeal sent"),
        "mute" => (Action::Mute { reason: text }, "Reporter muted"),
        "unmute" => (Action::Unmute { reason: text }, "Reporter unmuted"),
        other => {
            return Err(ApiError::BadRequest(format!(
                "action: {other} is not one of hide, restore, dismiss, verify, unverify, appeal, mute, unmute"
            )));
        }
    };
    let executed = run(&state, me, kind, &id, action).await?;
    Ok(ok(Decided { position: executed.position }, message))
}

/// The staff.
#[utoipa::path(get, path = "/api/staff", tag = "moderation", security(("bearer" = [])),
    responses((status = 200, description = "Everyone with a role", body = Envelope<Vec<StaffSchema>>), SignedIn, (status = 403, response = Forbidden)))]
async fn staff(State(state): State<AppState>, me: AuthUser) -> Result<Response, ApiError> {
    require(&state, me, &[Role::Admin]).await?;
    let staff: Vec<StaffMember> = queries::staff(&state.read).await.map_err(db_error)?;
    Ok(ok(staff, "Staff fetched"))
}

/// A role to grant.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct GrantRequest {
    /// The user's username.
    #[schema(max_length = 100)]
    username: String,
    /// Which role.
    #[schema(value_type = StaffRole)]
    role: String,
}

fn role(value: &str) -> Result<Role, ApiError> {
    Role::parse(value).ok_or_else(|| ApiError::BadRequest("role: must be admin or moderator".into()))
}

async fn change_role(state: &AppState, me: AuthUser, user_id: Uuid, role: Role, grant: bool) -> Result<Response, ApiError> {
    load_signed_in(state, me).await?;
    let change = RoleChange { actor: Some(me.0), user_id, role, grant, now: Utc::now() };
    let metadata = Metadata { actor: Some(me.0.to_string()), correlation_id: Some(Uuid::now_v7()), ..Metadata::default() };
    let executed = moderation::change_role(state.store.as_ref(), change, &metadata).await?;
    state.projected(executed.position).await;
    let staff = queries::staff(&state.read).await.map_err(db_error)?;
    Ok(ok(staff, if grant { "Role granted" } else { "Role revoked" }))
}

/// Grants a role (admins only); an event naming the admin.
#[utoipa::path(post, path = "/api/staff", tag = "moderation", request_body = GrantRequest, security(("bearer" = [])),
    responses((status = 200, description = "The staff after it", body = Envelope<Vec<StaffSchema>>), (status = 400, response = BadRequest), SignedIn,
        (status = 403, response = Forbidden), (status = 404, response = NotFound), (status = 409, response = Conflict)))]
async fn grant(State(state): State<AppState>, me: AuthUser, Payload(req): Payload<GrantRequest>) -> Result<Response, ApiError> {
    let role = role(&req.role)?;
    let user = queries::user_named(&state.read, req.username.trim()).await.map_err(db_error)?;
    let user =
        user.and_then(|u| Uuid::parse_str(&u).ok()).ok_or_else(|| ApiError::NotFound(format!("No user named {}", req.username.trim())))?;
    change_role(&state, me, user, role, true).await
}

/// A role's path.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Path, rename_all = "camelCase")]
#[allow(dead_code, reason = "read through Path<(String, String)>")]
struct RolePath {
    /// The user's id.
    user_id: String,
    /// Which role.
    #[param(value_type = StaffRole)]
    role: String,
}

/// Revokes a role (admins only; not one's own admin role).
#[utoipa::path(delete, path = "/api/staff/{userId}/{role}", tag = "moderation", params(RolePath), security(("bearer" = [])),
    responses((status = 200, description = "The staff after it", body = Envelope<Vec<StaffSchema>>), (status = 400, response = BadRequest), SignedIn,
        (status = 403, response = Forbidden), (status = 409, response = Conflict)))]
async fn revoke(
    State(state): State<AppState>,
    me: AuthUser,
    Path((user_id, role_name)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    let role = role(&role_name)?;
    let user_id = Uuid::parse_str(&user_id).map_err(|_| ApiError::BadRequest("userId: must be a UUID".into()))?;
    change_role(&state, me, user_id, role, false).await
}

query_params!(
    /// The public record's query.
    TransparencyQuery: PAGE, limit(50)
);

/// The public record of moderation: reports received by reason, decisions by kind and the
/// median hours from a report to its decision, per month; and every public decision (hide,
/// restore, verify, unverify) with its target, reason and time, newest first. Never a
/// reporter. Everything here comes from the log.
#[utoipa::path(get, path = "/api/transparency", tag = "moderation", params(TransparencyQuery), security(()),
    responses((status = 200, description = "The record", body = Envelope<TransparencySchema>), (status = 400, response = BadRequest)))]
async fn transparency(State(state): State<AppState>, params: Params) -> Result<Response, ApiError> {
    let (page, limit) = (params.number(&PAGE)?, params.number(&limit(50))?);
    let record: Transparency = queries::transparency(&state.read, i64::from(page.saturating_sub(1)) * i64::from(limit), i64::from(limit))
        .await
        .map_err(db_error)?;
    Ok(ok(record, "Record fetched"))
}

/// Every public decision as CSV
/// (`at,decision,targetKind,targetId,targetTitle,targetHidden,reason,moderator,reports`), newest
/// first. `targetTitle` is empty while the target is hidden.
#[utoipa::path(get, path = "/api/transparency.csv", tag = "moderation", security(()),
    responses((status = 200, description = "The decisions", content_type = "text/csv")))]
async fn transparency_csv(State(state): State<AppState>) -> Result<Response, ApiError> {
    let record = queries::transparency(&state.read, 0, i64::MAX).await.map_err(db_error)?;
    let mut csv = String::from("at,decision,targetKind,targetId,targetTitle,targetHidden,reason,moderator,reports\n");
    for d in &record.decisions {
        let row = [
            cell(&d.at),
            cell(&d.decision),
            cell(&d.target_kind),
            cell(&d.target_id),
            cell(d.target_title.as_deref().unwrap_or_default()),
            d.target_hidden.to_string(),
            cell(&d.reason),
            cell(&d.moderator),
            d.reports.to_string(),
        ];
        csv.push_str(&row.join(","));
        csv.push('\n');
    }
    let mut response = csv.into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
    response
        .headers_mut()
        .insert(header::CONTENT_DISPOSITION, HeaderValue::from_static("attachment; filename=\"moderation-decisions.csv\""));
    Ok(response)
}
