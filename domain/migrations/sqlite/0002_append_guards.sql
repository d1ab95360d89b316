-- Guards that make one INSERT statement a safe append by itself (the fast path): a writer that
-- prepared positions and versions from a stale view is refused, and the statement, run in its
-- own implicit transaction, writes nothing. The writer then takes the careful path.
CREATE TRIGGER event_log_guard BEFORE INSERT ON event_log
BEGIN
    SELECT RAISE(ABORT, 'event_log: stale head')
    WHERE NEW.position <> (SELECT position FROM event_log_head WHERE id = 1) + 1;
    SELECT RAISE(ABORT, 'event_log: version gap')
    WHERE NEW.stream_version > 1 AND NOT EXISTS (
        SELECT 1 FROM event_log WHERE stream_id = NEW.stream_id AND stream_version = NEW.stream_version - 1);
END;

-- The head follows every insert, in the same transaction.
CREATE TRIGGER event_log_advance AFTER INSERT ON event_log
BEGIN
    UPDATE event_log_head SET position = NEW.position, hash = NEW.hash WHERE id = 1;
END;
