-- Curated memory.
-- A memory is never deleted: `revise` supersedes it (valid_to set, successor
-- linked), `archive` retires it. Live = valid_to IS NULL AND status = 'active'.

CREATE TABLE memories (
    memory_id     TEXT NOT NULL UNIQUE,          -- UUIDv7
    kind          TEXT NOT NULL CHECK (kind IN ('constraint', 'convention', 'decision', 'commitment',
                      'blocker', 'preference', 'fact', 'pattern', 'finding', 'note', 'stage')),
    topic         TEXT NOT NULL,
    description   TEXT,
    content       TEXT NOT NULL,
    project       TEXT NOT NULL,
    scope         TEXT NOT NULL,
    tags          TEXT NOT NULL,                 -- JSON array of strings
    status        TEXT NOT NULL CHECK (status IN ('active', 'archived')),
    pinned        INTEGER NOT NULL DEFAULT 0,
    content_hash  TEXT,                          -- sha256 hex of the content; NULL once redacted
    supersedes    TEXT,                          -- the predecessor's id
    valid_from    INTEGER NOT NULL,
    valid_to      INTEGER,                       -- set when superseded
    created_at    INTEGER NOT NULL,
    updated_at    INTEGER NOT NULL,
    -- What a briefing line shows: the description, else the content's start.
    gist          TEXT GENERATED ALWAYS AS (COALESCE(description, substr(content, 1, 240))) VIRTUAL,
    CHECK (valid_to IS NULL OR valid_from <= valid_to)
);
-- Exact duplicates of a live memory are found (and refused) by this index.
CREATE UNIQUE INDEX memories_live_hash ON memories(kind, project, content_hash)
    WHERE valid_to IS NULL AND status = 'active';
CREATE INDEX memories_kind ON memories(kind, project, created_at);
CREATE INDEX memories_live_topic ON memories(kind, project, lower(topic))
    WHERE valid_to IS NULL AND status = 'active';
CREATE INDEX memories_project ON memories(project, created_at);
CREATE INDEX memories_supersedes ON memories(supersedes) WHERE supersedes IS NOT NULL;
-- A briefing reads a project's live memories from this index alone (a
-- project's rows are scattered over the table; its index entries are not).
CREATE INDEX memories_brief ON memories(project, memory_id, kind, topic, gist, supersedes, created_at, updated_at)
    WHERE valid_to IS NULL AND status = 'active';

-- One per commitment memory (a revised commitment's successor gets its own).
CREATE TABLE commitments (
    memory_id    TEXT PRIMARY KEY REFERENCES memories(memory_id),
    status       TEXT NOT NULL CHECK (status IN ('open', 'waiting', 'resolved', 'expired')),
    due_at       INTEGER,
    owner        TEXT,
    resolved_at  INTEGER,
    updated_at   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX commitments_status ON commitments(status, due_at);

-- The audit log. Append-only; events never hold content.
CREATE TABLE memory_events (
    seq             INTEGER PRIMARY KEY,         -- the order events were written in
    event_id        TEXT NOT NULL UNIQUE,        -- UUIDv7
    memory_id       TEXT NOT NULL REFERENCES memories(memory_id),
    kind            TEXT NOT NULL CHECK (kind IN ('create', 'revise', 'supersede', 'resolve', 'unresolve',
                        'archive', 'import', 'redact')),
    actor           TEXT NOT NULL CHECK (actor IN ('cli', 'hook', 'worker', 'importer')),
    session_run_id  TEXT,
    reason          TEXT,
    created_at      INTEGER NOT NULL
);
CREATE INDEX memory_events_memory ON memory_events(memory_id, seq);
CREATE INDEX memory_events_run ON memory_events(session_run_id, seq) WHERE session_run_id IS NOT NULL;
CREATE TRIGGER memory_events_no_update BEFORE UPDATE ON memory_events
BEGIN
    SELECT RAISE(ABORT, 'memory_events is append-only');
END;
CREATE TRIGGER memory_events_no_delete BEFORE DELETE ON memory_events
BEGIN
    SELECT RAISE(ABORT, 'memory_events is append-only');
END;

-- Full-text search over topic, description, content and tags, kept in step by triggers.
CREATE VIRTUAL TABLE memories_fts USING fts5(
    topic, description, content, tags,
    content = 'memories', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2'
);
-- Term document counts, for picking a new memory's rarest words.
CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_fts, 'row');
-- Ranking: bm25 with the topic weighted 4, description and tags 2, content 1.
INSERT INTO memories_fts(memories_fts, rank) VALUES ('rank', 'bm25(4.0, 2.0, 1.0, 2.0)');
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, topic, description, content, tags)
    VALUES (new.rowid, new.topic, new.description, new.content, new.tags);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, topic, description, content, tags)
    VALUES ('delete', old.rowid, old.topic, old.description, old.content, old.tags);
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE OF topic, description, content, tags ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, topic, description, content, tags)
    VALUES ('delete', old.rowid, old.topic, old.description, old.content, old.tags);
    INSERT INTO memories_fts(rowid, topic, description, content, tags)
    VALUES (new.rowid, new.topic, new.description, new.content, new.tags);
END;

-- Demand: reads that show a memory mattered. Counted once per
-- (kind, run, memory); a read outside a run counts once per UTC day.
CREATE TABLE memory_demand (
    kind        TEXT NOT NULL CHECK (kind IN ('show', 'recall', 'prompt', 'briefing')),
    run_key     TEXT NOT NULL,                   -- the run id, else 'day:YYYY-MM-DD'
    memory_id   TEXT NOT NULL,
    weight      REAL NOT NULL,
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (kind, run_key, memory_id)
) WITHOUT ROWID;

-- Each memory's decayed demand, as of `at`: raw = sum of weight * 2^(-age/14 d).
-- The utility is raw / (raw + 4), decayed to the reader's clock.
CREATE TABLE memory_utility (
    memory_id  TEXT PRIMARY KEY,
    raw        REAL NOT NULL,
    at         INTEGER NOT NULL
) WITHOUT ROWID;
