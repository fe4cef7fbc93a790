-- Agent runs: one
-- per (agent, session_id), with a lease, an activation epoch that fences
-- asynchronous work, and what the triage and the closer will need.
CREATE TABLE agent_sessions (
    run_id                  TEXT PRIMARY KEY,        -- UUIDv7: the session_run_id
    agent                   TEXT NOT NULL,           -- harness name, kebab-case, <= 64
    session_id              TEXT NOT NULL,           -- <= 256
    source                  TEXT NOT NULL CHECK (source IN ('startup', 'resume')),
    project                 TEXT,
    scope                   TEXT,
    selector                TEXT NOT NULL,           -- canonical JSON
    opened_at               INTEGER NOT NULL,
    closed_at               INTEGER,
    last_seen_at            INTEGER NOT NULL,
    activation_epoch        INTEGER NOT NULL DEFAULT 1,
    triage_status           TEXT NOT NULL DEFAULT 'idle'
                                CHECK (triage_status IN ('idle', 'pending', 'completed', 'expired', 'overflowed')),
    triage_attempt_id       TEXT,
    triage_armed_at         INTEGER,
    triage_attempt_log      TEXT NOT NULL DEFAULT '[]',
    triage_attempt_count    INTEGER NOT NULL DEFAULT 0,
    last_triaged_event_ids  TEXT NOT NULL DEFAULT '[]',
    briefing_delivered_at   INTEGER,
    briefed_memories        TEXT NOT NULL DEFAULT '[]',
    last_message_excerpt    TEXT,
    needs_look              INTEGER NOT NULL DEFAULT 0,
    closer_failure_count    INTEGER NOT NULL DEFAULT 0,
    closer_next_attempt_at  INTEGER,
    UNIQUE (agent, session_id)
) WITHOUT ROWID;
CREATE INDEX agent_sessions_lease ON agent_sessions(last_seen_at) WHERE closed_at IS NULL;
CREATE INDEX agent_sessions_live_project ON agent_sessions(project, last_seen_at) WHERE closed_at IS NULL;
-- A briefing looks up its project's previous briefing.
CREATE INDEX agent_sessions_briefed ON agent_sessions(project, briefing_delivered_at)
    WHERE briefing_delivered_at IS NOT NULL;
CREATE INDEX agent_sessions_closer ON agent_sessions(closed_at)
    WHERE closed_at IS NOT NULL AND triage_status <> 'overflowed' AND (triage_status <> 'completed' OR needs_look);
