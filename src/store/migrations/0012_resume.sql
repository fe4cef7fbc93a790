-- Tail resume: for each ingested session, where each of its files
-- was read to (offset, identity, a hash of the bytes before the offset) and
-- the session-wide facts needed to read on from there, as JSON. A session
-- whose files only grew is read from these offsets; any doubt re-reads it.
CREATE TABLE ingest_resume (
    session_id  TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    revision    INTEGER NOT NULL,
    state       TEXT NOT NULL
);

-- How a message is billed besides its tokens (Claude Code 2.1.3xx `usage`):
-- bit 1 fast speed, bit 2 US-only inference; web searches per request.
-- NULL is the common case (standard, global, none).
ALTER TABLE usage_observations ADD COLUMN billing INTEGER;
ALTER TABLE usage_observations ADD COLUMN web_searches INTEGER;

DROP VIEW token_usage;
CREATE VIEW token_usage AS
    SELECT message_id, session_id, COALESCE(agent_id, session_id) AS agent_id,
           COALESCE(t_model, model) AS model,
           CASE WHEN t_model IS NULL THEN occurred_at ELSE t_occurred_at END AS occurred_at,
           COALESCE(t_input_tokens, input_tokens) AS input_tokens,
           COALESCE(t_output_tokens, output_tokens) AS output_tokens,
           COALESCE(t_cache_write_5m_tokens, cache_write_5m_tokens) AS cache_write_5m_tokens,
           COALESCE(t_cache_write_1h_tokens, cache_write_1h_tokens) AS cache_write_1h_tokens,
           COALESCE(t_cache_read_tokens, cache_read_tokens) AS cache_read_tokens,
           cost_nanousd, billing, web_searches
    FROM usage_observations WHERE counted = 1;

-- What the harness itself says a session cost (Claude Code 2.1.3xx
-- `cost-state`, the last one): shown beside sessionkit's own figure and
-- compared by `check`, never added to totals. `models` is JSON:
-- [{model, input, output, cache_write_5m, cache_write_1h, cache_read,
--   web_searches, cost_nanousd}].
CREATE TABLE harness_costs (
    session_id    TEXT PRIMARY KEY REFERENCES sessions(session_id) ON DELETE CASCADE,
    reported_at   INTEGER,
    cost_nanousd  INTEGER NOT NULL,
    models        TEXT NOT NULL
) WITHOUT ROWID;

-- The corpus roots ingest has read from: `check` and `replay` without
-- `--root` read these again.
CREATE TABLE ingest_roots (
    path              TEXT PRIMARY KEY,
    last_ingested_at  INTEGER NOT NULL
) WITHOUT ROWID;
