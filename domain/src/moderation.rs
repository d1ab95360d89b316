//! Moderation on a public record: reports, decisions, appeals, verified badges and the roles
//! that may decide.
//!
//! Each reported or decided thing (an NFT, a collection, a user) is one aggregate, the
//! `moderation-{kind}-{id}` stream: "one open report per reporter", "hidden already" and "one
//! appeal per hiding" are decided from that stream alone, so two moderators racing on two
//! servers cannot both hide (the second append meets a moved version and is decided again).
//! The roles are one aggregate too, the `moderation-roles` stream. Who holds a role, whether
//! the target exists and who owns it are handed in with the command by the API (facts of the
//! read side); the rules refusing them are here, in [`decide`].
//!
//! Every decision names the moderator and carries a reason the target's owner sees; reporters
//! are known to moderators only (the read side never shows them to the target or the public).
//!
//! A person whose reports are repeatedly dismissed can be muted (an event on their user's
//! stream naming the moderator and why): their reports are still accepted and recorded, as
//! anyone's, but marked muted and kept out of the queue, so a false reporter cannot flood the
//! moderators nor learn that they were muted and start over under another name.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::{AppendOutcome, EventStore, ExpectedVersion, Metadata, NewEvent, Position, StoreError, StreamAppend, command::Retry};

/// The longest report text and decision reason, in characters.
pub const MAX_TEXT: usize = 1_000;

/// How many of a person's reports must have been dismissed before they can be muted: muting
/// answers repeated false reports, not a single disagreement.
pub const MUTE_AFTER_DISMISSED: u32 = 2;

/// What can be reported and decided on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TargetKind {
    /// An NFT, by `{chain}-{token}`.
    Nft,
    /// A collection, by its id.
    Collection,
    /// A user, by their id.
    User,
}

impl TargetKind {
    /// Every kind, as the API names them.
    pub const ALL: [Self; 3] = [Self::Nft, Self::Collection, Self::User];

    /// The name the API, the streams and the read tables use.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Nft => "nft",
            Self::Collection => "collection",
            Self::User => "user",
        }
    }

    /// Parses the API's name.
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|kind| kind.as_str() == value)
    }
}

/// Why something is reported (OpenSea's list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ReportReason {
    /// A fake collection or a possible scam.
    Scam,
    /// Explicit or sensitive content.
    Explicit,
    /// Spam.
    Spam,
    /// Might be stolen.
    Stolen,
    /// Anything else (the text says what).
    Other,
}

impl ReportReason {
    /// Every reason, as the API names them.
    pub const ALL: [Self; 5] = [Self::Scam, Self::Explicit, Self::Spam, Self::Stolen, Self::Other];

    /// The name the API and the read tables use.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Scam => "SCAM",
            Self::Explicit => "EXPLICIT",
            Self::Spam => "SPAM",
            Self::Stolen => "STOLEN",
            Self::Other => "OTHER",
        }
    }

    /// Parses the API's name.
    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|reason| reason.as_str() == value)
    }
}

/// A role on the market's staff.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Grants and revokes roles, verifies creators and collections, and moderates.
    Admin,
    /// Decides on reports: hides, restores, dismisses.
    Moderator,
}

impl Role {
    /// The name the API, the CLI and the read tables use.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Admin => "admin",
            Self::Moderator => "moderator",
        }
    }

    /// Parses the API's name.
    pub fn parse(value: &str) -> Option<Self> {
        [Self::Admin, Self::Moderator].into_iter().find(|role| role.as_str() == value)
    }
}

/// The stream of one target's reports and decisions.
pub fn target_stream(kind: TargetKind, id: &str) -> String {
    format!("moderation-{}-{id}", kind.as_str())
}

/// The stream of the staff's roles.
pub const ROLES_STREAM: &str = "moderation-roles";

