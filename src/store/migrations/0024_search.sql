-- What agents and users said, for `sessionkit search`. Each distinct text
-- is kept and indexed once (a tool output read twice, a resumed session's
-- copied history), in said_texts; said holds every place it was said.
-- A text's id is the second it was first said, shifted left 20 bits, plus
-- the low 20 bits of its hash: ids grow with time, so the index reads
-- newest first by id, and an id does not depend on the order of ingest.
CREATE TABLE said_texts (
    text_id  INTEGER PRIMARY KEY,
    hash     INTEGER NOT NULL,   -- xxh3-64 of tool and text, as signed
    tool     TEXT,               -- the tool's name, for a call or an output
    text     TEXT NOT NULL       -- redacted
);
CREATE INDEX said_texts_hash ON said_texts (hash);
-- Texts not yet in the full-text index: it takes a run's new texts at
-- once, after the run.
CREATE TABLE said_unindexed (text_id INTEGER PRIMARY KEY);

CREATE TABLE said (
    session_id  TEXT NOT NULL,
    record      TEXT NOT NULL,    -- the record's id, else `line:N`
    piece       INTEGER NOT NULL, -- the piece's place in the record
    agent_id    TEXT,             -- NULL: the main agent
    at          INTEGER,
    role        TEXT NOT NULL,    -- user | assistant | tool
    output      INTEGER NOT NULL, -- 1: a tool's output
    text_id     INTEGER NOT NULL,
    PRIMARY KEY (session_id, record, piece)
) WITHOUT ROWID;
-- Covering the filters a search checks for each matching text.
CREATE INDEX said_by_text ON said (text_id, at, role);

CREATE VIRTUAL TABLE said_fts USING fts5(
    tool, text,
    content = 'said_texts', content_rowid = 'text_id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
