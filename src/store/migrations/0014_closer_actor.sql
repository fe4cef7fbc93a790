-- The closer's resolves carry actor `closer` (its own name in the
-- audit log, apart from a person's `cli` and a worker's `worker`). SQLite
-- cannot change a CHECK in place: the table is rebuilt with the same rows,
-- ids, order, indexes and append-only triggers.
CREATE TABLE memory_events_next (
    seq             INTEGER PRIMARY KEY,
    event_id        TEXT NOT NULL UNIQUE,
    memory_id       TEXT NOT NULL REFERENCES memories(memory_id),
    kind            TEXT NOT NULL CHECK (kind IN ('create', 'revise', 'supersede', 'resolve', 'unresolve',
                        'archive', 'import', 'redact')),
    actor           TEXT NOT NULL CHECK (actor IN ('cli', 'hook', 'worker', 'importer', 'closer')),
    session_run_id  TEXT,
    reason          TEXT,
    created_at      INTEGER NOT NULL
);
INSERT INTO memory_events_next(seq, event_id, memory_id, kind, actor, session_run_id, reason, created_at)
    SELECT seq, event_id, memory_id, kind, actor, session_run_id, reason, created_at FROM memory_events;
DROP TABLE memory_events;
ALTER TABLE memory_events_next RENAME TO memory_events;
CREATE INDEX memory_events_memory ON memory_events(memory_id, seq);
CREATE INDEX memory_events_run ON memory_events(session_run_id, seq) WHERE session_run_id IS NOT NULL;
CREATE TRIGGER memory_events_no_update BEFORE UPDATE ON memory_events
BEGIN
    SELECT RAISE(ABORT, 'memory_events is append-only');
END;
CREATE TRIGGER memory_events_no_delete BEFORE DELETE ON memory_events
BEGIN
    SELECT RAISE(ABORT, 'memory_events is append-only');
END;
