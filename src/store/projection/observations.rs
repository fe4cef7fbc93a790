//! A session's usage observations: written (counted when no other session
//! holds the message), and settled across sessions by the counting rule.

use std::collections::{BTreeSet, HashMap};

use anyhow::Result;
use rusqlite::{Transaction, TransactionBehavior, params};

use super::rollup_rows::refresh_rollup;
use crate::domain::pricing::PriceTable;
use crate::domain::rollup::{self, Counted, Rollup};
use crate::domain::transcript::usage::settle;
use crate::domain::transcript::{Billing, Buckets, ParsedSession, UsageObservation};
use crate::store::Store;

/// How many sessions hold each message id, kept in memory for a large run so
/// that writing a message needs no index lookup to know whether it is shared.
#[derive(Debug, Default)]
pub struct MessageCounts(HashMap<String, u32>);

impl MessageCounts {
    /// Whether some session holds `id`.
    pub(crate) fn holds(&self, id: &str) -> bool {
        self.0.get(id).is_some_and(|n| *n > 0)
    }

    /// Counts one more session holding `id`; whether it is the only one.
    pub(crate) fn add(&mut self, id: &str) -> bool {
        if let Some(n) = self.0.get_mut(id) {
            *n += 1;
            *n == 1
        } else {
            self.0.insert(id.to_string(), 1);
            true
        }
    }
}

impl Store {
    /// Loads the count of observing sessions of every message id.
    pub fn message_counts(&self) -> Result<MessageCounts> {
        let mut stmt = self
            .conn
            .prepare("SELECT message_id, COUNT(*) FROM usage_observations GROUP BY message_id")?;
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, u32>(1)?)))?;
        Ok(MessageCounts(rows.collect::<Result<_, _>>()?))
    }
}

/// Replaces the session's observations. A message no other session holds
/// (the common case) is written already counted; the ids returned — held by
/// another session too, or held before and gone now — need `settle_messages`.
pub(super) fn write_observations(
    tx: &Transaction<'_>,
    p: &ParsedSession,
    mut counts: Option<&mut MessageCounts>,
    prices: &PriceTable,
) -> Result<(BTreeSet<String>, Rollup)> {
    let sid = p.session_id.as_str();
    let mut old: BTreeSet<String> = BTreeSet::new();
    {
        let mut stmt =
            tx.prepare("SELECT message_id FROM usage_observations WHERE session_id = ?1")?;
        for id in stmt.query_map([sid], |r| r.get::<_, String>(0))? {
            old.insert(id?);
        }
    }
    if !old.is_empty() {
        tx.execute(
            "DELETE FROM usage_observations WHERE session_id = ?1",
            [sid],
        )?;
        if let Some(c) = counts.as_deref_mut() {
            for id in &old {
                if let Some(n) = c.0.get_mut(id) {
                    *n = n.saturating_sub(1);
                }
            }
        }
    }
    let mut shared =
        tx.prepare_cached("SELECT 1 FROM usage_observations WHERE message_id = ?1 LIMIT 1")?;
    let mut touched: BTreeSet<String> = BTreeSet::new();
    // In key order, all in band 0 (a rewrite starts the session's bands
    // again): the session's rows append to the table, and neighbouring index
    // entries land on the same pages.
    let mut usage: Vec<&crate::domain::transcript::UsageObservation> = p.usage.iter().collect();
    usage.sort_unstable_by(|a, b| a.message_id.cmp(&b.message_id));
    let mut rows: Vec<ObsRow<'_>> = Vec::with_capacity(usage.len());
    for u in usage {
        old.remove(&u.message_id);
        let alone = match counts.as_deref_mut() {
            Some(c) => c.add(&u.message_id),
            None => !shared.exists([&u.message_id])?,
        };
        if !alone {
            touched.insert(u.message_id.clone());
        }
        rows.push(ObsRow::of(sid, u, alone, 0, prices));
    }
    insert_observations(tx, &rows)?;
    touched.extend(old);
    if counts.is_some() {
        // Bulk mode: no message index now; settle these at the end of the run.
        let mut pend =
            tx.prepare_cached("INSERT OR IGNORE INTO pending_settle(message_id) VALUES (?1)")?;
        for id in &touched {
            pend.execute([id])?;
        }
        touched.clear();
    }
    let own = rollup::sum(rows.iter().filter_map(ObsRow::counted));
    Ok((touched, own))
}

/// One observation row as bound to the INSERT.
pub(crate) struct ObsRow<'a> {
    pub session_id: &'a str,
    pub message_id: &'a str,
    pub agent_id: Option<&'a str>,
    pub record_session_id: Option<&'a str>,
    pub model: &'a str,
    pub at: Option<i64>,
    pub tokens: [i64; 6],
    pub counted: bool,
    pub cost: Option<i64>,
    pub billing: Billing,
    /// The session's band the row is written into (migration 0018).
    pub band: i64,
}

