-- Prices set or imported by the user, layered over the embedded
-- table. Rates are integer micro-dollars per million tokens; `tiers` is a JSON
-- array of {"threshold", "input", "output", "cache_read", "cache_write_5m",
-- "cache_write_1h"} in the same unit.
CREATE TABLE pricing (
    model           TEXT PRIMARY KEY,
    input           INTEGER NOT NULL,
    output          INTEGER NOT NULL,
    cache_read      INTEGER NOT NULL,
    cache_write_5m  INTEGER NOT NULL,
    cache_write_1h  INTEGER NOT NULL,
    tiers           TEXT NOT NULL,
    source          TEXT NOT NULL,
    updated_at      INTEGER NOT NULL
) WITHOUT ROWID;
