-- What `export --otlp-endpoint` has sent, per endpoint: each message's
-- token and cost points once, and each session's spans as of its last
-- activity (a session that moved is sent again; span ids are derived, so a
-- backend keeps one copy).
CREATE TABLE otlp_sent_messages (
    endpoint    TEXT NOT NULL,
    session_id  TEXT NOT NULL,
    message_id  TEXT NOT NULL,
    PRIMARY KEY (endpoint, session_id, message_id)
) WITHOUT ROWID;
CREATE TABLE otlp_sent_sessions (
    endpoint          TEXT NOT NULL,
    session_id        TEXT NOT NULL,
    last_activity_at  INTEGER,
    PRIMARY KEY (endpoint, session_id)
) WITHOUT ROWID;
