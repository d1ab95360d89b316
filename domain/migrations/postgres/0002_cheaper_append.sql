-- The same contract as 0001's event_log_append, cheaper on the path every append takes:
--   * the version check probes each stream's index once and builds the JSON report only when a
--     stream is off (it ran json_agg and probed twice on every append);
--   * one row through OUT parameters instead of a set-returning function.
-- A single-event append spent about a fifth less time in the server.
DROP FUNCTION event_log_append(BIGINT, BYTEA, TEXT[], BIGINT[], BIGINT[], TEXT[], BIGINT[], UUID[], TEXT[],
                               INTEGER[], TEXT[], TEXT[], TIMESTAMPTZ[], BYTEA[]);

-- Returns ('ok', last position, last hash) or ('stale', head position, head hash); raises MK001
-- (actual versions as JSON), MK002 or 23505 as 0001 describes.
CREATE FUNCTION event_log_append(
    p_prev_position BIGINT, p_prev_hash BYTEA,
    p_streams TEXT[], p_assumed BIGINT[],
    p_positions BIGINT[], p_stream_ids TEXT[], p_versions BIGINT[], p_event_ids UUID[],
    p_types TEXT[], p_schemas INTEGER[], p_payloads TEXT[], p_metadata TEXT[],
    p_recorded TIMESTAMPTZ[], p_hashes BYTEA[],
    OUT outcome TEXT, OUT head_position BIGINT, OUT head_hash BYTEA
)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_n INTEGER := cardinality(p_positions);
BEGIN
    -- Compare-and-swap on the head row (see 0001): the row lock orders commits.
    UPDATE event_log_head h SET position = p_positions[v_n], hash = p_hashes[v_n]
    WHERE h.id = 1 AND h.position = p_prev_position AND h.hash = p_prev_hash;
    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM event_log e WHERE e.event_id = ANY (p_event_ids)) THEN
            RAISE EXCEPTION 'event id already stored' USING ERRCODE = 'MK002';
        END IF;
        SELECT 'stale', h.position, h.hash INTO outcome, head_position, head_hash FROM event_log_head h WHERE h.id = 1;
        RETURN;
    END IF;

    IF EXISTS (
        SELECT 1 FROM unnest(p_streams, p_assumed) AS a(stream, assumed)
        WHERE a.assumed <> COALESCE((SELECT max(e.stream_version) FROM event_log e WHERE e.stream_id = a.stream), 0)
    ) THEN
        IF EXISTS (SELECT 1 FROM event_log e WHERE e.event_id = ANY (p_event_ids)) THEN
            RAISE EXCEPTION 'event id already stored' USING ERRCODE = 'MK002';
        END IF;
        RAISE EXCEPTION '%', (
            SELECT json_agg(json_build_array(a.stream, a.actual))::TEXT
            FROM (SELECT s.stream, s.assumed,
                         COALESCE((SELECT max(e.stream_version) FROM event_log e WHERE e.stream_id = s.stream), 0) AS actual
                  FROM unnest(p_streams, p_assumed) AS s(stream, assumed)) a
            WHERE a.actual <> a.assumed
        ) USING ERRCODE = 'MK001';
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
    outcome := 'ok';
    head_position := p_positions[v_n];
    head_hash := p_hashes[v_n];
END;
$$;
