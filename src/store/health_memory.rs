//! What the report shows of the memory loop: open commitments by age,
//! resolves by who made them, and the size of each briefing delivered.

use anyhow::Result;

use super::Store;
use crate::domain::clock::Millis;

/// The memory loop's state over a period.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryHealth {
    /// Open (and waiting) commitments' creation times.
    pub open_created: Vec<Millis>,
    /// Resolves in the period by who made them: `closer` (the closer),
    /// `agent` (written within an agent's run), `user` (anything else).
    pub resolves: Vec<(String, u64)>,
    /// Memories in each briefing delivered in the period.
    pub briefing_sizes: Vec<u64>,
}

impl Store {
    /// The memory loop since `since` (resolves and briefings; open
    /// commitments as they stand).
    pub fn memory_health(&self, since: Option<Millis>) -> Result<MemoryHealth> {
        let since = since.unwrap_or(i64::MIN);
        let open_created = self
            .conn
            .prepare(
                "SELECT m.created_at FROM commitments c JOIN memories m ON m.memory_id = c.memory_id
                 WHERE c.status IN ('open', 'waiting') AND m.valid_to IS NULL ORDER BY m.created_at",
            )?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let resolves = self
            .conn
            .prepare(
                "SELECT CASE WHEN actor = 'closer' THEN 'closer'
                             WHEN session_run_id IS NOT NULL THEN 'agent' ELSE 'user' END AS who,
                        COUNT(*) FROM memory_events
                 WHERE kind = 'resolve' AND created_at >= ?1 GROUP BY who ORDER BY who",
            )?
            .query_map([since], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?
            .collect::<Result<_, _>>()?;
        let briefing_sizes = self
            .conn
            .prepare(
                "SELECT json_array_length(briefed_memories) FROM agent_sessions
                 WHERE briefing_delivered_at >= ?1 ORDER BY briefing_delivered_at",
            )?
            .query_map([since], |r| Ok(r.get::<_, i64>(0)? as u64))?
            .collect::<Result<_, _>>()?;
        Ok(MemoryHealth {
            open_created,
            resolves,
            briefing_sizes,
        })
    }
}
