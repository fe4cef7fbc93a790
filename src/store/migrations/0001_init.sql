-- sessionkit schema, version 1: settings, projects, and the transcript projection.
-- Times are INTEGER milliseconds since the Unix epoch, UTC. Projected tables use
-- natural keys only, so a replay is byte-identical.

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

-- What each session's files say about a message, clustered by
-- session so a session's rows are written together. The raw columns are the
-- session's own view; exactly one observation of each message id is `counted`.
-- When several sessions hold a message, the counted row carries the settled
-- values (per-bucket maximum over every observation, the model of the largest
-- output, the earliest time) in the t_ columns; NULL t_ columns mean the row's
-- own values are the settled ones. The result never depends on ingest order.
CREATE TABLE usage_observations (
    session_id         TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    message_id         TEXT NOT NULL,
    agent_id           TEXT,            -- NULL: the main agent (id = session_id)
    record_session_id  TEXT,            -- NULL: the record names session_id itself
    model              TEXT NOT NULL,
    occurred_at        INTEGER,
    input_tokens           INTEGER NOT NULL,
    output_tokens          INTEGER NOT NULL,
    cache_write_5m_tokens  INTEGER NOT NULL,
    cache_write_1h_tokens  INTEGER NOT NULL,
    cache_read_tokens      INTEGER NOT NULL,
    counted                INTEGER NOT NULL,
    t_model                TEXT,
    t_occurred_at          INTEGER,
    t_input_tokens           INTEGER,
    t_output_tokens          INTEGER,
    t_cache_write_5m_tokens  INTEGER,
    t_cache_write_1h_tokens  INTEGER,
    t_cache_read_tokens      INTEGER,
    cost_nanousd             INTEGER,
    PRIMARY KEY (session_id, message_id)
) WITHOUT ROWID;
CREATE INDEX usage_observations_message ON usage_observations(message_id);

-- Messages whose counted observation must be recomputed. A large ingest
-- defers this (and the message index) to its end; a run that was killed
-- first leaves the ids here, and the next run finishes the work.
CREATE TABLE pending_settle (
    message_id  TEXT PRIMARY KEY
) WITHOUT ROWID;

-- One row per API message id in the whole database.
CREATE VIEW token_usage AS
    SELECT message_id, session_id, COALESCE(agent_id, session_id) AS agent_id,
           COALESCE(t_model, model) AS model,
           CASE WHEN t_model IS NULL THEN occurred_at ELSE t_occurred_at END AS occurred_at,
           COALESCE(t_input_tokens, input_tokens) AS input_tokens,
           COALESCE(t_output_tokens, output_tokens) AS output_tokens,
           COALESCE(t_cache_write_5m_tokens, cache_write_5m_tokens) AS cache_write_5m_tokens,
           COALESCE(t_cache_write_1h_tokens, cache_write_1h_tokens) AS cache_write_1h_tokens,
           COALESCE(t_cache_read_tokens, cache_read_tokens) AS cache_read_tokens,
           cost_nanousd
    FROM usage_observations WHERE counted = 1;

-- token_usage summed per session, agent, model and UTC hour (hours since the
-- epoch; -1 when the message has no time), so days of any zone whose offset is
-- whole hours come from it. Kept current in
-- the same transaction as every change to it, so reports read a few rows per
-- session instead of every message.
CREATE TABLE usage_rollup (
    session_id             TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    agent_id               TEXT NOT NULL,
    model                  TEXT NOT NULL,
    hour                   INTEGER NOT NULL,
    messages               INTEGER NOT NULL,
    input_tokens           INTEGER NOT NULL,
    output_tokens          INTEGER NOT NULL,
    cache_write_5m_tokens  INTEGER NOT NULL,
    cache_write_1h_tokens  INTEGER NOT NULL,
    cache_read_tokens      INTEGER NOT NULL,
    first_at               INTEGER,
    last_at                INTEGER,
    PRIMARY KEY (session_id, agent_id, model, hour)
) WITHOUT ROWID;

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
