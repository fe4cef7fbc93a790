-- What the endpoint judge spent, per UTC day, so the daily cap
-- (closer.max_daily_usd) is checked before every call.
CREATE TABLE closer_spend (
    day            TEXT PRIMARY KEY,          -- YYYY-MM-DD, UTC
    calls          INTEGER NOT NULL,
    input_tokens   INTEGER NOT NULL,
    output_tokens  INTEGER NOT NULL,
    cost_nanousd   INTEGER NOT NULL           -- unpriced models count 0 here and are said so
) WITHOUT ROWID;
