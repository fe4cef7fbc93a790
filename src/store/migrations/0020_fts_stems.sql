-- The memory search index stems its words (Porter over unicode61), so
-- `recall deploy` finds "deployment" and "deployed": the query's words are
-- stemmed the same way. Rebuilt from the memories.
DROP TABLE memories_vocab;
DROP TABLE memories_fts;
CREATE VIRTUAL TABLE memories_fts USING fts5(
    topic, description, content, tags, project_key,
    content = 'memories_fts_source', content_rowid = 'rid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_fts, 'row');
INSERT INTO memories_fts(memories_fts, rank) VALUES ('rank', 'bm25(4.0, 2.0, 1.0, 2.0, 0.0)');
INSERT INTO memories_fts(memories_fts) VALUES ('rebuild');
