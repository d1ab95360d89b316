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
-- and stream versions it believes current; this checks those beliefs and inserts everything, or
-- nothing:
--   returns ('ok', last position, last hash)      appended
--   returns ('stale', head position, head hash)   another writer moved the head; nothing locked
--   raises MK001 with the actual versions as JSON a stream is not at the assumed version
--   raises MK002                                  an event id is already stored (a retry)
--   raises 23505 on event_log_event_id_key         the same, found by the insert itself
-- Raising undoes the head update, so every failure leaves the log as it was.
CREATE FUNCTION event_log_append(
    p_prev_position BIGINT, p_prev_hash BYTEA,
    p_streams TEXT[], p_assumed BIGINT[],
    p_positions BIGINT[], p_stream_ids TEXT[], p_versions BIGINT[], p_event_ids UUID[],
    p_types TEXT[], p_schemas INTEGER[], p_payloads TEXT[], p_metadata TEXT[],
    p_recorded TIMESTAMPTZ[], p_hashes BYTEA[]
) RETURNS TABLE (outcome TEXT, head_position BIGINT, head_hash BYTEA)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_n      INTEGER := cardinality(p_positions);
    v_actual JSON;
BEGIN
    -- Compare-and-swap on the head row: it waits for a concurrent appender to commit, then
    -- matches only if nobody moved the head. The row lock it takes orders commits, so readers
    -- see positions appear in order, never a gap that fills in later.
    UPDATE event_log_head h SET position = p_positions[v_n], hash = p_hashes[v_n]
    WHERE h.id = 1 AND h.position = p_prev_position AND h.hash = p_prev_hash;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM event_log e WHERE e.event_id = ANY (p_event_ids)) THEN
            RAISE EXCEPTION 'event id already stored' USING ERRCODE = 'MK002';
        END IF;
        RETURN QUERY SELECT 'stale'::TEXT, h.position, h.hash FROM event_log_head h WHERE h.id = 1;
        RETURN;
    END IF;

    SELECT json_agg(json_build_array(s.stream, s.actual)) INTO v_actual
    FROM (
        SELECT a.stream, a.assumed,
               COALESCE((SELECT max(e.stream_version) FROM event_log e WHERE e.stream_id = a.stream), 0) AS actual
        FROM unnest(p_streams, p_assumed) AS a(stream, assumed)
    ) s
    WHERE s.actual <> s.assumed;
    IF v_actual IS NOT NULL THEN
        IF EXISTS (SELECT 1 FROM event_log e WHERE e.event_id = ANY (p_event_ids)) THEN
            RAISE EXCEPTION 'event id already stored' USING ERRCODE = 'MK002';
        END IF;
        RAISE EXCEPTION '%', v_actual::TEXT USING ERRCODE = 'MK001';
    END IF;

    INSERT INTO event_log (position, stream_id, stream_version, event_id, event_type, schema_version,
                           payload, metadata, recorded_at, hash)
    SELECT r.position, r.stream_id, r.version, r.event_id, r.event_type, r.schema_version,
           r.payload::json, r.metadata::json, r.recorded_at, r.hash
    FROM unnest(p_positions, p_stream_ids, p_versions, p_event_ids, p_types, p_schemas, p_payloads,
                p_metadata, p_recorded, p_hashes)
         AS r(position, stream_id, version, event_id, event_type, schema_version, payload, metadata,
              recorded_at, hash);

    PERFORM pg_notify('event_log', p_positions[v_n]::TEXT);
    RETURN QUERY SELECT 'ok'::TEXT, p_positions[v_n], p_hashes[v_n];
END;
$$;
