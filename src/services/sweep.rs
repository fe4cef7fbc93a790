//! One sweep: the periodic upkeep cron runs. Open sessions' transcripts
//! caught up first (so what follows sees what they hold), the watchdog,
//! the lease sweep, the closer (after the lease sweep, so runs it just
//! closed are looked at in the same pass), and the push to the team
//! database when one is set. Returns what each step did; prints nothing.

use anyhow::Result;

use crate::domain::clock::Millis;
use crate::services::close::{self, Batch};
use crate::services::ingest::{Caught, catch_up_open};
use crate::services::{push, settings};
use crate::store::Store;
use crate::store::events::Transition;
use crate::store::runs::LeaseClose;

/// What a sweep did (or, dry, would do).
#[derive(Debug)]
pub struct Swept {
    /// Open sessions' transcripts caught up; `None` on a dry run.
    pub caught: Option<Caught>,
    /// Agents the watchdog settled, recent enough to be news.
    pub changes: Vec<Transition>,
    /// Agents silent for longer than `sweep.history_hours` it settled too:
    /// history, counted, not listed.
    pub history: usize,
    /// Runs the lease sweep closed.
    pub leases: Vec<LeaseClose>,
    /// The closer's batch; `None` while `closer.enabled` is off.
    pub closer: Option<Batch>,
    /// The push to `push.url` (its URL as shown, and what it sent); `None`
    /// without one or on a dry run. A failed push is said and left to the
    /// next sweep: nothing is marked sent that was not.
    pub pushed: Option<Result<(String, push::Pushed)>>,
}

impl Swept {
    /// How many things changed (or would).
    pub fn changed(&self) -> usize {
        self.changes.len()
            + self.history
            + self.leases.len()
            + self.closer.as_ref().map_or(0, |b| b.closed.len())
    }
}

/// Runs one sweep at `now`; `dry_run` changes nothing.
pub fn sweep(store: &mut Store, now: Millis, dry_run: bool) -> Result<Swept> {
    let caught = if dry_run {
        None
    } else {
        let budget = settings::count(store, "sweep.catch_up_bytes")?;
        Some(catch_up_open(store, budget)?)
    };
    let window = settings::minutes_ms(store, "watchdog.minutes")?;
    // A session whose client is gone from this machine ends at once.
    let gone = store.gone_sessions(crate::domain::harness::sender::gone)?;
    let changes = store.watchdog(now, window, &gone, dry_run)?;
    // The lease sweep: runs silent past lease + grace close implicitly.
    let lease = settings::hours_ms(store, "lease.hours")?;
    let grace = settings::minutes_ms(store, "sweep.grace_minutes")?;
    let leases = store.sweep_leases(now, lease, grace, dry_run)?;
    let closer = if settings::enabled(store, "closer.enabled")? {
        Some(close::batch(store, now, dry_run)?)
    } else {
        None
    };
    let pushed = if dry_run { None } else { push_if_set(store)? };
    // What went silent long ago is history, not news: settled, counted,
    // not listed (a first sweep over imported sessions would list every
    // old session as a transition).
    let horizon = settings::hours_ms(store, "sweep.history_hours")?;
    let (changes, history): (Vec<_>, Vec<_>) = changes
        .into_iter()
        .partition(|t| t.at.is_none_or(|at| now - at < horizon));
    Ok(Swept {
        caught,
        changes,
        history: history.len(),
        leases,
        closer,
        pushed,
    })
}

/// Pushes to the team database the `push.url` setting names, within
/// `sweep.push_seconds`; `None` when none is set.
fn push_if_set(store: &mut Store) -> Result<Option<Result<(String, push::Pushed)>>> {
    let url = settings::choice(store, "push.url")?;
    if url.trim().is_empty() {
        return Ok(None);
    }
    let seconds = settings::count(store, "sweep.push_seconds")?;
    let opts = push::Options {
        machine: push::machine_label(store)?,
        user: push::user_label(store)?,
        since: None,
        dry_run: false,
        with_memory: false,
        deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(seconds)),
    };
    Ok(Some(push::Target::parse(&url).and_then(|t| {
        push::push_watched(store, &t, &opts).map(|d| (t.shown().to_string(), d))
    })))
}
