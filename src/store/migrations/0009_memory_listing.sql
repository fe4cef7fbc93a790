-- `sessionkit memories --kind K` lists live memories newest first without
-- the content: this index holds every column a listing prints, in
-- its order, so a listing reads it alone instead of one table page per row.
CREATE INDEX memories_listing ON memories(kind, created_at, memory_id, topic, description, project, scope,
    tags, pinned, content_hash, supersedes, valid_from, updated_at, valid_to, status)
    WHERE valid_to IS NULL AND status = 'active';
