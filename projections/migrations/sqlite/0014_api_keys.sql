-- API keys (issue 27), folded from `ApiKeyCreated` and `ApiKeyRevoked` in the `user-<uuid>`
-- streams. Only the key's SHA-256 is kept, as in the log: a request's key is hashed and looked
-- up here. When a key was last used is not a fact of the log and lives beside the rate limits
-- (api/src/http/auth/rate_limit.rs), so a replay rebuilds this table exactly.
CREATE TABLE api_keys (
    key_id     TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL,
    name       TEXT NOT NULL,
    scopes     TEXT NOT NULL,          -- comma-separated, sorted: read,trades,notifications,webhooks
    key_hash   TEXT NOT NULL,          -- SHA-256 of the key, hex
    prefix     TEXT NOT NULL,          -- mk_live_ and four characters, for lists
    created_at BIGINT NOT NULL,        -- Unix seconds
    revoked_at BIGINT                  -- Unix seconds; NULL while the key works
);
CREATE UNIQUE INDEX api_keys_hash ON api_keys (key_hash);
CREATE INDEX api_keys_user ON api_keys (user_id, created_at);
