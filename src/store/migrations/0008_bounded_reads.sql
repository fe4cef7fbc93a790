-- A briefing's reads stay bounded as history grows: each of these
-- used to scan every row of its kind in the whole database.

-- The auto latch reads a project's weighted demand: the first ever, and the
-- last 30 days'. A memory's project never changes (a revision is a new id).
ALTER TABLE memory_demand ADD COLUMN project TEXT;
UPDATE memory_demand
   SET project = (SELECT m.project FROM memories m WHERE m.memory_id = memory_demand.memory_id);
CREATE INDEX memory_demand_project ON memory_demand(project, created_at) WHERE weight > 0;

-- "Resolved since the last briefing": the commitments resolved recently.
CREATE INDEX commitments_resolved ON commitments(resolved_at) WHERE status = 'resolved';

-- "The last session in this project", by name or by folder slug.
CREATE INDEX sessions_project_activity ON sessions(project, last_activity_at);
CREATE INDEX sessions_slug_activity ON sessions(project_slug, last_activity_at);
