//! What a briefing reads: a project's live memories with their utility, the
//! demand history the auto latch needs, the previous briefing of the
//! project, and its last transcript session.

use crate::domain::memory::{CommitmentStatus, Kind};
use anyhow::Result;
use rusqlite::{OptionalExtension, params};

use super::Store;
use crate::domain::clock::Millis;

/// A live memory as a briefing ranks it: its commitment state, its stored
/// demand (raw as of `at`), and its text only when it was asked for.
#[derive(Debug, Clone)]
pub struct BriefRow {
    pub memory_id: String,
    pub kind: Kind,
    /// The topic and gist, when the read included them.
    pub text: Option<BriefText>,
    /// It supersedes another (a revision).
    pub revised: bool,
    pub created_at: Millis,
    pub updated_at: Millis,
    /// A commitment's status and due time.
    pub commitment: Option<(CommitmentStatus, Option<Millis>)>,
    pub raw: f64,
    pub raw_at: Option<Millis>,
}

/// What a briefing line shows of a memory.
#[derive(Debug, Clone, Default)]
pub struct BriefText {
    pub topic: String,
    /// The description, else the content's start.
    pub gist: String,
}

/// The auto latch's inputs.
#[derive(Debug, Clone, Copy, Default)]
pub struct DemandHistory {
    pub first_at: Option<Millis>,
    pub events_30d: u64,
    pub memories_30d: u64,
}

/// The project's previous briefing.
#[derive(Debug, Clone)]
pub struct PreviousBriefing {
    /// When it was injected.
    pub delivered_at: Millis,
}

/// The project's last transcript session.
#[derive(Debug, Clone)]
pub struct LastSession {
    pub session_id: String,
    pub last_activity_at: Option<Millis>,
    pub status: String,
    pub status_at: Option<Millis>,
    pub tokens: u64,
    pub cost_nanousd: i64,
}