/// Facts of moderation, past tense. Each names its target (kind and id) so a reader of one
/// event needs no other.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all_fields = "camelCase")]
pub enum ModerationEvent {
    /// Someone reported a target.
    ReportFiled {
        /// The report.
        report_id: Uuid,
        /// What is reported.
        target_kind: TargetKind,
        /// Its id.
        target_id: String,
        /// Who reported it (moderators only see it).
        reporter_id: Uuid,
        /// Why.
        reason: ReportReason,
        /// What the reporter wrote (may be empty).
        text: String,
        /// Filed by a muted reporter: recorded, never queued nor decided. Absent (false) in
        /// events written before muting existed.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        muted: bool,
        /// When.
        at: DateTime<Utc>,
    },
    /// A moderator hid the target from everyone but its owner; its open reports are decided.
    TargetHidden {
        /// What.
        target_kind: TargetKind,
        /// Its id.
        target_id: String,
        /// Who decided.
        moderator_id: Uuid,
        /// Why, as the owner reads it.
        reason: String,
        /// The open reports this decides.
        report_ids: Vec<Uuid>,
        /// When.
        at: DateTime<Utc>,
    },
    /// A moderator undid a hiding; open reports (an appeal's) are decided.
    TargetRestored {
        /// What.
        target_kind: TargetKind,
        /// Its id.
        target_id: String,
        /// Who decided.
        moderator_id: Uuid,
        /// Why, as the owner reads it.
        reason: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// A moderator closed the open reports without acting on the target.
    ReportsDismissed {
        /// What.
        target_kind: TargetKind,
        /// Its id.
        target_id: String,
        /// Who decided.
        moderator_id: Uuid,
        /// Why, as the reporters read it.
        reason: String,
        /// The reports closed.
        report_ids: Vec<Uuid>,
        /// When.
        at: DateTime<Utc>,
    },
    /// The owner of a hidden target asked for another look (once per hiding).
    HidingAppealed {
        /// What.
        target_kind: TargetKind,
        /// Its id.
        target_id: String,
        /// The owner.
        owner_id: Uuid,
        /// What they wrote.
        text: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// An admin verified a creator or a collection: a badge on its cards and pages.
    TargetVerified {
        /// What (a user or a collection).
        target_kind: TargetKind,
        /// Its id.
        target_id: String,
        /// The admin.
        admin_id: Uuid,
        /// When.
        at: DateTime<Utc>,
    },
    /// An admin took a verification back.
    VerificationRevoked {
        /// What.
        target_kind: TargetKind,
        /// Its id.
        target_id: String,
        /// The admin.
        admin_id: Uuid,
        /// Why.
        reason: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// A moderator muted a reporter (a user target) whose reports were repeatedly dismissed: their
    /// later reports stay out of the queue.
    ReporterMuted {
        /// The reporter.
        user_id: Uuid,
        /// Who decided.
        moderator_id: Uuid,
        /// Why (moderators read it; the reporter is not told).
        reason: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// A moderator let a muted reporter's reports reach the queue again.
    ReporterUnmuted {
        /// The reporter.
        user_id: Uuid,
        /// Who decided.
        moderator_id: Uuid,
        /// Why.
        reason: String,
        /// When.
        at: DateTime<Utc>,
    },
    /// A role was granted: by an admin, or by an operator's command on the server (`by` empty).
    RoleGranted {
        /// To whom.
        user_id: Uuid,
        /// Which.
        role: Role,
        /// The admin who granted it; `None` for the server's operator.
        by: Option<Uuid>,
        /// When.
        at: DateTime<Utc>,
    },
    /// A role was taken back.
    RoleRevoked {
        /// From whom.
        user_id: Uuid,
        /// Which.
        role: Role,
        /// The admin who revoked it; `None` for the server's operator.
        by: Option<Uuid>,
        /// When.
        at: DateTime<Utc>,
    },
}

impl ModerationEvent {
    /// The payload schema version.
    pub const SCHEMA_VERSION: u32 = 1;

    /// Every type name, for readers that dispatch on them.
    pub const TYPES: &'static [&'static str] = &[
        "ReportFiled",
        "TargetHidden",
        "TargetRestored",
        "ReportsDismissed",
        "HidingAppealed",
        "TargetVerified",
        "VerificationRevoked",
        "ReporterMuted",
        "ReporterUnmuted",
        "RoleGranted",
        "RoleRevoked",
    ];

    /// The past-tense type name stored in the envelope.
    pub fn event_type(&self) -> &'static str {
        match self {
            Self::ReportFiled { .. } => "ReportFiled",
            Self::TargetHidden { .. } => "TargetHidden",
            Self::TargetRestored { .. } => "TargetRestored",
            Self::ReportsDismissed { .. } => "ReportsDismissed",
            Self::HidingAppealed { .. } => "HidingAppealed",
            Self::TargetVerified { .. } => "TargetVerified",
            Self::VerificationRevoked { .. } => "VerificationRevoked",
            Self::ReporterMuted { .. } => "ReporterMuted",
            Self::ReporterUnmuted { .. } => "ReporterUnmuted",
            Self::RoleGranted { .. } => "RoleGranted",
            Self::RoleRevoked { .. } => "RoleRevoked",
        }
    }

    /// This event as a [`NewEvent`].
    pub fn to_new_event(&self, metadata: Metadata) -> Result<NewEvent, StoreError> {
        NewEvent::new(self.event_type(), Self::SCHEMA_VERSION, self, metadata)
    }
}

/// What one target's stream adds up to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Target {
    /// Open reports: report id to reporter.
    pub open: BTreeMap<Uuid, Uuid>,
    /// Reports of muted reporters since the last decision: report id to reporter. Never
    /// decided; they only answer a muted reporter's second report as anyone's would be.
    pub muted_reports: BTreeMap<Uuid, Uuid>,
    /// Whether it is hidden now.
    pub hidden: bool,
    /// Whether its owner appealed the hiding in force.
    pub appealed: bool,
    /// Whether it carries a verified badge.
    pub verified: bool,
    /// A user target: whether their reports are muted.
    pub muted: bool,
}

/// Who holds which role (the `moderation-roles` stream).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Roles(pub BTreeSet<(Uuid, Role)>);

impl Roles {
    /// Whether `user` holds `role`.
    pub fn has(&self, user: Uuid, role: Role) -> bool {
        self.0.contains(&(user, role))
    }

