-- sessionkit schema, version 1: settings, projects, and the transcript projection.
-- Times are INTEGER milliseconds since the Unix epoch, UTC. Projected tables use
-- natural keys only, so a replay is byte-identical (DESIGN.md, Data model).

CREATE TABLE settings (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL,
    updated_at  INTEGER NOT NULL
) WITHOUT ROWID;

-- project_of(cwd), computed once per cwd and remembered.
CREATE TABLE projects (
    cwd      TEXT PRIMARY KEY,
    project  TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE sessions (
    session_id        TEXT PRIMARY KEY,
    harness           TEXT NOT NULL,
    project_slug      TEXT NOT NULL,
    cwd               TEXT,
    project           TEXT,
    git_branch        TEXT,
    harness_version   TEXT,
    started_at        INTEGER,
    last_activity_at  INTEGER,
    status            TEXT NOT NULL,
    status_at         INTEGER,
    records           INTEGER NOT NULL,
    unknown_records   INTEGER NOT NULL,
    synthetic_messages INTEGER NOT NULL,
    bytes             INTEGER NOT NULL,
    degraded_lines    INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_last_activity ON sessions(last_activity_at);

CREATE TABLE agents (
    session_id        TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    agent_id          TEXT NOT NULL,
    parent_agent_id   TEXT,
    layout            TEXT NOT NULL,
    agent_type        TEXT,
    description       TEXT,
    spawn_depth       INTEGER,
    sidecar_tool_use_id TEXT,
    workflow_id       TEXT,
    transcript_path   TEXT NOT NULL,
    first_seen_at     INTEGER,
    last_seen_at      INTEGER,
    status            TEXT NOT NULL,
    status_at         INTEGER,
    outcome_cause     TEXT,
    records           INTEGER NOT NULL,
    PRIMARY KEY (session_id, agent_id)
) WITHOUT ROWID;

-- What each session's files say about a message (Decision 2). token_usage is
-- settled from these, so the result never depends on ingest order.
CREATE TABLE usage_observations (
    message_id         TEXT NOT NULL,
    session_id         TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    agent_id           TEXT NOT NULL,
    record_session_id  TEXT NOT NULL,
    model              TEXT NOT NULL,
    occurred_at        INTEGER,
    input_tokens           INTEGER NOT NULL,
    output_tokens          INTEGER NOT NULL,
    cache_write_5m_tokens  INTEGER NOT NULL,
    cache_write_1h_tokens  INTEGER NOT NULL,
    cache_read_tokens      INTEGER NOT NULL,
    PRIMARY KEY (message_id, session_id)
) WITHOUT ROWID;
CREATE INDEX usage_observations_session ON usage_observations(session_id);

-- One row per API message id in the whole database.
CREATE TABLE token_usage (
    message_id             TEXT PRIMARY KEY,
    session_id             TEXT NOT NULL,
    agent_id               TEXT NOT NULL,
    model                  TEXT NOT NULL,
    occurred_at            INTEGER,
    input_tokens           INTEGER NOT NULL,
    output_tokens          INTEGER NOT NULL,
    cache_write_5m_tokens  INTEGER NOT NULL,
    cache_write_1h_tokens  INTEGER NOT NULL,
    cache_read_tokens      INTEGER NOT NULL,
    cost_nanousd           INTEGER
) WITHOUT ROWID;
CREATE INDEX token_usage_session ON token_usage(session_id, agent_id);
CREATE INDEX token_usage_time ON token_usage(occurred_at);

CREATE TABLE compactions (
    session_id   TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    file         TEXT NOT NULL,
    line         INTEGER NOT NULL,
    agent_id     TEXT NOT NULL,
    occurred_at  INTEGER,
    trigger      TEXT,
    pre_tokens   INTEGER,
    PRIMARY KEY (session_id, file, line)
) WITHOUT ROWID;

CREATE TABLE degraded_lines (
    session_id  TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    file        TEXT NOT NULL,
    line        INTEGER NOT NULL,
    reason      TEXT NOT NULL,
    PRIMARY KEY (session_id, file, line)
) WITHOUT ROWID;

-- Fingerprints of projected sessions (lstat only); a parser revision change
-- invalidates them.
CREATE TABLE ingest_checkpoints (
    session_id   TEXT PRIMARY KEY,
    scope        TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    revision     INTEGER NOT NULL,
    recorded_at  INTEGER NOT NULL
) WITHOUT ROWID;

-- Sessions that failed to ingest: retried, quarantined after three failures
-- until their files change.
CREATE TABLE ingest_failures (
    session_id      TEXT PRIMARY KEY,
    scope           TEXT NOT NULL,
    project_slug    TEXT NOT NULL,
    fingerprint     TEXT NOT NULL,
    attempts        INTEGER NOT NULL,
    quarantined     INTEGER NOT NULL,
    reason          TEXT NOT NULL,
    last_attempt_at INTEGER NOT NULL
) WITHOUT ROWID;

-- The owner of an old-layout <slug>/agent-<id>.jsonl, learned on first read.
CREATE TABLE flat_agent_owners (
    scope       TEXT NOT NULL,
    rel_path    TEXT NOT NULL,
    session_id  TEXT,
    PRIMARY KEY (scope, rel_path)
) WITHOUT ROWID;
