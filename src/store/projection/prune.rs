//! `prune`: sessions whose every file is gone, removed with what they held.

use std::collections::BTreeSet;

use anyhow::Result;
use rusqlite::{TransactionBehavior, params};

use super::observations::settle_messages;
use super::rollup_rows::refresh_rollup;
use crate::domain::clock::Millis;
use crate::store::Store;

/// What `prune` removed (or, in a dry run, would remove).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PruneReport {
    pub sessions: u64,
    pub agents: u64,
    pub token_rows: u64,
    pub degraded_lines: u64,
}

impl Store {
    /// Removes the projection of sessions whose last activity is before
    /// `before` (optionally of one project). Memories and runs are never
    /// touched. A dry run does the work and rolls it back, so its numbers are exact.
    pub fn prune(
        &mut self,
        before: Millis,
        project: Option<&str>,
        dry_run: bool,
    ) -> Result<PruneReport> {
        let prices = crate::store::pricing::loaded(&self.prices, &self.conn)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let ids: Vec<String> = tx
            .prepare(
                "SELECT session_id FROM sessions WHERE last_activity_at < ?1
                 AND (?2 IS NULL OR project = ?2 OR project_slug = ?2) ORDER BY session_id",
            )?
            .query_map(params![before, project], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let count = |sql: &str| -> Result<u64> {
            Ok(tx.query_row(sql, [], |r| r.get::<_, i64>(0))? as u64)
        };
        let tokens_before = count("SELECT COUNT(*) FROM token_usage")?;
        let mut report = PruneReport::default();
        let mut touched: BTreeSet<String> = BTreeSet::new();
        for id in &ids {
            let one = |sql: &str| -> Result<u64> {
                Ok(tx.query_row(sql, [id], |r| r.get::<_, i64>(0))? as u64)
            };
            report.agents += one("SELECT COUNT(*) FROM agents WHERE session_id = ?1")?;
            report.degraded_lines +=
                one("SELECT COUNT(*) FROM degraded_lines WHERE session_id = ?1")?;
            let mut stmt = tx.prepare_cached(
                "SELECT message_id FROM usage_observations WHERE session_id = ?1",
            )?;
            for m in stmt.query_map([id], |r| r.get::<_, String>(0))? {
                touched.insert(m?);
            }
            tx.execute("DELETE FROM sessions WHERE session_id = ?1", [id])?;
            tx.execute("DELETE FROM ingest_failures WHERE session_id = ?1", [id])?;
        }
        crate::store::said::forget_sessions(&tx, &ids)?;
        let affected = settle_messages(&tx, &touched, prices)?;
        refresh_rollup(&tx, &affected)?;
        report.sessions = ids.len() as u64;
        report.token_rows = tokens_before - count("SELECT COUNT(*) FROM token_usage")?;
        if dry_run {
            tx.rollback()?;
        } else {
            tx.commit()?;
        }
        Ok(report)
    }
}