    /// Whether `user` may moderate (moderators and admins).
    pub fn moderates(&self, user: Uuid) -> bool {
        self.has(user, Role::Moderator) || self.has(user, Role::Admin)
    }
}

/// The facts about a target (and the actor) the read side hands in with a command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    /// Whether the target exists (an NFT minted and not burned, a collection, a user).
    pub exists: bool,
    /// The users the target belongs to (an NFT's owner and creator, a collection's creator, the
    /// user themself): they cannot report it nor decide on it, and only they may appeal.
    pub owners: Vec<Uuid>,
    /// To report: whether the actor is a muted reporter (their report is recorded, not queued).
    pub reporter_muted: bool,
    /// To mute a user: how many of their reports were dismissed.
    pub dismissed_reports: u32,
}

/// What a moderation command asks of one target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Report it.
    Report {
        /// The new report's id.
        report_id: Uuid,
        /// Why.
        reason: ReportReason,
        /// What the reporter wrote.
        text: String,
    },
    /// Hide it (moderators).
    Hide {
        /// Why, as its owner reads it.
        reason: String,
    },
    /// Undo a hiding (moderators).
    Restore {
        /// Why.
        reason: String,
    },
    /// Close the open reports (moderators).
    Dismiss {
        /// Why.
        reason: String,
    },
    /// Ask for another look at a hiding (its owner).
    Appeal {
        /// What the owner writes.
        text: String,
    },
    /// Give it a verified badge (admins; users and collections).
    Verify,
    /// Take the badge back (admins).
    Unverify {
        /// Why.
        reason: String,
    },
    /// Keep a user's reports out of the queue (moderators; after repeated dismissals).
    Mute {
        /// Why.
        reason: String,
    },
    /// Let a muted user's reports reach the queue again (moderators).
    Unmute {
        /// Why.
        reason: String,
    },
}

/// A command on one target, with what the API knows about it and about the actor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// What.
    pub kind: TargetKind,
    /// Its id.
    pub id: String,
    /// Who asks.
    pub actor: Uuid,
    /// The read side's facts about the target.
    pub facts: Facts,
    /// What is asked.
    pub action: Action,
    /// The clock.
    pub now: DateTime<Utc>,
}

