-- The agent tree: who spawned whom, proven by which evidence.
-- Rebuilt with the session in one transaction: no stale edge.

CREATE TABLE orchestration_edges (
    session_id       TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    child_agent_id   TEXT NOT NULL,
    parent_agent_id  TEXT NOT NULL,
    join_path        TEXT NOT NULL,
    tool_use_id      TEXT,
    PRIMARY KEY (session_id, child_agent_id)
) WITHOUT ROWID;

-- Every call that spawns a subagent (Task, Agent, Workflow) and its result.
-- `reported_*` is what the parent's toolUseResult says the child spent: shown
-- as "reported by parent" when no child transcript exists, never summed.
CREATE TABLE spawn_calls (
    session_id          TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    tool_use_id         TEXT NOT NULL,
    owner_agent_id      TEXT NOT NULL,
    tool                TEXT NOT NULL,
    subagent_type       TEXT,
    description         TEXT,
    called_at           INTEGER,
    result_at           INTEGER,
    is_error            INTEGER,
    child_agent_id      TEXT,
    reported_total_tokens          INTEGER,
    reported_input_tokens          INTEGER,
    reported_output_tokens         INTEGER,
    reported_cache_write_5m_tokens INTEGER,
    reported_cache_write_1h_tokens INTEGER,
    reported_cache_read_tokens     INTEGER,
    PRIMARY KEY (session_id, tool_use_id)
) WITHOUT ROWID;

ALTER TABLE agents ADD COLUMN join_path TEXT;
ALTER TABLE agents ADD COLUMN spawn_tool_use_id TEXT;
