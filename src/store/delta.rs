//! Writing a part that adds to a session (tail resume, or a later part of a
//! file too large to hold): its messages merge with the session's stored
//! observations by the counting rule (`UsageObservation::combine`), and the
//! report rollup moves by exactly the difference in the session's counted
//! rows, so the cost of a part follows the part, not the session. New rows
//! go to the session's last band, or start a new one (migration 0018), so
//! they append to the session's range instead of landing all over it.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::Result;
use rusqlite::{OptionalExtension, Transaction, params};

use super::projection::{
    MessageCounts, ObsRow, insert_observations, observation_from, put_rollup_row, refresh_rollup,
    rollup_row, settle_messages,
};
use crate::domain::pricing::PriceTable;
use crate::domain::rollup::{self, Rollup};
use crate::domain::transcript::{Buckets, ParsedSession, UsageObservation};

/// Rows a band holds before the session's next new rows start another:
/// small enough that a tail resume's inserts dirty few pages (a band is
/// about 300 pages of 8 KiB), large enough that a session has few bands
/// to look a message up in (a 1 GiB session grown by hooks has about 5).
/// The unit tests use bands of two rows, so that their sessions read in
/// parts and resumed (src/services/ingest/resume_tests.rs) span many.
const BAND_ROWS: i64 = if cfg!(test) { 2 } else { 16_384 };

/// The session's bands (`0..count`) and the band a part adding up to
/// `adding` rows writes its new rows into: the last one while it stays
/// within `BAND_ROWS`, else the next.
fn bands(tx: &Transaction<'_>, sid: &str, adding: usize) -> Result<(i64, i64)> {
    let last: Option<i64> = tx
        .prepare_cached("SELECT MAX(band) FROM usage_observations WHERE session_id = ?1")?
        .query_row([sid], |r| r.get(0))?;
    let Some(last) = last else {
        return Ok((0, 0));
    };
    let held: i64 = tx
        .prepare_cached(
            "SELECT COUNT(*) FROM usage_observations WHERE session_id = ?1 AND band = ?2",
        )?
        .query_row(params![sid, last], |r| r.get(0))?;
    let adding = i64::try_from(adding).unwrap_or(i64::MAX);
    let next = if held.saturating_add(adding) > BAND_ROWS {
        last + 1
    } else {
        last
    };
    Ok((last + 1, next))
}

/// A counted row as the rollup sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Counted {
    id: String,
    agent: String,
    model: String,
    at: Option<i64>,
    tokens: [i64; 6],
    cost: Option<i64>,
}

/// The session's counted row of a message (in `band`), if it holds the
/// counted one.
fn counted(tx: &Transaction<'_>, sid: &str, band: i64, id: &str) -> Result<Option<Counted>> {
    let mut q = tx.prepare_cached(
        "SELECT agent_id, model, occurred_at, input_tokens, output_tokens, cache_write_5m_tokens,
           cache_write_1h_tokens, cache_read_tokens, cost_nanousd, reasoning_tokens
         FROM usage_counted WHERE session_id = ?1 AND band = ?2 AND message_id = ?3",
    )?;
    Ok(q.query_row(params![sid, band, id], |r| {
        Ok(Counted {
            id: id.to_string(),
            agent: r.get(0)?,
            model: r.get(1)?,
            at: r.get(2)?,
            tokens: [
                r.get(3)?,
                r.get(4)?,
                r.get(5)?,
                r.get(6)?,
                r.get(7)?,
                r.get(9)?,
            ],
            cost: r.get(8)?,
        })
    })
    .optional()?)
}