/// Why a moderation command is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ModerationError {
    /// No such target.
    #[error("No {0} with id {1}")]
    UnknownTarget(&'static str, String),
    /// The actor lacks the role the action needs.
    #[error("This needs the {0} role")]
    Forbidden(&'static str),
    /// The actor may not do this to their own thing (report it, decide on it).
    #[error("You cannot {0} your own {1}")]
    OwnTarget(&'static str, &'static str),
    /// The action does not fit the target's state (a second open report, hidden already...).
    #[error("{0}")]
    Conflict(String),
    /// A value is not acceptable.
    #[error("{0}")]
    Invalid(String),
}

fn text(value: &str, name: &str, required: bool) -> Result<String, ModerationError> {
    let value = value.trim();
    if required && value.is_empty() {
        return Err(ModerationError::Invalid(format!("{name} is required")));
    }
    if value.chars().count() > MAX_TEXT {
        return Err(ModerationError::Invalid(format!("{name} must be at most {MAX_TEXT} characters")));
    }
    Ok(value.to_owned())
}

/// The rules of one target, given the staff's roles. Exactly one event per command.
pub fn decide(state: &Target, roles: &Roles, command: Command) -> Result<Vec<ModerationEvent>, ModerationError> {
    let Command { kind, id, actor, facts, action, now: at } = command;
    let (target_kind, target_id) = (kind, id);
    let own = facts.owners.contains(&actor);
    let moderator = |verb: &'static str| {
        if !roles.moderates(actor) {
            return Err(ModerationError::Forbidden("moderator"));
        }
        if own {
            return Err(ModerationError::OwnTarget(verb, target_kind.as_str()));
        }
        Ok(())
    };
    // A hidden target can be restored after it went (burned, deleted); anything else needs it.
    if !facts.exists && !matches!(action, Action::Restore { .. } | Action::Dismiss { .. } | Action::Unverify { .. }) {
        return Err(ModerationError::UnknownTarget(target_kind.as_str(), target_id));
    }
    let event = match action {
        Action::Report { report_id, reason, text: written } => {
            if own {
                return Err(ModerationError::OwnTarget("report", target_kind.as_str()));
            }
            if reason == ReportReason::Stolen && target_kind != TargetKind::Nft {
                return Err(ModerationError::Invalid("Only an NFT can be reported stolen".into()));
            }
            if state.open.values().chain(state.muted_reports.values()).any(|reporter| *reporter == actor) {
                return Err(ModerationError::Conflict(format!("You already reported this {}; it awaits a decision", target_kind.as_str())));
            }
            let text = text(&written, "text", reason == ReportReason::Other)?;
            let muted = facts.reporter_muted;
            ModerationEvent::ReportFiled { report_id, target_kind, target_id, reporter_id: actor, reason, text, muted, at }
        }
        Action::Hide { reason } => {
            moderator("hide")?;
            if target_kind == TargetKind::User {
                return Err(ModerationError::Invalid("A user cannot be hidden; hide their NFTs or collections".into()));
            }
            if state.hidden {
                return Err(ModerationError::Conflict(format!("This {} is hidden already", target_kind.as_str())));
            }
            let reason = text(&reason, "reason", true)?;
            ModerationEvent::TargetHidden {
                target_kind,
                target_id,
                moderator_id: actor,
                reason,
                report_ids: state.open.keys().copied().collect(),
                at,
            }
        }
        Action::Restore { reason } => {
            moderator("restore")?;
            if !state.hidden {
                return Err(ModerationError::Conflict(format!("This {} is not hidden", target_kind.as_str())));
            }
            ModerationEvent::TargetRestored { target_kind, target_id, moderator_id: actor, reason: text(&reason, "reason", true)?, at }
        }
        Action::Dismiss { reason } => {
            moderator("dismiss reports on")?;
            if state.open.is_empty() && !state.appealed {
                return Err(ModerationError::Conflict("There is no open report to dismiss".into()));
            }
            let reason = text(&reason, "reason", true)?;
            ModerationEvent::ReportsDismissed {
                target_kind,
                target_id,
                moderator_id: actor,
                reason,
                report_ids: state.open.keys().copied().collect(),
                at,
            }
        }
        Action::Appeal { text: written } => {
            if !own {
                return Err(ModerationError::Forbidden("owner"));
            }
            if !state.hidden {
                return Err(ModerationError::Conflict(format!("This {} is not hidden", target_kind.as_str())));
            }
            if state.appealed {
                return Err(ModerationError::Conflict("This hiding was appealed already".into()));
            }
            ModerationEvent::HidingAppealed { target_kind, target_id, owner_id: actor, text: text(&written, "text", true)?, at }
        }
        Action::Verify => {
            if !roles.has(actor, Role::Admin) {
                return Err(ModerationError::Forbidden("admin"));
            }
            if target_kind == TargetKind::Nft {
                return Err(ModerationError::Invalid("Creators and collections are verified, not single NFTs".into()));
            }
            if state.verified {
                return Err(ModerationError::Conflict(format!("This {} is verified already", target_kind.as_str())));
            }
            ModerationEvent::TargetVerified { target_kind, target_id, admin_id: actor, at }
        }
        Action::Unverify { reason } => {
            if !roles.has(actor, Role::Admin) {
                return Err(ModerationError::Forbidden("admin"));
            }
            if !state.verified {
                return Err(ModerationError::Conflict(format!("This {} is not verified", target_kind.as_str())));
            }
            ModerationEvent::VerificationRevoked { target_kind, target_id, admin_id: actor, reason: text(&reason, "reason", true)?, at }
        }
        Action::Mute { reason } => {
            moderator("mute")?;
            let user_id = reporter(target_kind, &target_id)?;
            if state.muted {
                return Err(ModerationError::Conflict("This user's reports are muted already".into()));
            }
            if facts.dismissed_reports < MUTE_AFTER_DISMISSED {
                return Err(ModerationError::Conflict(format!(
                    "Only a person with at least {MUTE_AFTER_DISMISSED} dismissed reports can be muted ({} so far)",
                    facts.dismissed_reports
                )));
            }
            ModerationEvent::ReporterMuted { user_id, moderator_id: actor, reason: text(&reason, "reason", true)?, at }
        }
        Action::Unmute { reason } => {
            moderator("unmute")?;
            let user_id = reporter(target_kind, &target_id)?;
            if !state.muted {
                return Err(ModerationError::Conflict("This user's reports are not muted".into()));
            }
            ModerationEvent::ReporterUnmuted { user_id, moderator_id: actor, reason: text(&reason, "reason", true)?, at }
        }
    };
    Ok(vec![event])
}

/// The reporter a mute names: only users are muted, by their id.
fn reporter(kind: TargetKind, id: &str) -> Result<Uuid, ModerationError> {
    if kind != TargetKind::User {
        return Err(ModerationError::Invalid("Only a user's reports can be muted".into()));
    }
    Uuid::parse_str(id).map_err(|_| ModerationError::Invalid("A user's id is a UUID".into()))
}

/// Folds one event of a target's stream (no rules).
pub fn evolve(mut state: Target, event: &ModerationEvent) -> Target {
    match event {
        ModerationEvent::ReportFiled { report_id, reporter_id, muted, .. } => {
            let reports = if *muted { &mut state.muted_reports } else { &mut state.open };
            reports.insert(*report_id, *reporter_id);
        }
        ModerationEvent::TargetHidden { .. } => {
            state.open.clear();
            state.muted_reports.clear();
            state.hidden = true;
            state.appealed = false;
        }
        ModerationEvent::TargetRestored { .. } => {
            state.open.clear();
            state.muted_reports.clear();
            state.hidden = false;
            state.appealed = false;
        }
        ModerationEvent::ReportsDismissed { .. } => {
            state.open.clear();
            state.muted_reports.clear();
            // An appeal dismissed stays answered: the hiding holds, and no second appeal.
        }
        ModerationEvent::HidingAppealed { .. } => state.appealed = true,
        ModerationEvent::TargetVerified { .. } => state.verified = true,
        ModerationEvent::VerificationRevoked { .. } => state.verified = false,
        ModerationEvent::ReporterMuted { .. } => state.muted = true,
        ModerationEvent::ReporterUnmuted { .. } => state.muted = false,
        ModerationEvent::RoleGranted { .. } | ModerationEvent::RoleRevoked { .. } => {}
    }
    state
}

