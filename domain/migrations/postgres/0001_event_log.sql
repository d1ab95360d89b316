-- The event log: the only source of truth. Rows are only ever inserted.
CREATE TABLE event_log (
    position       BIGINT      PRIMARY KEY,      -- global order, contiguous from 1
    stream_id      TEXT        NOT NULL,
    stream_version BIGINT      NOT NULL,         -- 1, 2, 3 ... within the stream
    event_id       UUID        NOT NULL UNIQUE,  -- idempotency key
    event_type     TEXT        NOT NULL,
    schema_version INTEGER     NOT NULL,
    payload        JSON        NOT NULL,         -- json (not jsonb) keeps the exact text the hash covers
    metadata       JSON        NOT NULL,
    recorded_at    TIMESTAMPTZ NOT NULL,
    hash           BYTEA       NOT NULL,         -- SHA-256 chained to the previous row
    UNIQUE (stream_id, stream_version)
);

-- The last position and hash. Appends lock this row, so positions are handed out and become
-- visible in commit order: a reader never sees position n+1 before n (no gaps filling in later).
CREATE TABLE event_log_head (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    position BIGINT  NOT NULL,
    hash     BYTEA   NOT NULL
);
INSERT INTO event_log_head (id, position, hash) VALUES (1, 0, '\x0000000000000000000000000000000000000000000000000000000000000000');

-- One round trip per append. The caller computed positions, versions and hashes from the head
-- and stream versions it believes current; this checks those beliefs under the head lock and
-- either inserts everything or reports why not:
--   ('duplicate', ...)            some event id is already stored (the caller resolves the retry)
--   ('stale', head position/hash) another writer moved the head
--   ('version', stream, actual)   a stream is not at the assumed version (one row per stream)
--   ('ok', new head position/hash)
CREATE FUNCTION event_log_append(
    p_prev_position BIGINT, p_prev_hash BYTEA,
    p_streams TEXT[], p_assumed BIGINT[],
    p_positions BIGINT[], p_stream_ids TEXT[], p_versions BIGINT[], p_event_ids UUID[],
    p_types TEXT[], p_schemas INTEGER[], p_payloads TEXT[], p_metadata TEXT[],
    p_recorded TIMESTAMPTZ[], p_hashes BYTEA[]
) RETURNS TABLE (outcome TEXT, stream_id TEXT, version BIGINT, hash BYTEA)
LANGUAGE plpgsql AS $$
DECLARE
    v_position BIGINT;
    v_hash     BYTEA;
    v_n        INTEGER := cardinality(p_positions);
BEGIN
    -- A stale writer learns so without taking the lock: under contention most attempts end here.
    SELECT h.position, h.hash INTO v_position, v_hash FROM event_log_head h WHERE h.id = 1;
    IF v_position <> p_prev_position OR v_hash <> p_prev_hash THEN
        IF NOT EXISTS (SELECT 1 FROM event_log e WHERE e.event_id = ANY (p_event_ids)) THEN
            RETURN QUERY SELECT 'stale'::TEXT, NULL::TEXT, v_position, v_hash;
            RETURN;
        END IF;
    END IF;

    SELECT h.position, h.hash INTO v_position, v_hash FROM event_log_head h WHERE h.id = 1 FOR UPDATE;
    -- Below, every answer but 'ok' wrote nothing but a row lock: no need to wait for the disk.
    IF EXISTS (SELECT 1 FROM event_log e WHERE e.event_id = ANY (p_event_ids)) THEN
        SET LOCAL synchronous_commit = off;
        RETURN QUERY SELECT 'duplicate'::TEXT, NULL::TEXT, NULL::BIGINT, NULL::BYTEA;
        RETURN;
    END IF;

    IF v_position <> p_prev_position OR v_hash <> p_prev_hash THEN
        SET LOCAL synchronous_commit = off;
        RETURN QUERY SELECT 'stale'::TEXT, NULL::TEXT, v_position, v_hash;
        RETURN;
    END IF;

    RETURN QUERY
        SELECT 'version'::TEXT, s.stream, s.actual, NULL::BYTEA
        FROM (
            SELECT a.stream, a.assumed,
                   COALESCE((SELECT max(e.stream_version) FROM event_log e WHERE e.stream_id = a.stream), 0) AS actual
            FROM unnest(p_streams, p_assumed) AS a(stream, assumed)
        ) s
        WHERE s.actual <> s.assumed;
    IF FOUND THEN
        SET LOCAL synchronous_commit = off;
        RETURN;
    END IF;

    INSERT INTO event_log (position, stream_id, stream_version, event_id, event_type, schema_version,
                           payload, metadata, recorded_at, hash)
    SELECT r.position, r.stream_id, r.version, r.event_id, r.event_type, r.schema_version,
           r.payload::json, r.metadata::json, r.recorded_at, r.hash
    FROM unnest(p_positions, p_stream_ids, p_versions, p_event_ids, p_types, p_schemas, p_payloads,
                p_metadata, p_recorded, p_hashes)
         AS r(position, stream_id, version, event_id, event_type, schema_version, payload, metadata,
              recorded_at, hash);

    UPDATE event_log_head SET position = p_positions[v_n], hash = p_hashes[v_n] WHERE id = 1;
    PERFORM pg_notify('event_log', p_positions[v_n]::TEXT);

    RETURN QUERY SELECT 'ok'::TEXT, NULL::TEXT, p_positions[v_n], p_hashes[v_n];
END;
$$;
