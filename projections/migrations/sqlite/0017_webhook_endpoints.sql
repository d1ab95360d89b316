-- Webhook endpoints (issue 27), folded from `WebhookEndpointRegistered`, `...Updated` and
-- `...Deleted` in the `user-<uuid>` streams. The signing secret is not here: only the salt the
-- server derives it from with its own secret. Where each endpoint's deliveries stand (the
-- acknowledged position, retries, disabling, the attempts' log) is not a fact of the log and
-- lives beside the rate limits (api/src/node/webhooks/state.rs), so a replay rebuilds this
-- table exactly and never moves a delivery position.
CREATE TABLE webhook_endpoints (
    endpoint_id  TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL,
    url          TEXT NOT NULL,
    topics       TEXT NOT NULL,        -- comma-separated, sorted
    notice_kinds TEXT NOT NULL,        -- comma-separated, sorted
    secret_salt  TEXT NOT NULL,        -- base64 of 24 random bytes
    created_at   BIGINT NOT NULL,      -- Unix seconds
    updated_at   BIGINT NOT NULL,      -- Unix seconds
    deleted_at   BIGINT                -- Unix seconds; NULL while it is delivered to
);
CREATE INDEX webhook_endpoints_user ON webhook_endpoints (user_id, created_at);
