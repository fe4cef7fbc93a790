-- What Claude Code's status line said of the account's limits, one row per
-- change (append-only): the model, the five-hour and seven-day windows'
-- used share and reset times, the context window used, and the session's
-- cost as Claude Code states it. Only a local store keeps their history.
CREATE TABLE rate_limit_snapshots (
    snapshot_id          INTEGER PRIMARY KEY,
    observed_at          INTEGER NOT NULL,
    harness              TEXT NOT NULL,
    session_id           TEXT,
    model                TEXT,
    five_hour_pct        REAL,
    five_hour_resets_at  INTEGER,
    seven_day_pct        REAL,
    seven_day_resets_at  INTEGER,
    context_pct          REAL,
    stated_cost_nanousd  INTEGER
);
CREATE INDEX rate_limit_snapshots_at ON rate_limit_snapshots (observed_at);
