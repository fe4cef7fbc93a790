-- Reasoning tokens as their own figure: of a message's output, how many the
-- model spent thinking, where the transcript says (Codex, Gemini CLI, Qwen
-- Code, OpenCode, Copilot CLI). Part of the output already: never added to
-- a total. NULL is 0 (older rows, and harnesses that do not say).
ALTER TABLE usage_observations ADD COLUMN reasoning_tokens INTEGER;
ALTER TABLE usage_observations ADD COLUMN t_reasoning_tokens INTEGER;
ALTER TABLE usage_rollup ADD COLUMN reasoning_tokens INTEGER NOT NULL DEFAULT 0;

DROP VIEW token_usage;
DROP VIEW usage_counted;
CREATE VIEW usage_counted AS
    SELECT message_id, session_id, COALESCE(agent_id, session_id) AS agent_id,
           COALESCE(t_model, model) AS model,
           CASE WHEN t_model IS NULL THEN occurred_at ELSE t_occurred_at END AS occurred_at,
           COALESCE(t_input_tokens, input_tokens) AS input_tokens,
           COALESCE(t_output_tokens, output_tokens) AS output_tokens,
           COALESCE(t_cache_write_5m_tokens, cache_write_5m_tokens) AS cache_write_5m_tokens,
           COALESCE(t_cache_write_1h_tokens, cache_write_1h_tokens) AS cache_write_1h_tokens,
           COALESCE(t_cache_read_tokens, cache_read_tokens) AS cache_read_tokens,
           cost_nanousd, billing, web_searches, band,
           COALESCE(t_reasoning_tokens, reasoning_tokens, 0) AS reasoning_tokens
    FROM usage_observations WHERE counted = 1;
CREATE VIEW token_usage AS
    SELECT message_id, session_id, agent_id, model, occurred_at, input_tokens, output_tokens,
           cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens,
           cost_nanousd, billing, web_searches, reasoning_tokens
    FROM usage_counted;