impl Store {
    /// Live memories of `project`, with commitments, with their demand
    /// when `utility` (else none), and with their text when `text` (else
    /// read it per memory with `brief_text`).
    pub fn briefing_memories(
        &self,
        project: &str,
        utility: bool,
        text: bool,
    ) -> Result<Vec<BriefRow>> {
        // Only a commitment looks for its commitment row (a join would
        // probe for every memory); utility only when ranking uses it; the
        // text only when asked, from the index that holds it (entries five
        // times wider than `memories_rank`'s).
        // Only the optional columns asked for: utility, then the text.
        let mut sql = String::from(
            "SELECT m.memory_id, m.kind, m.supersedes IS NOT NULL, m.created_at, m.updated_at,
                CASE WHEN m.kind = 'commitment' THEN
                    (SELECT status || ' ' || IFNULL(due_at, '') FROM commitments c WHERE c.memory_id = m.memory_id) END",
        );
        if utility {
            sql.push_str(", u.raw, u.at");
        }
        if text {
            sql.push_str(", m.topic, m.gist");
        }
        sql.push_str(if text {
            " FROM memories m INDEXED BY memories_brief"
        } else {
            " FROM memories m INDEXED BY memories_rank"
        });
        if utility {
            sql.push_str(" LEFT JOIN memory_utility u USING (memory_id)");
        }
        sql.push_str(" WHERE m.project = ?1 AND m.valid_to IS NULL AND m.status = 'active'");
        let text_at = if utility { 8 } else { 6 };
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let mut rows = stmt.query([project])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let kind: Kind = r.get(1)?;
            let (raw, raw_at) = if utility {
                (r.get::<_, Option<f64>>(6)?.unwrap_or(0.0), r.get(7)?)
            } else {
                (0.0, None)
            };
            out.push(BriefRow {
                memory_id: r.get(0)?,
                kind,
                text: if text {
                    Some(BriefText {
                        topic: r.get(text_at)?,
                        gist: r.get(text_at + 1)?,
                    })
                } else {
                    None
                },
                revised: r.get(2)?,
                created_at: r.get(3)?,
                updated_at: r.get(4)?,
                // "status due" (due in milliseconds, or empty).
                commitment: match r.get_ref(5)?.as_str_or_null()? {
                    Some(c) => {
                        let (status, due) = c.split_once(' ').unwrap_or((c, ""));
                        Some((CommitmentStatus::parse(status)?, due.parse().ok()))
                    }
                    None => None,
                },
                raw,
                raw_at,
            });
        }
        Ok(out)
    }

    /// The text of one live memory of `project` (a point read of the
    /// `memories_brief` index).
    pub fn brief_text(&self, project: &str, memory_id: &str) -> Result<BriefText> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT topic, gist FROM memories INDEXED BY memories_brief
             WHERE project = ?1 AND memory_id = ?2 AND valid_to IS NULL AND status = 'active'",
        )?;
        Ok(stmt
            .query_row([project, memory_id], |r| {
                Ok(BriefText {
                    topic: r.get(0)?,
                    gist: r.get(1)?,
                })
            })
            .optional()?
            .unwrap_or_default())
    }

    /// The contents of `project`'s live stages, by id (their status line).
    pub fn stage_contents(
        &self,
        project: &str,
    ) -> Result<std::collections::HashMap<String, String>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT memory_id, content FROM memories
             WHERE project = ?1 AND kind = 'stage' AND valid_to IS NULL AND status = 'active'",
        )?;
        let rows = stmt.query_map([project], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Demand (weight > 0) on `project`'s memories: the first ever, and the
    /// last 30 days' count and distinct memories.
    pub fn demand_history(&self, project: &str, now: Millis) -> Result<DemandHistory> {
        let since = now - 30 * 86_400_000;
        // Two reads of the memory_demand_project index: its first entry,
        // and the last 30 days' range.
        Ok(self.conn.query_row(
            "SELECT (SELECT MIN(created_at) FROM memory_demand WHERE project = ?1 AND weight > 0),
                    COUNT(*), COUNT(DISTINCT memory_id)
             FROM memory_demand WHERE project = ?1 AND weight > 0 AND created_at >= ?2",
            params![project, since],
            |r| {
                Ok(DemandHistory {
                    first_at: r.get(0)?,
                    events_30d: r.get::<_, i64>(1)? as u64,
                    memories_30d: r.get::<_, i64>(2)? as u64,
                })
            },
        )?)
    }

    /// The latest briefing a run of `project` other than `except` received.
    pub fn previous_briefing(
        &self,
        project: &str,
        except: Option<&str>,
    ) -> Result<Option<PreviousBriefing>> {
        let row: Option<Millis> = self
            .conn
            .query_row(
                "SELECT briefing_delivered_at FROM agent_sessions
                 WHERE project = ?1 AND briefing_delivered_at IS NOT NULL AND run_id IS NOT ?2
                 ORDER BY briefing_delivered_at DESC, run_id DESC LIMIT 1",
                params![project, except],
                |r| r.get(0),
            )
            .optional()?;
        Ok(row.map(|delivered_at| PreviousBriefing { delivered_at }))
    }

    /// Topics of `project`'s commitments resolved after `since`.
    pub fn resolved_since(&self, project: &str, since: Millis) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT m.topic FROM commitments c INDEXED BY commitments_resolved JOIN memories m USING (memory_id)
             WHERE m.project = ?1 AND c.status = 'resolved' AND c.resolved_at > ?2 AND m.valid_to IS NULL
             ORDER BY c.resolved_at, m.memory_id",
        )?;
        let rows = stmt.query_map(params![project, since], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The most recent transcript session of `project` (by name or folder
    /// slug) other than `except`, with its tokens and cost.
    pub fn last_session(&self, project: &str, except: Option<&str>) -> Result<Option<LastSession>> {
        Ok(self
            .conn
            .query_row(
                "SELECT s.session_id, s.last_activity_at, s.status, s.status_at,
                        (SELECT COALESCE(SUM(input_tokens + output_tokens + cache_write_5m_tokens + cache_write_1h_tokens
                                 + cache_read_tokens), 0) FROM usage_rollup r WHERE r.session_id = s.session_id),
                        (SELECT COALESCE(SUM(cost_nanousd), 0) FROM usage_rollup r WHERE r.session_id = s.session_id)
                 FROM sessions s WHERE s.session_id IN (
                     SELECT * FROM (SELECT session_id FROM sessions INDEXED BY sessions_project_activity
                                    WHERE project = ?1 AND session_id IS NOT ?2
                                    ORDER BY last_activity_at DESC LIMIT 1)
                     UNION ALL
                     SELECT * FROM (SELECT session_id FROM sessions INDEXED BY sessions_slug_activity
                                    WHERE project_slug = ?1 AND session_id IS NOT ?2
                                    ORDER BY last_activity_at DESC LIMIT 1))
                 ORDER BY s.last_activity_at DESC, s.session_id DESC LIMIT 1",
                params![project, except],
                |r| {
                    Ok(LastSession {
                        session_id: r.get(0)?,
                        last_activity_at: r.get(1)?,
                        status: r.get(2)?,
                        status_at: r.get(3)?,
                        tokens: r.get::<_, i64>(4)? as u64,
                        cost_nanousd: r.get(5)?,
                    })
                },
            )
            .optional()?)
    }
}
