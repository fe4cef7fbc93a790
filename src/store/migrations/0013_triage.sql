-- The turn-end triage counts a run's Stop heartbeats (the
-- debounce: three turns, or ten minutes since the run opened).
ALTER TABLE agent_sessions ADD COLUMN stop_turns INTEGER NOT NULL DEFAULT 0;