impl<'a> ObsRow<'a> {
    /// The row as the rollup sees it, when it is counted.
    pub(crate) fn counted(&self) -> Option<Counted<'a>> {
        self.counted.then_some(Counted {
            agent: self.agent_id.unwrap_or(self.session_id),
            model: self.model,
            at: self.at,
            tokens: self.tokens,
            cost: self.cost,
        })
    }

    /// A session's observation as written: counted (and priced) when it is
    /// the only one of its message; the common values as NULL (narrower
    /// rows, fewer pages).
    pub(crate) fn of(
        sid: &'a str,
        u: &'a UsageObservation,
        alone: bool,
        band: i64,
        prices: &PriceTable,
    ) -> ObsRow<'a> {
        let b = u.buckets;
        ObsRow {
            session_id: sid,
            message_id: &u.message_id,
            agent_id: (u.agent_id != sid).then_some(u.agent_id.as_str()),
            record_session_id: (u.record_session_id != sid).then_some(u.record_session_id.as_str()),
            model: &u.model,
            at: u.at,
            tokens: b.columns(),
            counted: alone,
            cost: if alone {
                prices.message_cost(&u.model, &u.buckets, u.billing)
            } else {
                None
            },
            billing: u.billing,
            band,
        }
    }
}

/// Rows per multi-row INSERT (17 parameters each, under SQLite's limit).
const INSERT_BATCH: usize = 64;

/// The parameters of a run of rows, in column order.
/// Binds a chunk's rows to a statement of `chunk.len()` value tuples, each
/// value by its own type (no list of trait objects per chunk).
fn bind(stmt: &mut rusqlite::CachedStatement<'_>, chunk: &[ObsRow<'_>]) -> rusqlite::Result<()> {
    const COLUMNS: usize = 17;
    for (i, r) in chunk.iter().enumerate() {
        let at = i * COLUMNS;
        stmt.raw_bind_parameter(at + 1, r.session_id)?;
        stmt.raw_bind_parameter(at + 2, r.message_id)?;
        stmt.raw_bind_parameter(at + 3, r.agent_id)?;
        stmt.raw_bind_parameter(at + 4, r.record_session_id)?;
        stmt.raw_bind_parameter(at + 5, r.model)?;
        stmt.raw_bind_parameter(at + 6, r.at)?;
        for (k, t) in r.tokens.iter().enumerate() {
            // Reasoning (the last) is NULL when there is none: most rows.
            if k == 5 {
                stmt.raw_bind_parameter(at + 7 + k, (*t != 0).then_some(*t))?;
            } else {
                stmt.raw_bind_parameter(at + 7 + k, t)?;
            }
        }
        stmt.raw_bind_parameter(at + 13, r.counted)?;
        stmt.raw_bind_parameter(at + 14, r.cost)?;
        stmt.raw_bind_parameter(at + 15, r.billing.flags())?;
        stmt.raw_bind_parameter(
            at + 16,
            (r.billing.web_searches > 0).then_some(r.billing.web_searches as i64),
        )?;
        stmt.raw_bind_parameter(at + 17, r.band)?;
    }
    Ok(())
}

/// Inserts observation rows, `INSERT_BATCH` per statement.
pub(crate) fn insert_observations(tx: &Transaction<'_>, rows: &[ObsRow<'_>]) -> Result<()> {
    const COLS: &str = "INSERT INTO usage_observations(session_id, message_id, agent_id, record_session_id, model,
        occurred_at, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens,
        reasoning_tokens, counted, cost_nanousd, billing, web_searches, band) VALUES ";
    let values = |n: usize| -> String {
        let one = "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
        format!("{COLS}{}", vec![one; n].join(","))
    };
    let mut chunks = rows.chunks_exact(INSERT_BATCH);
    if rows.len() >= INSERT_BATCH {
        let mut stmt = tx.prepare_cached(&values(INSERT_BATCH))?;
        for chunk in &mut chunks {
            bind(&mut stmt, chunk)?;
            stmt.raw_execute()?;
        }
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut stmt = tx.prepare_cached(&values(1))?;
        for r in rest {
            bind(&mut stmt, std::slice::from_ref(r))?;
            stmt.raw_execute()?;
        }
    }
    Ok(())
}

/// Settles every message a bulk run deferred, in one transaction.
pub(crate) fn settle_pending(conn: &mut rusqlite::Connection, prices: &PriceTable) -> Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let ids: BTreeSet<String> = tx
        .prepare("SELECT message_id FROM pending_settle")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    if !ids.is_empty() {
        let affected = settle_messages(&tx, &ids, prices)?;
        refresh_rollup(&tx, &affected)?;
        tx.execute("DELETE FROM pending_settle", [])?;
    }
    tx.commit()?;
    Ok(())
}

