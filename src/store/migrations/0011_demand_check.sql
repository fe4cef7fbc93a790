-- memory_demand rebuilt with its kind CHECK spelled as comparisons: SQLite
-- evaluates a CHECK's `IN (list)` of more than two values by building a
-- temporary b-tree for every row written, and a briefing writes one row per
-- memory it shows. Same columns, keys, index and rows.
CREATE TABLE memory_demand_0011 (
    kind        TEXT NOT NULL CHECK (kind = 'show' OR kind = 'recall' OR kind = 'prompt' OR kind = 'briefing'),
    run_key     TEXT NOT NULL,                   -- the run id, else 'day:YYYY-MM-DD'
    memory_id   TEXT NOT NULL,
    weight      REAL NOT NULL,
    created_at  INTEGER NOT NULL,
    project     TEXT,                            -- the memory's project (0008)
    PRIMARY KEY (kind, run_key, memory_id)
) WITHOUT ROWID;
INSERT INTO memory_demand_0011(kind, run_key, memory_id, weight, created_at, project)
    SELECT kind, run_key, memory_id, weight, created_at, project FROM memory_demand;
DROP TABLE memory_demand;
ALTER TABLE memory_demand_0011 RENAME TO memory_demand;
CREATE INDEX memory_demand_project ON memory_demand(project, created_at) WHERE weight > 0;