/// A change of roles: `actor` is the admin who asks, `None` for the server's operator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoleChange {
    /// Who asks.
    pub actor: Option<Uuid>,
    /// To or from whom.
    pub user_id: Uuid,
    /// Which role.
    pub role: Role,
    /// Grant (`true`) or revoke.
    pub grant: bool,
    /// The clock.
    pub now: DateTime<Utc>,
}

/// The rules of roles: only admins (or the operator) change them; granting a held role or
/// revoking a missing one is a conflict; an admin cannot revoke their own admin role (the market
/// would lose its last admin by a slip; the operator can).
pub fn decide_roles(roles: &Roles, change: RoleChange) -> Result<Vec<ModerationEvent>, ModerationError> {
    let RoleChange { actor, user_id, role, grant, now: at } = change;
    if let Some(actor) = actor {
        if !roles.has(actor, Role::Admin) {
            return Err(ModerationError::Forbidden("admin"));
        }
        if !grant && actor == user_id && role == Role::Admin {
            return Err(ModerationError::Conflict("You cannot revoke your own admin role".into()));
        }
    }
    let held = roles.has(user_id, role);
    if grant && held {
        return Err(ModerationError::Conflict(format!("This user is a {} already", role.as_str())));
    }
    if !grant && !held {
        return Err(ModerationError::Conflict(format!("This user is not a {}", role.as_str())));
    }
    Ok(vec![if grant {
        ModerationEvent::RoleGranted { user_id, role, by: actor, at }
    } else {
        ModerationEvent::RoleRevoked { user_id, role, by: actor, at }
    }])
}

/// Folds one event of the roles' stream.
pub fn evolve_roles(mut roles: Roles, event: &ModerationEvent) -> Roles {
    match event {
        ModerationEvent::RoleGranted { user_id, role, .. } => {
            roles.0.insert((*user_id, *role));
        }
        ModerationEvent::RoleRevoked { user_id, role, .. } => {
            roles.0.remove(&(*user_id, *role));
        }
        _ => {}
    }
    roles
}

