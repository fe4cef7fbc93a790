-- What `push` last sent of each session to each team database: the
-- session's mark (its files' fingerprint, status and usage sums) when the
-- database committed it. A session whose mark differs is sent again (every
-- write there is an upsert, so sending twice changes nothing).
CREATE TABLE push_marks (
    target      TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    mark        TEXT NOT NULL,
    pushed_at   INTEGER NOT NULL,
    PRIMARY KEY (target, session_id)
) WITHOUT ROWID;
