//! Rate-limit snapshots: appended when one differs from the last, read
//! back for the pace and the history.

use anyhow::Result;
use rusqlite::{OptionalExtension, params};

use super::Store;
use crate::domain::clock::Millis;
use crate::domain::limits::{Snapshot, Window};

/// A stored snapshot and when it was seen.
#[derive(Debug, Clone, PartialEq)]
pub struct Seen {
    pub at: Millis,
    pub snapshot: Snapshot,
}

const COLUMNS: &str = "observed_at, session_id, model, five_hour_pct, five_hour_resets_at,
    seven_day_pct, seven_day_resets_at, context_pct, stated_cost_nanousd";

fn seen_from(r: &rusqlite::Row<'_>) -> rusqlite::Result<Seen> {
    let window = |pct: Option<f64>, at: Option<Millis>| {
        Some(Window {
            used_pct: pct?,
            resets_at: at?,
        })
    };
    Ok(Seen {
        at: r.get(0)?,
        snapshot: Snapshot {
            session_id: r.get(1)?,
            model: r.get(2)?,
            five_hour: window(r.get(3)?, r.get(4)?),
            seven_day: window(r.get(5)?, r.get(6)?),
            context_pct: r.get(7)?,
            stated_cost_nanousd: r.get(8)?,
            ..Snapshot::default()
        },
    })
}

impl Store {
    /// Appends `s` (seen at `at` from `harness`) unless it repeats the last
    /// snapshot; whether it was stored.
    pub fn record_snapshot(&self, harness: &str, s: &Snapshot, at: Millis) -> Result<bool> {
        let last = self
            .conn
            .prepare_cached(&format!(
                "SELECT {COLUMNS} FROM rate_limit_snapshots ORDER BY snapshot_id DESC LIMIT 1"
            ))?
            .query_row([], seen_from)
            .optional()?;
        if last.is_some_and(|l| l.snapshot.same_state(s)) {
            return Ok(false);
        }
        self.conn
            .prepare_cached(
                "INSERT INTO rate_limit_snapshots (observed_at, harness, session_id, model,
                   five_hour_pct, five_hour_resets_at, seven_day_pct, seven_day_resets_at,
                   context_pct, stated_cost_nanousd)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            )?
            .execute(params![
                at,
                harness,
                s.session_id,
                s.model,
                s.five_hour.map(|w| w.used_pct),
                s.five_hour.map(|w| w.resets_at),
                s.seven_day.map(|w| w.used_pct),
                s.seven_day.map(|w| w.resets_at),
                s.context_pct,
                s.stated_cost_nanousd,
            ])?;
        Ok(true)
    }

    /// The earliest snapshot of the five-hour window that resets at
    /// `resets_at`: its used share and time.
    pub fn window_first(&self, resets_at: Millis) -> Result<Option<(f64, Millis)>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT five_hour_pct, observed_at FROM rate_limit_snapshots
                 WHERE five_hour_resets_at = ?1 AND five_hour_pct IS NOT NULL
                 ORDER BY snapshot_id LIMIT 1",
            )?
            .query_row([resets_at], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?)
    }

    /// Every snapshot seen at or after `since`, oldest first.
    pub fn snapshots(&self, since: Option<Millis>) -> Result<Vec<Seen>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM rate_limit_snapshots
             WHERE ?1 IS NULL OR observed_at >= ?1 ORDER BY snapshot_id"
        ))?;
        let rows = stmt.query_map([since], seen_from)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}