/// Why a moderation command did not go through.
#[derive(Debug, thiserror::Error)]
pub enum ModerationCommandError {
    /// A rule refused it.
    #[error(transparent)]
    Rejected(#[from] ModerationError),
    /// The event store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Reads and folds a stream: the state and the version to append at.
async fn load<S: Default>(store: &dyn EventStore, stream: &str, fold: impl Fn(S, &ModerationEvent) -> S) -> Result<(S, u64), StoreError> {
    let (mut state, mut version) = (S::default(), 0);
    loop {
        let page = store.read_stream(stream, version + 1, 1_000).await?;
        let Some(last) = page.last() else { return Ok((state, version)) };
        version = last.stream_version;
        for recorded in &page {
            state = fold(state, &recorded.payload::<ModerationEvent>()?);
        }
    }
}

/// The staff's roles now.
pub async fn roles(store: &dyn EventStore) -> Result<Roles, StoreError> {
    Ok(load(store, ROLES_STREAM, evolve_roles).await?.0)
}

/// What a command did.
#[derive(Clone, Debug)]
pub struct Executed {
    /// The events appended.
    pub events: Vec<ModerationEvent>,
    /// The position of the last, to wait for the read models.
    pub position: Position,
}

/// Appends what `decide` makes of the stream's state, at the version it read; decides again
/// when another request appended in between, until [`crate::command::DEADLINE`].
async fn run<S: Default>(
    store: &dyn EventStore,
    stream: &str,
    fold: impl Fn(S, &ModerationEvent) -> S + Copy,
    decide: impl Fn(&S) -> Result<Vec<ModerationEvent>, ModerationCommandError>,
    metadata: &Metadata,
) -> Result<Executed, ModerationCommandError> {
    let mut retry = Retry::default();
    loop {
        let (state, version) = load(store, stream, fold).await?;
        let events = decide(&state)?;
        let append = StreamAppend {
            stream_id: stream.to_owned(),
            expected: if version == 0 { ExpectedVersion::NoStream } else { ExpectedVersion::Exact(version) },
            events: events.iter().map(|e| e.to_new_event(metadata.clone())).collect::<Result<_, _>>()?,
        };
        match store.append_streams(vec![append]).await {
            Ok(AppendOutcome { last_position, .. }) => return Ok(Executed { events, position: last_position }),
            Err(err) if retry.again(&err).await => {}
            Err(err) => return Err(err.into()),
        }
    }
}

/// Decides and appends a command on one target. The roles are read as they stand: a role
/// revoked a moment before is refused (a role granted concurrently may be missed: the
/// moderator tries again).
pub async fn execute(store: &dyn EventStore, command: Command, metadata: &Metadata) -> Result<Executed, ModerationCommandError> {
    let roles = roles(store).await?;
    let stream = target_stream(command.kind, &command.id);
    run(store, &stream, evolve, |state: &Target| Ok(decide(state, &roles, command.clone())?), metadata).await
}

/// Decides and appends a change of roles.
pub async fn change_role(store: &dyn EventStore, change: RoleChange, metadata: &Metadata) -> Result<Executed, ModerationCommandError> {
    run(store, ROLES_STREAM, evolve_roles, |roles: &Roles| Ok(decide_roles(roles, change.clone())?), metadata).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t0() -> DateTime<Utc> {
        DateTime::from_timestamp(1_767_225_600, 0).unwrap()
    }

    const OWNER: Uuid = Uuid::from_u128(1);
    const REPORTER: Uuid = Uuid::from_u128(2);
    const MODERATOR: Uuid = Uuid::from_u128(3);
    const ADMIN: Uuid = Uuid::from_u128(4);

    fn staff() -> Roles {
        Roles([(MODERATOR, Role::Moderator), (ADMIN, Role::Admin)].into_iter().collect())
    }

    fn on(kind: TargetKind, actor: Uuid, action: Action) -> Command {
        Command {
            kind,
            id: "80001-7".into(),
            actor,
            facts: Facts { exists: true, owners: vec![OWNER], ..Facts::default() },
            action,
            now: t0(),
        }
    }

    fn nft(actor: Uuid, action: Action) -> Command {
        on(TargetKind::Nft, actor, action)
    }

    fn report(reason: ReportReason, text: &str) -> Action {
        Action::Report { report_id: Uuid::from_u128(100), reason, text: text.into() }
    }

    fn fold(events: &[ModerationEvent]) -> Target {
        events.iter().fold(Target::default(), evolve)
    }

    fn step(state: &Target, command: Command) -> Result<Target, ModerationError> {
        Ok(decide(state, &staff(), command)?.iter().fold(state.clone(), evolve))
    }

    #[test]
    fn a_report_opens_once_per_reporter_and_never_by_the_owner() {
        let events = decide(&Target::default(), &staff(), nft(REPORTER, report(ReportReason::Stolen, " mine "))).unwrap();
        let [ModerationEvent::ReportFiled { reporter_id, text, reason, .. }] = &events[..] else { panic!("{events:?}") };
        assert_eq!((*reporter_id, text.as_str(), *reason), (REPORTER, "mine", ReportReason::Stolen));
        let state = fold(&events);
        assert!(matches!(decide(&state, &staff(), nft(REPORTER, report(ReportReason::Spam, ""))), Err(ModerationError::Conflict(_))));
        assert!(decide(&state, &staff(), nft(MODERATOR, report(ReportReason::Spam, ""))).is_ok(), "another reporter");
        assert_eq!(decide(&state, &staff(), nft(OWNER, report(ReportReason::Spam, ""))), Err(ModerationError::OwnTarget("report", "nft")));
    }

    #[test]
    fn a_report_needs_its_target_a_text_for_other_and_stolen_only_for_nfts() {
        let mut gone = nft(REPORTER, report(ReportReason::Spam, ""));
        gone.facts.exists = false;
        assert!(matches!(decide(&Target::default(), &staff(), gone), Err(ModerationError::UnknownTarget("nft", _))));
        assert!(matches!(
            decide(&Target::default(), &staff(), nft(REPORTER, report(ReportReason::Other, "  "))),
            Err(ModerationError::Invalid(_))
        ));
        let long = "x".repeat(MAX_TEXT + 1);
        assert!(matches!(
            decide(&Target::default(), &staff(), nft(REPORTER, report(ReportReason::Spam, &long))),
            Err(ModerationError::Invalid(_))
        ));
        let stolen = on(TargetKind::Collection, REPORTER, report(ReportReason::Stolen, ""));
        assert!(matches!(decide(&Target::default(), &staff(), stolen), Err(ModerationError::Invalid(_))));
    }

    #[test]
    fn only_moderators_hide_and_never_their_own_and_hiding_decides_the_open_reports() {
        let reported = fold(&decide(&Target::default(), &staff(), nft(REPORTER, report(ReportReason::Scam, ""))).unwrap());
        let hide = || Action::Hide { reason: "A copy of another artist's work".into() };
        assert_eq!(decide(&reported, &staff(), nft(REPORTER, hide())), Err(ModerationError::Forbidden("moderator")));
        let mut own = nft(MODERATOR, hide());
        own.facts.owners = vec![MODERATOR];
        assert_eq!(decide(&reported, &staff(), own), Err(ModerationError::OwnTarget("hide", "nft")));
        let events = decide(&reported, &staff(), nft(MODERATOR, hide())).unwrap();
        let [ModerationEvent::TargetHidden { report_ids, moderator_id, .. }] = &events[..] else { panic!("{events:?}") };
        assert_eq!((report_ids.clone(), *moderator_id), (vec![Uuid::from_u128(100)], MODERATOR));
        let hidden = evolve(reported, &events[0]);
        assert!(hidden.hidden && hidden.open.is_empty());
        assert!(matches!(decide(&hidden, &staff(), nft(ADMIN, hide())), Err(ModerationError::Conflict(_))), "hidden already");
        assert!(matches!(
            decide(&hidden, &staff(), nft(MODERATOR, Action::Hide { reason: " ".into() })),
            Err(ModerationError::Conflict(_))
        ));
        let fresh = Target::default();
        assert!(
            matches!(decide(&fresh, &staff(), nft(MODERATOR, Action::Hide { reason: " ".into() })), Err(ModerationError::Invalid(_))),
            "reason required"
        );
        assert!(matches!(decide(&fresh, &staff(), on(TargetKind::User, MODERATOR, hide())), Err(ModerationError::Invalid(_))));
    }

    #[test]
    fn the_owner_appeals_a_hiding_once_and_a_moderator_restores_or_dismisses() {
        let hidden = step(&Target::default(), nft(MODERATOR, Action::Hide { reason: "scam".into() })).unwrap();
        let appeal = || nft(OWNER, Action::Appeal { text: "It is my own work".into() });
        assert_eq!(decide(&hidden, &staff(), nft(REPORTER, Action::Appeal { text: "x".into() })), Err(ModerationError::Forbidden("owner")));
        let appealed = step(&hidden, appeal()).unwrap();
        assert!(appealed.appealed);
        assert!(matches!(decide(&appealed, &staff(), appeal()), Err(ModerationError::Conflict(_))), "once");
        // The appeal turned down: the hiding holds and cannot be appealed again.
        let kept = step(&appealed, nft(MODERATOR, Action::Dismiss { reason: "The copy is plain".into() })).unwrap();
        assert!(kept.hidden && kept.appealed);
        assert!(matches!(decide(&kept, &staff(), appeal()), Err(ModerationError::Conflict(_))));
        let restored = step(&appealed, nft(MODERATOR, Action::Restore { reason: "The artist showed the originals".into() })).unwrap();
        assert!(!restored.hidden && !restored.appealed);
        assert!(matches!(decide(&restored, &staff(), appeal()), Err(ModerationError::Conflict(_))), "not hidden");
        assert!(matches!(
            decide(&restored, &staff(), nft(MODERATOR, Action::Restore { reason: "x".into() })),
            Err(ModerationError::Conflict(_))
        ));
        assert!(matches!(
            decide(&restored, &staff(), nft(MODERATOR, Action::Dismiss { reason: "x".into() })),
            Err(ModerationError::Conflict(_))
        ));
    }

    #[test]
    fn a_hidden_target_gone_since_can_still_be_restored() {
        let hidden = step(&Target::default(), nft(MODERATOR, Action::Hide { reason: "scam".into() })).unwrap();
        let mut restore = nft(MODERATOR, Action::Restore { reason: "burned anyway".into() });
        restore.facts.exists = false;
        assert!(decide(&hidden, &staff(), restore).is_ok());
    }

    #[test]
    fn admins_verify_users_and_collections_not_nfts() {
        let collection = |actor, action| on(TargetKind::Collection, actor, action);
        assert_eq!(decide(&Target::default(), &staff(), collection(MODERATOR, Action::Verify)), Err(ModerationError::Forbidden("admin")));
        assert!(matches!(decide(&Target::default(), &staff(), nft(ADMIN, Action::Verify)), Err(ModerationError::Invalid(_))));
        let verified = step(&Target::default(), collection(ADMIN, Action::Verify)).unwrap();
        assert!(verified.verified);
        assert!(matches!(decide(&verified, &staff(), collection(ADMIN, Action::Verify)), Err(ModerationError::Conflict(_))));
        let revoked = step(&verified, collection(ADMIN, Action::Unverify { reason: "Impersonation".into() })).unwrap();
        assert!(!revoked.verified);
        assert!(matches!(
            decide(&revoked, &staff(), collection(ADMIN, Action::Unverify { reason: "x".into() })),
            Err(ModerationError::Conflict(_))
        ));
    }

    #[test]
    fn roles_change_by_admins_or_the_operator_and_an_admin_keeps_their_own() {
        let change = |actor, user_id, role, grant| RoleChange { actor, user_id, role, grant, now: t0() };
        let empty = Roles::default();
        let granted = decide_roles(&empty, change(None, ADMIN, Role::Admin, true)).unwrap();
        assert_eq!(granted, vec![ModerationEvent::RoleGranted { user_id: ADMIN, role: Role::Admin, by: None, at: t0() }]);
        let roles = granted.iter().fold(empty, evolve_roles);
        assert_eq!(decide_roles(&roles, change(Some(REPORTER), REPORTER, Role::Moderator, true)), Err(ModerationError::Forbidden("admin")));
        let roles = decide_roles(&roles, change(Some(ADMIN), MODERATOR, Role::Moderator, true)).unwrap().iter().fold(roles, evolve_roles);
        assert!(roles.moderates(MODERATOR) && roles.moderates(ADMIN) && !roles.moderates(REPORTER));
        assert!(matches!(decide_roles(&roles, change(Some(ADMIN), MODERATOR, Role::Moderator, true)), Err(ModerationError::Conflict(_))));
        assert!(matches!(decide_roles(&roles, change(Some(ADMIN), ADMIN, Role::Admin, false)), Err(ModerationError::Conflict(_))));
        assert!(decide_roles(&roles, change(None, ADMIN, Role::Admin, false)).is_ok(), "the operator may");
        let roles = decide_roles(&roles, change(Some(ADMIN), MODERATOR, Role::Moderator, false)).unwrap().iter().fold(roles, evolve_roles);
        assert!(!roles.moderates(MODERATOR));
        assert!(matches!(decide_roles(&roles, change(Some(ADMIN), MODERATOR, Role::Moderator, false)), Err(ModerationError::Conflict(_))));
    }

    fn user(actor: Uuid, action: Action, dismissed_reports: u32) -> Command {
        let facts = Facts { exists: true, owners: vec![REPORTER], dismissed_reports, ..Facts::default() };
        Command { kind: TargetKind::User, id: REPORTER.to_string(), actor, facts, action, now: t0() }
    }

    #[test]
    fn moderators_mute_a_reporter_after_repeated_dismissals_and_unmute_them() {
        let mute = || Action::Mute { reason: "Reports every listing of a rival".into() };
        assert_eq!(decide(&Target::default(), &staff(), user(OWNER, mute(), 5)), Err(ModerationError::Forbidden("moderator")));
        assert_eq!(decide(&Target::default(), &staff(), user(REPORTER, mute(), 5)), Err(ModerationError::Forbidden("moderator")));
        assert!(
            matches!(
                decide(&Target::default(), &staff(), user(MODERATOR, mute(), MUTE_AFTER_DISMISSED - 1)),
                Err(ModerationError::Conflict(_))
            ),
            "one dismissal is a disagreement, not a pattern"
        );
        assert!(matches!(
            decide(&Target::default(), &staff(), user(MODERATOR, Action::Mute { reason: " ".into() }, 5)),
            Err(ModerationError::Invalid(_))
        ));
        assert!(matches!(decide(&Target::default(), &staff(), nft(MODERATOR, mute())), Err(ModerationError::Invalid(_))), "users only");
        let events = decide(&Target::default(), &staff(), user(MODERATOR, mute(), MUTE_AFTER_DISMISSED)).unwrap();
        let [ModerationEvent::ReporterMuted { user_id, moderator_id, .. }] = &events[..] else { panic!("{events:?}") };
        assert_eq!((*user_id, *moderator_id), (REPORTER, MODERATOR));
        let muted = fold(&events);
        assert!(muted.muted);
        assert!(matches!(decide(&muted, &staff(), user(ADMIN, mute(), 9)), Err(ModerationError::Conflict(_))), "muted already");
        let unmuted = step(&muted, user(ADMIN, Action::Unmute { reason: "Their last reports were right".into() }, 0)).unwrap();
        assert!(!unmuted.muted);
        assert!(matches!(
            decide(&unmuted, &staff(), user(MODERATOR, Action::Unmute { reason: "x".into() }, 0)),
            Err(ModerationError::Conflict(_))
        ));
        let mut own = user(MODERATOR, mute(), 5);
        own.id = MODERATOR.to_string();
        own.facts.owners = vec![MODERATOR];
        assert_eq!(decide(&Target::default(), &staff(), own), Err(ModerationError::OwnTarget("mute", "user")));
    }

    #[test]
    fn a_muted_reporters_report_is_recorded_but_never_opened_nor_decided() {
        let mut muted = nft(REPORTER, report(ReportReason::Spam, ""));
        muted.facts.reporter_muted = true;
        let events = decide(&Target::default(), &staff(), muted.clone()).unwrap();
        let [ModerationEvent::ReportFiled { muted: true, .. }] = &events[..] else { panic!("{events:?}") };
        let state = fold(&events);
        assert!(state.open.is_empty(), "not in the queue");
        assert!(matches!(decide(&state, &staff(), muted), Err(ModerationError::Conflict(_))), "answered as anyone's second report");
        assert!(
            matches!(decide(&state, &staff(), nft(MODERATOR, Action::Dismiss { reason: "x".into() })), Err(ModerationError::Conflict(_))),
            "nothing to dismiss"
        );
        let hidden = step(&state, nft(MODERATOR, Action::Hide { reason: "scam".into() })).unwrap();
        assert!(hidden.muted_reports.is_empty());
        let events = decide(&state, &staff(), nft(MODERATOR, Action::Hide { reason: "scam".into() })).unwrap();
        let [ModerationEvent::TargetHidden { report_ids, .. }] = &events[..] else { panic!("{events:?}") };
        assert!(report_ids.is_empty(), "a hiding decides no muted report");
    }

    #[test]
    fn events_keep_their_type_names_and_camel_case_fields() {
        let event = ModerationEvent::ReportFiled {
            report_id: Uuid::nil(),
            target_kind: TargetKind::Nft,
            target_id: "80001-7".into(),
            reporter_id: REPORTER,
            reason: ReportReason::Stolen,
            text: String::new(),
            muted: false,
            at: t0(),
        };
        let json = serde_json::to_value(&event).unwrap();
        assert_eq!(
            (json["type"].as_str(), json["targetKind"].as_str(), json["reason"].as_str()),
            (Some("ReportFiled"), Some("nft"), Some("STOLEN"))
        );
        assert!(ModerationEvent::TYPES.contains(&event.event_type()));
        assert!(json.get("muted").is_none(), "an unmuted report is written as before muting existed");
        let old: ModerationEvent = serde_json::from_value(json).unwrap();
        assert_eq!(old, event);
        assert_eq!(target_stream(TargetKind::Collection, "c1"), "moderation-collection-c1");
    }
}
