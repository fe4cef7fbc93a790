//! Demand: which memories were briefed, recalled or shown, and the utility
//! a memory earns from it.

use anyhow::Result;
use rusqlite::{OptionalExtension, TransactionBehavior, params};

use crate::domain::clock::{Millis, format_instant};
use crate::domain::memory::{self, Demand, decay, demand_weight};
use crate::store::Store;

impl Store {
    /// Logs demand for memories: counted once per (kind, run,
    /// memory) — outside a run, once per UTC day — and folded into each
    /// memory's decayed score at once. `project`: the project of every id,
    /// when the caller knows it (else each id's is looked up).
    pub fn record_demand(
        &mut self,
        kind: Demand,
        run: Option<&str>,
        ids: &[&str],
        project: Option<&str>,
        now: Millis,
    ) -> Result<()> {
        if ids.is_empty() {
            return Ok(());
        }
        let run_key = match run {
            Some(r) => r.to_string(),
            None => format!("day:{}", &format_instant(now)[..10]),
        };
        let weight = demand_weight(kind);
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        if weight == 0.0 {
            // Exposure (a briefing's ids): no score to fold, so one
            // statement logs them all.
            tx.prepare_cached(
                "INSERT OR IGNORE INTO memory_demand(kind, run_key, memory_id, weight, created_at, project)
                 SELECT ?1, ?2, j.value, 0.0, ?3, COALESCE(?4, (SELECT project FROM memories WHERE memory_id = j.value))
                 FROM json_each(?5) j",
            )?
            .execute(params![
                kind,
                run_key,
                now,
                project,
                serde_json::to_string(ids)?
            ])?;
            tx.commit()?;
            return Ok(());
        }
        for id in ids {
            let added = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO memory_demand(kind, run_key, memory_id, weight, created_at, project)
                     VALUES (?1, ?2, ?3, ?4, ?5, COALESCE(?6, (SELECT project FROM memories WHERE memory_id = ?3)))",
                )?
                .execute(params![kind, run_key, id, weight, now, project])?;
            if added == 0 {
                continue;
            }
            let prev: Option<(f64, i64)> = tx
                .prepare_cached("SELECT raw, at FROM memory_utility WHERE memory_id = ?1")?
                .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?;
            let raw = prev.map_or(0.0, |(raw, at)| decay(raw, at, now)) + weight;
            tx.prepare_cached(
                "INSERT INTO memory_utility(memory_id, raw, at) VALUES (?1,?2,?3)
                 ON CONFLICT(memory_id) DO UPDATE SET raw = excluded.raw, at = excluded.at",
            )?
            .execute(params![id, raw, now])?;
        }
        tx.commit()?;
        Ok(())
    }

    /// A memory's decayed demand score at `now` (raw, utility).
    pub fn memory_utility(&self, id: &str, now: Millis) -> Result<(f64, f64)> {
        let prev: Option<(f64, i64)> = self
            .conn
            .prepare_cached("SELECT raw, at FROM memory_utility WHERE memory_id = ?1")?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        let raw = prev.map_or(0.0, |(raw, at)| decay(raw, at, now));
        Ok((raw, memory::utility(raw)))
    }
}
