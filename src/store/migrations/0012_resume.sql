-- Tail resume (issue 15): for each ingested session, where each of its files
-- was read to (offset, identity, a hash of the bytes before the offset) and
-- the session-wide facts needed to read on from there, as JSON. A session
-- whose files only grew is read from these offsets; any doubt re-reads it.
CREATE TABLE ingest_resume (
    session_id  TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    revision    INTEGER NOT NULL,
    state       TEXT NOT NULL
);
