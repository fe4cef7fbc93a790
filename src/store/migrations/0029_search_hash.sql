-- The full-text index keeps up to 16 MiB of new postings in memory before
-- it writes them out as a segment (FTS5's `hashsize`, 1 MiB by default):
-- a batch of new texts (8 MiB) is then one segment, not eight, and the
-- index merges far less while it is built.
INSERT INTO said_fts(said_fts, rank) VALUES ('hashsize', 16777216);
