-- Where ingest stopped reading each session (ingest_resume) is keyed by the
-- session alone, WITHOUT ROWID like every other table ingest writes: as a
-- rowid table its rows were stored in the order ingest's threads finished,
-- so two fresh ingests of one corpus stored (and `.dump` printed) them in
-- different orders.
CREATE TABLE ingest_resume_by_key (
    session_id  TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    revision    INTEGER NOT NULL,
    state       TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO ingest_resume_by_key(session_id, revision, state)
    SELECT session_id, revision, state FROM ingest_resume ORDER BY session_id;
DROP TABLE ingest_resume;
ALTER TABLE ingest_resume_by_key RENAME TO ingest_resume;