/// An observation from a row holding, from column `at`, its agent, record
/// session, model, time and five token counts, and from `billing_at` its
/// billing flags, web searches and reasoning tokens.
pub(crate) fn observation_from(
    r: &rusqlite::Row<'_>,
    id: &str,
    at: usize,
    billing_at: usize,
) -> rusqlite::Result<UsageObservation> {
    let n = |i: usize| -> rusqlite::Result<u64> { Ok(r.get::<_, i64>(at + i)? as u64) };
    let reasoning: Option<i64> = r.get(billing_at + 2)?;
    Ok(UsageObservation {
        message_id: id.to_string(),
        agent_id: r.get(at)?,
        record_session_id: r.get(at + 1)?,
        model: r.get(at + 2)?,
        at: r.get(at + 3)?,
        buckets: Buckets {
            input: n(4)?,
            output: n(5)?,
            cache_write_5m: n(6)?,
            cache_write_1h: n(7)?,
            cache_read: n(8)?,
            reasoning: reasoning.unwrap_or(0).max(0) as u64,
        },
        billing: Billing::from_columns(r.get(billing_at)?, r.get(billing_at + 1)?),
    })
}

/// The settled state of one observation: counted, model, time, buckets.
type Settled = (
    bool,
    Option<String>,
    Option<i64>,
    [Option<i64>; 6],
    Option<i64>,
);

/// A row's settled columns as they stand: counted, the merged model and
/// time, the merged buckets, the cost.
fn settled_from(r: &rusqlite::Row<'_>) -> rusqlite::Result<Settled> {
    Ok((
        r.get::<_, i64>(10)? != 0,
        r.get(11)?,
        r.get(12)?,
        [
            r.get(13)?,
            r.get(14)?,
            r.get(15)?,
            r.get(16)?,
            r.get(17)?,
            r.get(23)?,
        ],
        r.get(18)?,
    ))
}

/// Recomputes which observation of each message is counted, and its settled
/// values, from every session's observation (`transcript::usage::settle`).
/// Rows already in the right state are not written. Returns the sessions
/// whose counted rows changed.
pub(crate) fn settle_messages(
    tx: &Transaction<'_>,
    ids: &BTreeSet<String>,
    prices: &PriceTable,
) -> Result<BTreeSet<String>> {
    let mut affected: BTreeSet<String> = BTreeSet::new();
    let mut select = tx.prepare_cached(
        "SELECT session_id, COALESCE(agent_id, session_id), COALESCE(record_session_id, session_id), model,
           occurred_at, input_tokens, output_tokens,
           cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, counted, t_model, t_occurred_at,
           t_input_tokens, t_output_tokens, t_cache_write_5m_tokens, t_cache_write_1h_tokens, t_cache_read_tokens,
           cost_nanousd, billing, web_searches, reasoning_tokens, band, t_reasoning_tokens
         FROM usage_observations WHERE message_id = ?1 ORDER BY session_id",
    )?;
    let mut set = tx.prepare_cached(
        "UPDATE usage_observations SET counted = ?3, t_model = ?4, t_occurred_at = ?5, t_input_tokens = ?6,
           t_output_tokens = ?7, t_cache_write_5m_tokens = ?8, t_cache_write_1h_tokens = ?9,
           t_cache_read_tokens = ?10, cost_nanousd = ?11, t_reasoning_tokens = ?13
         WHERE session_id = ?1 AND band = ?12 AND message_id = ?2",
    )?;
    let mut obs: Vec<(String, UsageObservation)> = Vec::new();
    let mut state: Vec<Settled> = Vec::new();
    let mut bands: Vec<i64> = Vec::new();
    for id in ids {
        obs.clear();
        state.clear();
        bands.clear();
        let mut rows = select.query([id])?;
        while let Some(r) = rows.next()? {
            obs.push((r.get::<_, String>(0)?, observation_from(r, id, 1, 19)?));
            state.push(settled_from(r)?);
            bands.push(r.get(22)?);
        }
        drop(rows);
        let Some((owner, m)) = settle(&obs) else {
            continue;
        };
        let uncounted: Settled = (false, None, None, [None; 6], None);
        let cost = prices.message_cost(&m.model, &m.buckets, m.billing);
        for (((session, own), now), band) in obs.iter().zip(&state).zip(&bands) {
            let want = if session != owner {
                uncounted.clone()
            } else if own.model == m.model && own.at == m.at && own.buckets == m.buckets {
                (true, None, None, [None; 6], cost)
            } else {
                (
                    true,
                    Some(m.model.clone()),
                    m.at,
                    m.buckets.columns().map(Some),
                    cost,
                )
            };
            if *now != want {
                set.execute(params![
                    session, id, want.0, want.1, want.2, want.3[0], want.3[1], want.3[2],
                    want.3[3], want.3[4], want.4, band, want.3[5]
                ])?;
                affected.insert(session.clone());
            }
        }
    }
    Ok(affected)
}
