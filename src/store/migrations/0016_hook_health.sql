-- What `hooks doctor` and `status` report about the installed hooks.
-- hook_failures: a hook that failed (after answering its harness) records
-- why, best effort, the newest 200 kept.
CREATE TABLE hook_failures (
    id       INTEGER PRIMARY KEY,
    at       INTEGER NOT NULL,              -- ms since the epoch
    harness  TEXT NOT NULL,
    event    TEXT NOT NULL,
    message  TEXT NOT NULL                  -- sanitized and redacted
);
-- ingest_backlog: a transcript a hook could not catch up within its budget,
-- left for the next `ingest` (which clears the row when it reads the file).
CREATE TABLE ingest_backlog (
    path          TEXT PRIMARY KEY,
    session_id    TEXT,
    bytes_behind  INTEGER NOT NULL,
    at            INTEGER NOT NULL,
    reason        TEXT NOT NULL
) WITHOUT ROWID;
