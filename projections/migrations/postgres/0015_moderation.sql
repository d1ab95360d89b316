-- Moderation (issue 26), folded from the `moderation-{kind}-{id}` streams and `moderation-roles`.

-- Who holds a staff role (admin, moderator).
CREATE TABLE staff_roles (
    user_id    TEXT NOT NULL,
    role       TEXT NOT NULL,           -- admin | moderator
    granted_at BIGINT NOT NULL,         -- Unix seconds
    PRIMARY KEY (user_id, role)
);

-- Every report. The reporter is for moderators' eyes only: no public query reads it.
CREATE TABLE reports (
    report_id   TEXT PRIMARY KEY,
    target_kind TEXT NOT NULL,          -- nft | collection | user
    target_id   TEXT NOT NULL,
    reporter_id TEXT NOT NULL,
    reason      TEXT NOT NULL,          -- SCAM | EXPLICIT | SPAM | STOLEN | OTHER
    text        TEXT NOT NULL,
    filed_at    BIGINT NOT NULL,
    state       TEXT NOT NULL,          -- OPEN | ACTIONED | DISMISSED
    decided_at  BIGINT,
    decided_by  BIGINT,                 -- the log position of the decision
    position    BIGINT NOT NULL
);
CREATE INDEX reports_target ON reports (target_kind, target_id, filed_at);
CREATE INDEX reports_state ON reports (state, filed_at);
CREATE INDEX reports_reporter ON reports (reporter_id, filed_at);

-- The standing state of a target moderators acted on: hidden (and why), an open appeal, a badge.
CREATE TABLE moderated (
    target_kind   TEXT NOT NULL,
    target_id     TEXT NOT NULL,
    hidden        BIGINT NOT NULL DEFAULT 0,
    hidden_reason TEXT,
    hidden_at     BIGINT,
    appealed      BIGINT NOT NULL DEFAULT 0,   -- the hiding in force was appealed (once)
    appeal_text   TEXT,                        -- the appeal awaiting a decision, if any
    appealed_at   BIGINT,
    verified      BIGINT NOT NULL DEFAULT 0,
    verified_at   BIGINT,
    PRIMARY KEY (target_kind, target_id)
);
CREATE INDEX moderated_hidden ON moderated (target_kind, hidden);

-- Every decision, keyed by its log position: a target's history and the public record
-- (/transparency). `reports` is how many reports it decided, `first_report_at` the oldest's time.
CREATE TABLE moderation_decisions (
    position        BIGINT PRIMARY KEY,
    target_kind     TEXT NOT NULL,
    target_id       TEXT NOT NULL,
    decision        TEXT NOT NULL,      -- HIDE | RESTORE | DISMISS | VERIFY | UNVERIFY
    moderator_id    TEXT NOT NULL,
    reason          TEXT NOT NULL,
    reports         BIGINT NOT NULL,
    first_report_at BIGINT,
    at              BIGINT NOT NULL
);
CREATE INDEX moderation_decisions_target ON moderation_decisions (target_kind, target_id, position);
CREATE INDEX moderation_decisions_at ON moderation_decisions (at);

-- A takedown takes the file down where every NFT or collection using it is hidden: found by file.
CREATE INDEX nft_details_file ON nft_details (file);
CREATE INDEX collections_image ON collections (image);
