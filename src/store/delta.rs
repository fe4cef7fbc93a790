//! Writing a part that adds to a session (tail resume, or a later part of a
//! file too large to hold): its messages merge with the session's stored
//! observations by the counting rule (`UsageObservation::combine`), and the
//! report rollup moves by exactly the difference in the session's counted
//! rows, so the cost of a part follows the part, not the session.

use std::collections::BTreeSet;

use anyhow::Result;
use rusqlite::{OptionalExtension, Transaction, params};

use super::projection::{
    MessageCounts, ObsRow, insert_observations, observation_from, put_rollup_row, refresh_rollup,
    rollup_row, settle_messages,
};
use crate::pricing::PriceTable;
use crate::rollup::{self, Rollup};
use crate::transcript::{Buckets, ParsedSession, UsageObservation};

/// A counted row as the rollup sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Counted {
    id: String,
    agent: String,
    model: String,
    at: Option<i64>,
    tokens: [i64; 5],
    cost: Option<i64>,
}

/// The session's counted row of a message, if it holds the counted one.
fn counted(tx: &Transaction<'_>, sid: &str, id: &str) -> Result<Option<Counted>> {
    let mut q = tx.prepare_cached(
        "SELECT agent_id, model, occurred_at, input_tokens, output_tokens, cache_write_5m_tokens,
           cache_write_1h_tokens, cache_read_tokens, cost_nanousd
         FROM token_usage WHERE session_id = ?1 AND message_id = ?2",
    )?;
    Ok(q.query_row(params![sid, id], |r| {
        Ok(Counted {
            id: id.to_string(),
            agent: r.get(0)?,
            model: r.get(1)?,
            at: r.get(2)?,
            tokens: [r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?],
            cost: r.get(8)?,
        })
    })
    .optional()?)
}

/// The session's own observation of a message, when it has one.
fn stored(tx: &Transaction<'_>, sid: &str, id: &str) -> Result<Option<UsageObservation>> {
    let mut q = tx.prepare_cached(
        "SELECT COALESCE(agent_id, session_id), COALESCE(record_session_id, session_id), model,
           occurred_at, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens,
           cache_read_tokens, billing, web_searches
         FROM usage_observations WHERE session_id = ?1 AND message_id = ?2",
    )?;
    Ok(
        q.query_row(params![sid, id], |r| observation_from(r, id, 0, 9))
            .optional()?,
    )
}

fn tokens_of(b: &Buckets) -> [i64; 5] {
    [
        b.input,
        b.output,
        b.cache_write_5m,
        b.cache_write_1h,
        b.cache_read,
    ]
    .map(|v| v as i64)
}

/// Merges a part's messages into the session's observations and moves the
/// rollup by the difference. Returns how many synthetic messages are new to
/// the session.
pub(super) fn merge_observations(
    tx: &Transaction<'_>,
    p: &ParsedSession,
    mut counts: Option<&mut MessageCounts>,
    prices: &PriceTable,
) -> Result<u64> {
    let sid = p.session_id.as_str();
    let mut usage: Vec<&UsageObservation> = p.usage.iter().collect();
    usage.sort_unstable_by(|a, b| a.message_id.cmp(&b.message_id));
    let mut update = tx.prepare_cached(
        "UPDATE usage_observations SET model = ?3, occurred_at = ?4, input_tokens = ?5,
           output_tokens = ?6, cache_write_5m_tokens = ?7, cache_write_1h_tokens = ?8,
           cache_read_tokens = ?9, billing = ?10, web_searches = ?11
         WHERE session_id = ?1 AND message_id = ?2",
    )?;
    let mut shared =
        tx.prepare_cached("SELECT 1 FROM usage_observations WHERE message_id = ?1 LIMIT 1")?;
    let mut before: Vec<Counted> = Vec::new();
    let mut after: Vec<Counted> = Vec::new();
    let mut changed: BTreeSet<String> = BTreeSet::new();
    let mut touched: BTreeSet<String> = BTreeSet::new();
    let mut rows: Vec<ObsRow<'_>> = Vec::new();
    let mut synthetic = 0u64;
    for u in usage {
        // A bulk run counts who holds every message: one nobody holds is
        // new here, with no stored row to look up (most of a large file's
        // later parts).
        let held = counts.as_deref().is_none_or(|c| c.holds(&u.message_id));
        if held && let Some(old) = stored(tx, sid, &u.message_id)? {
            let mut merged = old.clone();
            merged.combine(u);
            if merged == old {
                continue;
            }
            before.extend(counted(tx, sid, &u.message_id)?);
            let t = tokens_of(&merged.buckets);
            update.execute(params![
                sid,
                u.message_id,
                merged.model,
                merged.at,
                t[0],
                t[1],
                t[2],
                t[3],
                t[4],
                merged.billing.flags(),
                (merged.billing.web_searches > 0).then_some(merged.billing.web_searches as i64)
            ])?;
            changed.insert(u.message_id.clone());
            touched.insert(u.message_id.clone());
            continue;
        }
        let alone = match counts.as_deref_mut() {
            Some(c) => c.add(&u.message_id),
            None => !shared.exists([&u.message_id])?,
        };
        if alone {
            after.push(Counted {
                id: u.message_id.clone(),
                agent: u.agent_id.clone(),
                model: u.model.clone(),
                at: u.at,
                tokens: tokens_of(&u.buckets),
                cost: prices.message_cost(&u.model, &u.buckets, u.billing),
            });
        } else {
            touched.insert(u.message_id.clone());
            changed.insert(u.message_id.clone());
        }
        synthetic += u64::from(u.model == "<synthetic>");
        rows.push(ObsRow::of(sid, u, alone, prices));
    }
    insert_observations(tx, &rows)?;
    let mut others: BTreeSet<String> = BTreeSet::new();
    if counts.is_some() {
        // Bulk mode: settled at the end of the run, which recounts the
        // rollup of every session the settling changes.
        let mut pend =
            tx.prepare_cached("INSERT OR IGNORE INTO pending_settle(message_id) VALUES (?1)")?;
        for id in &touched {
            pend.execute([id])?;
        }
    } else if !touched.is_empty() {
        others = settle_messages(tx, &touched, prices)?;
        others.remove(sid);
    }
    for id in &changed {
        after.extend(counted(tx, sid, id)?);
    }
    apply(tx, sid, &before, &after)?;
    refresh_rollup(tx, &others)?;
    Ok(synthetic)
}

/// Moves the session's rollup from `before` to `after` (the counted rows
/// the part changed). A group's first and last times can only be moved
/// this way when no row left it or moved within it; otherwise the
/// session's rollup is recounted.
fn apply(tx: &Transaction<'_>, sid: &str, before: &[Counted], after: &[Counted]) -> Result<()> {
    let key = |c: &Counted| rollup::key(&c.agent, &c.model, c.at);
    let stays = |b: &Counted| {
        after
            .iter()
            .any(|a| a.id == b.id && key(a) == key(b) && a.at == b.at)
    };
    if !before.iter().all(stays) {
        let mut one = BTreeSet::new();
        one.insert(sid.to_string());
        return refresh_rollup(tx, &one);
    }
    let mut groups = Rollup::new();
    for (c, sign) in before
        .iter()
        .map(|c| (c, -1))
        .chain(after.iter().map(|c| (c, 1)))
    {
        groups
            .entry(key(c))
            .or_default()
            .count(c.tokens, c.cost, c.at, sign);
    }
    for (key, change) in &groups {
        let mut row = rollup_row(tx, sid, key)?.unwrap_or_default();
        row.absorb(change);
        put_rollup_row(tx, sid, key, &row)?;
    }
    Ok(())
}
