-- Appends now decide inside `BEGIN IMMEDIATE`, under SQLite's write lock, from the log itself,
-- and move the head once per append: the per-row guards and head update of 0002 only cost time.
-- A binary from before this migration refuses to open a migrated file (unknown migration), so
-- no writer is left relying on the guards.
DROP TRIGGER event_log_guard;
DROP TRIGGER event_log_advance;