/// The session's own observation of a message and its band, when it has
/// one: each of the session's `bands` is looked in, the latest first (a
/// message repeated across parts is most often in the last one).
fn stored(
    tx: &Transaction<'_>,
    sid: &str,
    bands: i64,
    id: &str,
) -> Result<Option<(i64, UsageObservation)>> {
    let mut q = tx.prepare_cached(
        "SELECT COALESCE(agent_id, session_id), COALESCE(record_session_id, session_id), model,
           occurred_at, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens,
           cache_read_tokens, billing, web_searches, reasoning_tokens
         FROM usage_observations WHERE session_id = ?1 AND band = ?2 AND message_id = ?3",
    )?;
    for band in (0..bands).rev() {
        let found = q
            .query_row(params![sid, band, id], |r| observation_from(r, id, 0, 9))
            .optional()?;
        if let Some(o) = found {
            return Ok(Some((band, o)));
        }
    }
    Ok(None)
}

fn tokens_of(b: &Buckets) -> [i64; 6] {
    b.columns()
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
    let (bands, band) = bands(tx, sid, usage.len())?;
    let mut update = tx.prepare_cached(
        "UPDATE usage_observations SET model = ?4, occurred_at = ?5, input_tokens = ?6,
           output_tokens = ?7, cache_write_5m_tokens = ?8, cache_write_1h_tokens = ?9,
           cache_read_tokens = ?10, billing = ?11, web_searches = ?12, reasoning_tokens = ?13
         WHERE session_id = ?1 AND band = ?2 AND message_id = ?3",
    )?;
    let mut shared =
        tx.prepare_cached("SELECT 1 FROM usage_observations WHERE message_id = ?1 LIMIT 1")?;
    let mut before: Vec<Counted> = Vec::new();
    let mut after: Vec<Counted> = Vec::new();
    // The messages whose counted row may have changed, with their band.
    let mut changed: BTreeMap<String, i64> = BTreeMap::new();
    let mut touched: BTreeSet<String> = BTreeSet::new();
    let mut rows: Vec<ObsRow<'_>> = Vec::new();
    let mut synthetic = 0u64;
    for u in usage {
        // A bulk run counts who holds every message: one nobody holds is
        // new here, with no stored row to look up (most of a large file's
        // later parts).
        let held = counts.as_deref().is_none_or(|c| c.holds(&u.message_id));
        if held && let Some((at, old)) = stored(tx, sid, bands, &u.message_id)? {
            let mut merged = old.clone();
            merged.combine(u);
            if merged == old {
                continue;
            }
            before.extend(counted(tx, sid, at, &u.message_id)?);
            let t = tokens_of(&merged.buckets);
            update.execute(params![
                sid,
                at,
                u.message_id,
                merged.model,
                merged.at,
                t[0],
                t[1],
                t[2],
                t[3],
                t[4],
                merged.billing.flags(),
                (merged.billing.web_searches > 0).then_some(merged.billing.web_searches as i64),
                (t[5] != 0).then_some(t[5])
            ])?;
            changed.insert(u.message_id.clone(), at);
            touched.insert(u.message_id.clone());
            continue;
        }
        let alone = match counts.as_deref_mut() {
            Some(c) => c.add(&u.message_id),
            None => !shared.exists([&u.message_id])?,
        };
        if !alone {
            touched.insert(u.message_id.clone());
            changed.insert(u.message_id.clone(), band);
        }
        synthetic += u64::from(u.model == "<synthetic>");
        rows.push(ObsRow::of(sid, u, alone, band, prices));
    }
    insert_observations(tx, &rows)?;
    // New counted rows move the rollup up by their sums, summed without a
    // copy of each (most of a large part); changed ones by their difference.
    let added = rollup::sum(rows.iter().filter_map(ObsRow::counted));
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
    for (id, at) in &changed {
        after.extend(counted(tx, sid, *at, id)?);
    }
    apply(tx, sid, added, &before, &after)?;
    refresh_rollup(tx, &others)?;
    Ok(synthetic)
}

/// Moves the session's rollup by `added` (the sums of new counted rows) and
/// from `before` to `after` (the counted rows the part changed). A group's
/// first and last times can only be moved this way when no row left it or
/// moved within it; otherwise the session's rollup is recounted.
fn apply(
    tx: &Transaction<'_>,
    sid: &str,
    added: Rollup,
    before: &[Counted],
    after: &[Counted],
) -> Result<()> {
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
    let mut groups = added;
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
