-- Live state from hooks: every hook delivery, append-only, and the
-- index the watchdog reads.

-- One row per stored hook delivery. `payload` is the redacted event as
-- canonical JSON; `event_key` is sha256 over the canonical JSON of the
-- redacted payload, event, session and delivery id (when one was given).
-- `event` is the name as the harness sent it; `session_id`/`agent_id` are the
-- normalized ids (agent_id NULL: the event names no agent).
CREATE TABLE events_raw (
    id            INTEGER PRIMARY KEY,
    event_key     BLOB NOT NULL,
    has_delivery_id INTEGER NOT NULL,
    harness       TEXT NOT NULL,
    event         TEXT NOT NULL,
    session_id    TEXT,
    agent_id      TEXT,
    received_at   INTEGER NOT NULL,
    payload       TEXT NOT NULL
);
-- A delivery id makes a delivery unique forever; without one, the 5-second
-- duplicate window is checked inside the writing transaction.
CREATE UNIQUE INDEX events_raw_delivery ON events_raw(event_key) WHERE has_delivery_id = 1;
CREATE INDEX events_raw_key ON events_raw(event_key, received_at);
CREATE INDEX events_raw_session ON events_raw(session_id, id);

CREATE TRIGGER events_raw_no_update BEFORE UPDATE ON events_raw
BEGIN
    SELECT RAISE(ABORT, 'events_raw is append-only');
END;
CREATE TRIGGER events_raw_no_delete BEFORE DELETE ON events_raw
BEGIN
    SELECT RAISE(ABORT, 'events_raw is append-only');
END;

-- The watchdog's candidates: live agents by the time of their evidence.
CREATE INDEX agents_live ON agents(status_at) WHERE status IN ('working', 'waiting');
