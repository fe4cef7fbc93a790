//! The rows behind `cost`: every counted message with what it is grouped by.

use anyhow::Result;
use rusqlite::params;

use super::Store;
use super::reports::Totals;
use crate::domain::clock::Millis;
use crate::domain::transcript::Buckets;

/// Which messages `cost` reads.
#[derive(Debug, Clone, Default)]
pub struct CostFilter {
    pub since: Option<Millis>,
    pub until: Option<Millis>,
    pub project: Option<String>,
    pub session: Option<String>,
    /// Only this client's sessions (its declared name).
    pub harness: Option<String>,
}

/// What a cost row can be grouped by, besides its time.
#[derive(Debug, Clone)]
pub struct RowKeys {
    pub session_id: String,
    pub agent_id: String,
    pub model: String,
    pub project: Option<String>,
    pub harness: String,
    pub agent_type: Option<String>,
    /// The machine that pushed it, for rows of a team database (`None`:
    /// this machine's own store).
    pub machine: Option<String>,
    /// The person's label of a team database's row (`None`: this store's).
    pub user: Option<String>,
}

/// One counted message, as totals of one.
#[derive(Debug, Clone)]
pub struct CostRow {
    pub keys: RowKeys,
    pub at: Option<Millis>,
    pub totals: Totals,
}

/// The totals of a single message.
pub fn one(tokens: Buckets, cost_nanousd: Option<i64>) -> Totals {
    Totals {
        messages: 1,
        tokens,
        priced_messages: u64::from(cost_nanousd.is_some()),
        cost_nanousd: cost_nanousd.unwrap_or(0),
        unpriced_tokens: if cost_nanousd.is_some() {
            0
        } else {
            tokens.total()
        },
        harness_nanousd: 0,
    }
}

/// A message's keys and filters: its session, agent and model first, its
/// session's project and harness and its agent's type after the columns
/// a query puts between (`{}`); `?1`..`?5` are a `CostFilter`'s since,
/// until, project, session and harness.
fn message_query(between: &str, from: &str, more: &str) -> String {
    format!(
        "SELECT t.session_id, t.agent_id, t.model, {between}, s.project, s.harness, a.agent_type
         FROM {from}
         JOIN sessions s ON s.session_id = t.session_id
         LEFT JOIN agents a ON a.session_id = t.session_id AND a.agent_id = t.agent_id
         WHERE (?1 IS NULL OR t.occurred_at >= ?1) AND (?2 IS NULL OR t.occurred_at < ?2)
           AND (?3 IS NULL OR s.project = ?3 OR s.project_slug = ?3)
           AND (?4 IS NULL OR t.session_id = ?4)
           AND (?5 IS NULL OR s.harness = ?5){more}"
    )
}

/// A row's keys from `message_query`'s columns, the last three at `tail`.
fn message_keys(r: &rusqlite::Row<'_>, tail: usize) -> rusqlite::Result<RowKeys> {
    Ok(RowKeys {
        session_id: r.get(0)?,
        agent_id: r.get(1)?,
        model: r.get(2)?,
        project: r.get(tail)?,
        harness: r.get(tail + 1)?,
        agent_type: r.get(tail + 2)?,
        machine: None,
        user: None,
    })
}

impl Store {
    /// Visits every counted message matching `f` (no collection of the whole set).
    pub fn each_cost_row(&self, f: &CostFilter, mut visit: impl FnMut(CostRow)) -> Result<()> {
        let mut stmt = self.conn.prepare(&message_query(
            "t.occurred_at, t.input_tokens, t.output_tokens, t.cache_write_5m_tokens,
             t.cache_write_1h_tokens, t.cache_read_tokens, t.cost_nanousd, t.reasoning_tokens",
            "token_usage t",
            "",
        ))?;
        let mut rows = stmt.query(params![f.since, f.until, f.project, f.session, f.harness])?;
        while let Some(r) = rows.next()? {
            let n = |i: usize| -> rusqlite::Result<u64> { Ok(r.get::<_, i64>(i)? as u64) };
            let tokens = Buckets {
                input: n(4)?,
                output: n(5)?,
                cache_write_5m: n(6)?,
                cache_write_1h: n(7)?,
                cache_read: n(8)?,
                reasoning: n(10)?,
            };
            visit(CostRow {
                keys: message_keys(r, 11)?,
                at: r.get(3)?,
                totals: one(tokens, r.get(9)?),
            });
        }
        Ok(())
    }

