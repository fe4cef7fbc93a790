//! One closer batch (study h "Closer", resolve-only; DESIGN.md Decision
//! 13): for each finished run rule 4 makes eligible, the `evidence` judge
//! reads the run's own last words against the commitments its briefing
//! showed; the run is claimed, each verdict resolved (fenced, re-read),
//! and the run finished. A run that fails is backed off, not retried at
//! once. A service: the rules are `continuity::closer`'s, the rows
//! `store::closer`'s.

use anyhow::Result;

use super::closer::{self, Commitment, judge_evidence};
use crate::clock::Millis;
use crate::store::Store;
use crate::store::closer::{Candidate, Resolve};

/// A commitment the batch resolved (or, dry, would resolve).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closed {
    pub run_id: String,
    pub agent: String,
    pub session_id: String,
    pub memory_id: String,
    pub evidence: String,
}

/// What the batch did besides the resolves.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Batch {
    pub closed: Vec<Closed>,
    /// Runs claimed and finished.
    pub finished: usize,
    /// Runs another writer claimed first, or that came back to life.
    pub fenced: usize,
    /// Runs whose pass failed (backed off).
    pub failed: usize,
}

/// The briefed memories of a run as the judge sees them.
fn briefed(c: &Candidate) -> Vec<(String, String)> {
    let items: Vec<serde_json::Value> = serde_json::from_str(&c.briefed).unwrap_or_default();
    items
        .iter()
        .filter_map(|it| {
            Some((
                it["id"].as_str()?.to_string(),
                it["topic"].as_str()?.to_string(),
            ))
        })
        .collect()
}

/// The verdicts for one run: which briefed commitments its final message
/// states done.
fn verdicts(c: &Candidate) -> Vec<closer::Verdict> {
    let items = briefed(c);
    let commitments: Vec<Commitment<'_>> = items
        .iter()
        .map(|(id, topic)| Commitment { id, topic })
        .collect();
    let texts: Vec<&str> = c.excerpt.as_deref().into_iter().collect();
    judge_evidence(&commitments, &texts)
}

/// Runs one batch at `now`. With `dry_run`, judges and reports, writes
/// nothing.
pub fn batch(store: &mut Store, now: Millis, dry_run: bool) -> Result<Batch> {
    let mut out = Batch::default();
    for c in store.closer_candidates(now, closer::BATCH)? {
        let found = verdicts(&c);
        let closed = |v: &closer::Verdict| Closed {
            run_id: c.run_id.clone(),
            agent: c.agent.clone(),
            session_id: c.session_id.clone(),
            memory_id: v.id.clone(),
            evidence: v.evidence.clone(),
        };
        if dry_run {
            out.closed.extend(found.iter().map(closed));
            continue;
        }
        if let Ok((resolved, finished)) = one(store, &c, &found, now) {
            if finished {
                out.finished += 1;
            } else {
                out.fenced += 1;
            }
            out.closed.extend(
                found
                    .iter()
                    .filter(|v| resolved.contains(&v.id))
                    .map(closed),
            );
        } else {
            store.closer_failed(&c.run_id, now)?;
            out.failed += 1;
        }
    }
    Ok(out)
}

/// Claims, resolves and finishes one run: the ids resolved, and whether
/// the run was finished (false: fenced, by a lost claim or a run that came
/// back to life; the resolves that landed before stand).
fn one(
    store: &mut Store,
    c: &Candidate,
    found: &[closer::Verdict],
    now: Millis,
) -> Result<(Vec<String>, bool)> {
    let Some(token) = store.closer_claim(c, now)? else {
        return Ok((Vec::new(), false));
    };
    let mut resolved = Vec::new();
    for v in found {
        match store.closer_resolve(c, &token, &v.id, &v.evidence, now)? {
            Resolve::Resolved => resolved.push(v.id.clone()),
            Resolve::Skipped => {}
            Resolve::Fenced => return Ok((resolved, false)),
        }
    }
    let finished = store.closer_finish(c, &token)?;
    Ok((resolved, finished))
}
