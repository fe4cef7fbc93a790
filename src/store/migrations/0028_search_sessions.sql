-- The sessions whose words are wholly in the search index: every part
-- read since the session was last read from its start wrote what it
-- said. A search indexes the sessions not listed here before it answers
-- (the setting search.index lazy), so ingest need not.
CREATE TABLE said_sessions (session_id TEXT PRIMARY KEY) WITHOUT ROWID;
INSERT INTO said_sessions SELECT DISTINCT session_id FROM said;
-- Who is building the index now (one row at most): another search
-- answers from what is indexed and says what is not; a holder whose
-- process is gone left it to be taken over.
CREATE TABLE said_build (
    one         INTEGER PRIMARY KEY CHECK (one = 1),
    holder      TEXT NOT NULL,    -- `<boot id>/<pid>@<start>`
    started_at  INTEGER NOT NULL
);
