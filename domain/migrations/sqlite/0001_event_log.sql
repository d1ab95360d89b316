-- The event log: the only source of truth. Rows are only ever inserted.
CREATE TABLE event_log (
    position       INTEGER PRIMARY KEY,          -- global order, contiguous from 1
    stream_id      TEXT    NOT NULL,
    stream_version INTEGER NOT NULL,             -- 1, 2, 3 ... within the stream
    event_id       BLOB    NOT NULL UNIQUE,      -- idempotency key (16-byte uuid)
    event_type     TEXT    NOT NULL,
    schema_version INTEGER NOT NULL,
    payload        TEXT    NOT NULL,             -- JSON, byte for byte as appended
    metadata       TEXT    NOT NULL,             -- JSON: actor, correlation, causation, chain
    recorded_at    INTEGER NOT NULL,             -- microseconds since the Unix epoch
    hash           BLOB    NOT NULL,             -- SHA-256 chained to the previous row
    UNIQUE (stream_id, stream_version)
);

-- The last position and hash, updated in the same transaction as every append: it serializes
-- writers and lets `verify` notice a deleted tail.
CREATE TABLE event_log_head (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    position INTEGER NOT NULL,
    hash     BLOB    NOT NULL
);
INSERT INTO event_log_head (id, position, hash) VALUES (1, 0, zeroblob(32));
