-- The search index in a smaller shape: the texts in LZ4 blocks of about
-- 128 KiB (a session's texts side by side compress far better than one by
-- one), the places by number (sessions and agents named once, in
-- said_names; role and output in one small integer), and the full-text
-- index contentless, holding which texts have a term but not where
-- (detail=none), its terms made by sessionkit itself (folded, stemmed) and
-- only split on spaces here. What the old tables held is dropped: the next
-- search builds the index again from the transcripts.
DROP TABLE said_fts;
DROP TABLE said;
DROP TABLE said_texts;
DROP TABLE said_unindexed;
DELETE FROM said_sessions;
DELETE FROM said_build;

CREATE TABLE said_names (
    n     INTEGER PRIMARY KEY,
    name  TEXT NOT NULL UNIQUE
);

-- Each distinct text once. A text's id is the second it was first said,
-- shifted left 2 bits, plus the low 2 bits of its hash (the next free id
-- when that is taken; below 2^20 by its hash for a text said at no known
-- time): ids grow with time, so the index reads newest first by id, and
-- the full-text index stores small differences between ids.
CREATE TABLE said_texts (
    text_id  INTEGER PRIMARY KEY,
    hash     INTEGER NOT NULL,   -- xxh3-64 of tool and text, as signed
    tool     TEXT,               -- the tool's name, for a call or an output
    block    INTEGER NOT NULL,   -- said_blocks
    start    INTEGER NOT NULL,   -- where the text starts in the block's bytes
    len      INTEGER NOT NULL    -- its bytes (redacted UTF-8)
);
-- Covering how a text is found again: by its hash, length and tool.
CREATE INDEX said_texts_hash ON said_texts (hash, len, tool);

-- Texts side by side, compressed: a session's new texts go on at the end
-- of its last block while that holds under 128 KiB.
CREATE TABLE said_blocks (
    block_id  INTEGER PRIMARY KEY,
    session   INTEGER NOT NULL,  -- said_names: the session that filled it
    raw       INTEGER NOT NULL,  -- bytes of text it holds
    live      INTEGER NOT NULL,  -- texts in it still said somewhere
    data      BLOB NOT NULL      -- an LZ4 block, its length first
);
CREATE INDEX said_blocks_session ON said_blocks (session, block_id);

-- Every place a text was said.
CREATE TABLE said (
    session  INTEGER NOT NULL,   -- said_names
    record   TEXT NOT NULL,      -- the record's id, else `line:N`
    piece    INTEGER NOT NULL,   -- the piece's place in the record
    agent    INTEGER,            -- said_names; NULL: the main agent
    at       INTEGER,
    role     INTEGER NOT NULL,   -- 0 user, 1 assistant, 2 tool call, 3 tool output
    text_id  INTEGER NOT NULL
);
CREATE UNIQUE INDEX said_at ON said (session, record, piece);
-- Covering what a search checks for each matching text (its role, its
-- time) without reading the place.
CREATE INDEX said_by_text ON said (text_id, role, at);

CREATE VIRTUAL TABLE said_fts USING fts5(
    terms,
    content = '', contentless_delete = 1,
    tokenize = 'ascii', detail = 'none'
);
-- New postings are kept in memory up to 16 MiB before they are written
-- out as a segment (FTS5's `hashsize`, 1 MiB by default): a build's batch
-- of texts is then one segment.
INSERT INTO said_fts(said_fts, rank) VALUES ('hashsize', 16777216);
