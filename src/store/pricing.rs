//! The `pricing` table (user prices over the embedded ones) and repricing.

use std::collections::BTreeSet;

use anyhow::Result;
use rusqlite::{TransactionBehavior, params};
use serde_json::json;

use super::Store;
use super::projection::refresh_rollup;
use crate::domain::clock::Millis;
use crate::domain::pricing::{Price, PriceTable, Rates, Tier};
use crate::domain::transcript::Buckets;

/// What a change of prices did to the stored token rows.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Repriced {
    pub rows: u64,
    /// New minus old cost over the changed rows (an unpriced row counts as 0).
    pub delta_nanousd: i64,
}

fn rates_json(r: &Rates) -> serde_json::Value {
    json!({"input": r.input, "output": r.output, "cache_read": r.cache_read,
           "cache_write_5m": r.cache_write_5m, "cache_write_1h": r.cache_write_1h})
}

fn rates_of(v: &serde_json::Value) -> Option<Rates> {
    Some(Rates {
        input: v["input"].as_i64()?,
        output: v["output"].as_i64()?,
        cache_read: v["cache_read"].as_i64()?,
        cache_write_5m: v["cache_write_5m"].as_i64()?,
        cache_write_1h: v["cache_write_1h"].as_i64()?,
    })
}

/// The price table in `cell`, read on first use: the embedded table with
/// the prices stored in `conn` over it.
pub(crate) fn loaded<'a>(
    cell: &'a std::cell::OnceCell<PriceTable>,
    conn: &rusqlite::Connection,
) -> Result<&'a PriceTable> {
    if let Some(t) = cell.get() {
        return Ok(t);
    }
    let table = read_prices(conn)?;
    Ok(cell.get_or_init(|| table))
}

/// The embedded table with the stored prices over it.
fn read_prices(conn: &rusqlite::Connection) -> Result<PriceTable> {
    let mut table = PriceTable::embedded();
    let mut stmt = conn.prepare(
        "SELECT model, input, output, cache_read, cache_write_5m, cache_write_1h, tiers FROM pricing",
    )?;
    let rows = stmt.query_map([], |r| {
        let tiers: String = r.get(6)?;
        Ok(Price {
            model: r.get(0)?,
            base: Rates {
                input: r.get(1)?,
                output: r.get(2)?,
                cache_read: r.get(3)?,
                cache_write_5m: r.get(4)?,
                cache_write_1h: r.get(5)?,
            },
            tiers: serde_json::from_str::<Vec<serde_json::Value>>(&tiers)
                .unwrap_or_default()
                .iter()
                .filter_map(|t| {
                    Some(Tier {
                        threshold: t["threshold"].as_u64()?,
                        rates: rates_of(t)?,
                    })
                })
                .collect(),
            fast_multiplier: None,
            us_multiplier: None,
        })
    })?;
    let custom = rows.collect::<Result<Vec<_>, _>>()?;
    drop(stmt);
    table.extend(custom);
    Ok(table)
}

impl Store {
    /// Where each model's price comes from: `embedded`, or the stored source.
    pub fn price_sources(&self) -> Result<std::collections::BTreeMap<String, String>> {
        let mut stmt = self.conn.prepare("SELECT model, source FROM pricing")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The price table in force (read on first use).
    pub fn prices(&self) -> Result<&PriceTable> {
        loaded(&self.prices, &self.conn)
    }

    /// Stores prices and reprices every stored token row, in one transaction.
    pub fn set_prices(&mut self, prices: &[Price], source: &str, now: Millis) -> Result<Repriced> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        {
            let mut put = tx.prepare(
                "INSERT INTO pricing(model, input, output, cache_read, cache_write_5m, cache_write_1h, tiers,
                   source, updated_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)
                 ON CONFLICT(model) DO UPDATE SET input = excluded.input, output = excluded.output,
                   cache_read = excluded.cache_read, cache_write_5m = excluded.cache_write_5m,
                   cache_write_1h = excluded.cache_write_1h, tiers = excluded.tiers,
                   source = excluded.source, updated_at = excluded.updated_at",
            )?;
            for p in prices {
                let tiers: Vec<serde_json::Value> = p
                    .tiers
                    .iter()
                    .map(|t| {
                        let mut v = rates_json(&t.rates);
                        v["threshold"] = json!(t.threshold);
                        v
                    })
                    .collect();
                let b = &p.base;
                put.execute(params![
                    p.model,
                    b.input,
                    b.output,
                    b.cache_read,
                    b.cache_write_5m,
                    b.cache_write_1h,
                    serde_json::to_string(&tiers)?,
                    source,
                    now
                ])?;
            }
        }
        let mut table = read_prices(&tx)?;
        table.extend(prices.to_vec());
        let done = reprice(&tx, &table)?;
        tx.commit()?;
        self.prices = std::cell::OnceCell::from(table);
        Ok(done)
    }
}

/// A counted row whose cost changes: its key (session, band, message), and
/// its cost before and after.
struct Change {
    session: String,
    band: i64,
    message: String,
    old: Option<i64>,
    new: Option<i64>,
}

/// Recomputes the cost of every counted row under `table`; rows whose cost
/// does not change are not written. Refreshes the rollup of touched sessions.
fn reprice(tx: &rusqlite::Transaction<'_>, table: &PriceTable) -> Result<Repriced> {
    let mut stmt = tx.prepare(
        "SELECT session_id, message_id, model, input_tokens, output_tokens, cache_write_5m_tokens,
                cache_write_1h_tokens, cache_read_tokens, cost_nanousd, billing, web_searches, band
         FROM usage_counted",
    )?;
    let mut changes: Vec<Change> = Vec::new();
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let n = |i: usize| -> rusqlite::Result<u64> { Ok(r.get::<_, i64>(i)? as u64) };
        let model: String = r.get(2)?;
        let b = Buckets {
            input: n(3)?,
            output: n(4)?,
            cache_write_5m: n(5)?,
            cache_write_1h: n(6)?,
            cache_read: n(7)?,
            // Part of the output: no price of its own.
            reasoning: 0,
        };
        let old: Option<i64> = r.get(8)?;
        let billing = crate::domain::transcript::Billing::from_columns(r.get(9)?, r.get(10)?);
        let new = table.message_cost(&model, &b, billing);
        if new != old {
            changes.push(Change {
                session: r.get(0)?,
                band: r.get(11)?,
                message: r.get(1)?,
                old,
                new,
            });
        }
    }
    drop(rows);
    drop(stmt);
    let mut set = tx.prepare_cached(
        "UPDATE usage_observations SET cost_nanousd = ?4
         WHERE session_id = ?1 AND band = ?2 AND message_id = ?3",
    )?;
    let mut out = Repriced::default();
    let mut sessions = BTreeSet::new();
    for c in changes {
        set.execute(params![c.session, c.band, c.message, c.new])?;
        out.rows += 1;
        out.delta_nanousd += c.new.unwrap_or(0) - c.old.unwrap_or(0);
        sessions.insert(c.session);
    }
    refresh_rollup(tx, &sessions)?;
    Ok(out)
}
