-- A briefing ranks every live memory of a project but composes the text of
-- only the few that can render. This index holds what ranking
-- reads, without the topic and gist that make `memories_brief` entries five
-- times wider; the lines that render read their text from `memories_brief`
-- by (project, memory_id).
CREATE INDEX memories_rank ON memories(project, memory_id, kind, supersedes, created_at, updated_at)
    WHERE valid_to IS NULL AND status = 'active';