    /// Visits each message matching `f` that has no price here and whose
    /// client priced it, as a row holding only the client's figure.
    pub fn each_harness_priced_row(
        &self,
        f: &CostFilter,
        mut visit: impl FnMut(CostRow),
    ) -> Result<()> {
        let mut stmt = self.conn.prepare(&message_query(
            "t.occurred_at, h.cost_nanousd",
            "harness_message_costs h
             JOIN token_usage t ON t.session_id = h.session_id AND t.message_id = h.message_id",
            " AND t.cost_nanousd IS NULL",
        ))?;
        let mut rows = stmt.query(params![f.since, f.until, f.project, f.session, f.harness])?;
        while let Some(r) = rows.next()? {
            visit(CostRow {
                keys: message_keys(r, 5)?,
                at: r.get(3)?,
                totals: Totals {
                    harness_nanousd: r.get(4)?,
                    ..Totals::default()
                },
            });
        }
        Ok(())
    }
}

/// One rollup row (a session, agent, model and UTC day) with its keys.
#[derive(Debug, Clone)]
pub struct RollupRow {
    pub keys: RowKeys,
    /// Hours since the epoch (UTC); -1 when unknown.
    pub hour: i64,
    pub totals: Totals,
}

/// One rollup row's totals, in the order `reports::totals_at` reads them.
const ROW_TOTALS: &str = "u.messages, u.input_tokens, u.output_tokens, u.cache_write_5m_tokens, \
     u.cache_write_1h_tokens, u.cache_read_tokens, u.priced_messages, u.cost_nanousd, u.unpriced_tokens, \
     u.reasoning_tokens";

impl Store {
    /// Visits the rollup rows matching `f`; `since`/`until` must be whole hours.
    pub fn each_rollup_row(&self, f: &CostFilter, mut visit: impl FnMut(RollupRow)) -> Result<()> {
        use std::collections::HashMap;
        let hour = |t: Option<Millis>| t.map(|t| t.div_euclid(3_600_000));
        // Sessions and agents are few: look them up in memory, not per row.
        let mut sessions: HashMap<String, (Option<String>, Option<String>, String)> =
            HashMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT session_id, project, project_slug, harness FROM sessions")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            sessions.insert(r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?));
        }
        drop(rows);
        let mut agents: HashMap<(String, String), Option<String>> = HashMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT session_id, agent_id, agent_type FROM agents")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            agents.insert((r.get(0)?, r.get(1)?), r.get(2)?);
        }
        drop(rows);
        let sql = format!(
            "SELECT u.session_id, u.agent_id, u.model, u.hour, {ROW_TOTALS} FROM usage_rollup u
             WHERE (?1 IS NULL OR u.hour >= ?1) AND (?2 IS NULL OR (u.hour < ?2 AND u.hour >= 0))
               AND (?3 IS NULL OR u.session_id = ?3)"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let mut rows = stmt.query(params![hour(f.since), hour(f.until), f.session])?;
        while let Some(r) = rows.next()? {
            let session_id: String = r.get(0)?;
            let Some((project, slug, harness)) = sessions.get(&session_id) else {
                continue;
            };
            if let Some(p) = &f.project
                && project.as_ref() != Some(p)
                && slug.as_ref() != Some(p)
            {
                continue;
            }
            if f.harness.as_ref().is_some_and(|h| h != harness) {
                continue;
            }
            let agent_id: String = r.get(1)?;
            let agent_type = agents
                .get(&(session_id.clone(), agent_id.clone()))
                .cloned()
                .flatten();
            visit(RollupRow {
                keys: RowKeys {
                    agent_type,
                    project: project.clone(),
                    harness: harness.clone(),
                    session_id,
                    agent_id,
                    model: r.get(2)?,
                    machine: None,
                    user: None,
                },
                hour: r.get(3)?,
                totals: super::reports::totals_at(r, 4)?,
            });
        }
        Ok(())
    }

    /// Compactions in `f` whose model calls the harness records nowhere
    /// (their tokens are in no total).
    pub fn uncounted_compactions(&self, f: &CostFilter) -> Result<u64> {
        let n: i64 = self.conn.query_row(
            "SELECT COUNT(*) FROM compactions c JOIN sessions s ON s.session_id = c.session_id
             WHERE c.trigger = ?5
               AND (?1 IS NULL OR c.occurred_at >= ?1) AND (?2 IS NULL OR c.occurred_at < ?2)
               AND (?3 IS NULL OR s.project = ?3 OR s.project_slug = ?3)
               AND (?4 IS NULL OR c.session_id = ?4)
               AND (?6 IS NULL OR s.harness = ?6)",
            params![
                f.since,
                f.until,
                f.project,
                f.session,
                crate::domain::transcript::UNRECORDED_COMPACTION,
                f.harness
            ],
            |r| r.get(0),
        )?;
        Ok(n.max(0) as u64)
    }
}
