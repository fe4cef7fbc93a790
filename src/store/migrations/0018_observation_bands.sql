-- A session of any size at the speed of small ones. A session's
-- observations were keyed (session_id, message_id): message ids are random,
-- so every later part of a huge session (and every tail resume of a large
-- one) inserted its rows all over the session's key range and rewrote most
-- of its pages on each commit (a 4 GiB session wrote 0.9 GB of WAL and
-- checkpoint for a 45 MB table). Rows now carry the `band` of the session
-- they were written into: a session's rows fill one band until it holds
-- about `BAND_ROWS` (store/delta.rs), then a new one starts, so new rows
-- append at the end of the session's range. A message still has at most one
-- row per session: the writer looks a held message up in every band before
-- it inserts. Existing rows are band 0. The key's columns come first, in
-- key order: SQLite before 3.41 reports NOT NULL columns of a WITHOUT ROWID
-- table as NULL in `PRAGMA integrity_check` when they do not.
DROP VIEW token_usage;
CREATE TABLE usage_observations_banded (
    session_id         TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    band               INTEGER NOT NULL DEFAULT 0,
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
    billing                  INTEGER,
    web_searches             INTEGER,
    PRIMARY KEY (session_id, band, message_id)
) WITHOUT ROWID;
INSERT INTO usage_observations_banded(session_id, message_id, agent_id, record_session_id, model,
        occurred_at, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens,
        cache_read_tokens, counted, t_model, t_occurred_at, t_input_tokens, t_output_tokens,
        t_cache_write_5m_tokens, t_cache_write_1h_tokens, t_cache_read_tokens, cost_nanousd, billing,
        web_searches, band)
    SELECT session_id, message_id, agent_id, record_session_id, model,
        occurred_at, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens,
        cache_read_tokens, counted, t_model, t_occurred_at, t_input_tokens, t_output_tokens,
        t_cache_write_5m_tokens, t_cache_write_1h_tokens, t_cache_read_tokens, cost_nanousd, billing,
        web_searches, 0
    FROM usage_observations;
DROP TABLE usage_observations;
ALTER TABLE usage_observations_banded RENAME TO usage_observations;
CREATE INDEX usage_observations_message ON usage_observations(message_id);

-- The counted rows with their band, for the writer's own look-ups by key;
-- token_usage (unchanged: one row per message id) reads through it.
CREATE VIEW usage_counted AS
    SELECT message_id, session_id, COALESCE(agent_id, session_id) AS agent_id,
           COALESCE(t_model, model) AS model,
           CASE WHEN t_model IS NULL THEN occurred_at ELSE t_occurred_at END AS occurred_at,
           COALESCE(t_input_tokens, input_tokens) AS input_tokens,
           COALESCE(t_output_tokens, output_tokens) AS output_tokens,
           COALESCE(t_cache_write_5m_tokens, cache_write_5m_tokens) AS cache_write_5m_tokens,
           COALESCE(t_cache_write_1h_tokens, cache_write_1h_tokens) AS cache_write_1h_tokens,
           COALESCE(t_cache_read_tokens, cache_read_tokens) AS cache_read_tokens,
           cost_nanousd, billing, web_searches, band
    FROM usage_observations WHERE counted = 1;
CREATE VIEW token_usage AS
    SELECT message_id, session_id, agent_id, model, occurred_at, input_tokens, output_tokens,
           cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens,
           cost_nanousd, billing, web_searches
    FROM usage_counted;
