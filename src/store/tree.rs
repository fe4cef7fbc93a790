//! Read queries behind `tree`: each agent with its parent, evidence, status
//! and own token totals, and what parents report for children with no file.

use anyhow::Result;

use super::Store;
use super::reports::{Totals, totals_at};
use crate::domain::clock::Millis;
use crate::domain::transcript::Buckets;

/// One agent as the tree shows it.
#[derive(Debug, Clone)]
pub struct AgentNode {
    pub agent_id: String,
    pub parent_id: Option<String>,
    pub layout: String,
    pub agent_type: Option<String>,
    pub description: Option<String>,
    pub join_path: Option<String>,
    pub tool_use_id: Option<String>,
    pub status: String,
    pub first_seen: Option<Millis>,
    pub last_seen: Option<Millis>,
    pub status_at: Option<Millis>,
    pub totals: Totals,
}

/// A spawn call whose child left no transcript, with what the parent was told.
#[derive(Debug, Clone)]
pub struct Reported {
    pub owner: String,
    pub tool_use_id: String,
    pub subagent_type: Option<String>,
    pub description: Option<String>,
    pub total_tokens: Option<u64>,
    pub tokens: Option<Buckets>,
}

impl Store {
    /// Every agent's stored parent in a session (`None`: main or orphan).
    pub fn parents_of(
        &self,
        session: &str,
    ) -> Result<std::collections::BTreeMap<String, Option<String>>> {
        let mut stmt = self
            .conn
            .prepare("SELECT agent_id, parent_agent_id FROM agents WHERE session_id = ?1")?;
        let rows = stmt.query_map([session], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn agent_nodes(&self, session: &str) -> Result<Vec<AgentNode>> {
        let sql = format!(
            "WITH t AS (SELECT agent_id, {} FROM usage_rollup WHERE session_id = ?1 GROUP BY agent_id)
             SELECT a.agent_id, a.parent_agent_id, a.layout, a.agent_type, a.description, a.join_path,
                    a.spawn_tool_use_id, a.status, a.first_seen_at, a.last_seen_at, a.status_at, t.*
             FROM agents a LEFT JOIN t USING (agent_id) WHERE a.session_id = ?1
             ORDER BY a.first_seen_at, a.agent_id",
            super::reports::TOTALS
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map([session], |r| {
            Ok(AgentNode {
                agent_id: r.get(0)?,
                parent_id: r.get(1)?,
                layout: r.get(2)?,
                agent_type: r.get(3)?,
                description: r.get(4)?,
                join_path: r.get(5)?,
                tool_use_id: r.get(6)?,
                status: r.get(7)?,
                first_seen: r.get(8)?,
                last_seen: r.get(9)?,
                status_at: r.get(10)?,
                totals: totals_at(r, 12)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn reported_by_parent(&self, session: &str) -> Result<Vec<Reported>> {
        let mut stmt = self.conn.prepare(
            "SELECT owner_agent_id, tool_use_id, subagent_type, description, reported_total_tokens,
                    reported_input_tokens, reported_output_tokens, reported_cache_write_5m_tokens,
                    reported_cache_write_1h_tokens, reported_cache_read_tokens
             FROM spawn_calls WHERE session_id = ?1 AND child_agent_id IS NULL
               AND (reported_total_tokens IS NOT NULL OR reported_input_tokens IS NOT NULL)
             ORDER BY called_at, tool_use_id",
        )?;
        let rows = stmt.query_map([session], |r| {
            let b = |i: usize| -> rusqlite::Result<Option<u64>> {
                Ok(r.get::<_, Option<i64>>(i)?.map(|v| v as u64))
            };
            let tokens = match (b(5)?, b(6)?, b(7)?, b(8)?, b(9)?) {
                (None, None, None, None, None) => None,
                (i, o, w5, w1, cr) => Some(Buckets {
                    input: i.unwrap_or(0),
                    output: o.unwrap_or(0),
                    cache_write_5m: w5.unwrap_or(0),
                    cache_write_1h: w1.unwrap_or(0),
                    cache_read: cr.unwrap_or(0),
                    reasoning: 0,
                }),
            };
            Ok(Reported {
                owner: r.get(0)?,
                tool_use_id: r.get(1)?,
                subagent_type: r.get(2)?,
                description: r.get(3)?,
                total_tokens: b(4)?,
                tokens,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
