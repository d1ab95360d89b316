-- Notices of moderation decisions and muted reporters (issue 26).
--
-- A moderation notice names its target (an NFT, a collection or a user) rather than only an
-- NFT, the moderator's reason, and for a reporter's notice the decision (HIDE, RESTORE or
-- DISMISS). Its `recipient` is the wallet that owns a hidden NFT, or `user:{userId}` for a
-- person (a collection's creator, a reporter): the notices query reads a user's notices as those
-- of their linked wallets and of their own key. `nft_id` is the NFT for an NFT target, '' for
-- the others. Trade notices leave the new columns NULL.
ALTER TABLE notices ADD COLUMN target_kind TEXT;
ALTER TABLE notices ADD COLUMN target_id TEXT;
ALTER TABLE notices ADD COLUMN reason TEXT;
ALTER TABLE notices ADD COLUMN decision TEXT;

-- The open reports the notices model tells the reporters of when they are decided (kept by the
-- model itself, so it never reads the moderation model's tables; deleted once decided). Muted
-- reporters' reports are never decided and are not kept.
CREATE TABLE notice_reports (
    report_id   TEXT PRIMARY KEY,
    target_kind TEXT NOT NULL,
    target_id   TEXT NOT NULL,
    reporter_id TEXT NOT NULL
);
CREATE INDEX notice_reports_target ON notice_reports (target_kind, target_id);

-- The appeal awaiting a decision on each hidden target, and who made it: turned down (the
-- reports dismissed while it waits), its owner is told; a restore answers it with RESTORED.
CREATE TABLE notice_appeals (
    target_kind TEXT NOT NULL,
    target_id   TEXT NOT NULL,
    owner_id    TEXT NOT NULL,
    PRIMARY KEY (target_kind, target_id)
);

-- Reporters whose reports are kept out of the queue, folded from ReporterMuted and
-- ReporterUnmuted by the moderation model.
CREATE TABLE muted_reporters (
    user_id  TEXT PRIMARY KEY,
    muted_by TEXT NOT NULL,
    reason   TEXT NOT NULL,
    muted_at BIGINT NOT NULL
);
