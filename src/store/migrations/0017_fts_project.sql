-- The project as one token in the full-text index, so a recall
-- for one project ranks only that project's matches (`hook
-- user-prompt-submit` ranked every project's, then filtered). The token is
-- `p` + the project's UTF-8 bytes in hex: one exact word for any name. The
-- index reads its text through a view that adds it; ranking gives it no
-- weight.
DROP TRIGGER memories_fts_insert;
DROP TRIGGER memories_fts_delete;
DROP TRIGGER memories_fts_update;
DROP TABLE memories_vocab;
DROP TABLE memories_fts;
CREATE VIEW memories_fts_source AS
    SELECT rowid AS rid, topic, description, content, tags,
           'p' || lower(hex(project)) AS project_key
    FROM memories;
CREATE VIRTUAL TABLE memories_fts USING fts5(
    topic, description, content, tags, project_key,
    content = 'memories_fts_source', content_rowid = 'rid',
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_fts, 'row');
INSERT INTO memories_fts(memories_fts, rank) VALUES ('rank', 'bm25(4.0, 2.0, 1.0, 2.0, 0.0)');
INSERT INTO memories_fts(memories_fts) VALUES ('rebuild');
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, topic, description, content, tags, project_key)
    VALUES (new.rowid, new.topic, new.description, new.content, new.tags,
            'p' || lower(hex(new.project)));
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, topic, description, content, tags, project_key)
    VALUES ('delete', old.rowid, old.topic, old.description, old.content, old.tags,
            'p' || lower(hex(old.project)));
END;
CREATE TRIGGER memories_fts_update AFTER UPDATE OF topic, description, content, tags, project ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, topic, description, content, tags, project_key)
    VALUES ('delete', old.rowid, old.topic, old.description, old.content, old.tags,
            'p' || lower(hex(old.project)));
    INSERT INTO memories_fts(rowid, topic, description, content, tags, project_key)
    VALUES (new.rowid, new.topic, new.description, new.content, new.tags,
            'p' || lower(hex(new.project)));
END;
