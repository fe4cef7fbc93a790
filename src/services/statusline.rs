//! One status line call: what Claude Code says of the session and the
//! account's limits, recorded when it changed; the session's transcript
//! caught up by tail resume (never the corpus); then the figures the line
//! shows. Returns them; prints nothing.

use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::domain::clock::Millis;
use crate::domain::limits::{self, Pace, Snapshot};
use crate::services::report::{self, Query};
use crate::services::{ingest, settings};
use crate::store::Store;
use crate::store::costs::CostFilter;
use crate::store::reports::SessionFilter;

/// How long a status line waits for the database's lock before it shows
/// what it has: Claude Code calls it after every message.
const WAIT: Duration = Duration::from_millis(150);

/// What the line shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Status {
    pub snapshot: Snapshot,
    /// The session's cost from its transcript (exact), when the store holds
    /// it priced.
    pub session_cost_nanousd: Option<i64>,
    /// Everything since local midnight (`tz`).
    pub today_cost_nanousd: i64,
    /// The five-hour window's pace.
    pub five_hour_pace: Option<Pace>,
    /// Whether this call's snapshot was new (stored).
    pub recorded: bool,
}

/// Reads one status line payload (`input`) into the database at `db` at
/// `now`; `tz` names the day "today" is.
pub fn status(db: &Path, input: &[u8], now: Millis, tz: &jiff::tz::TimeZone) -> Result<Status> {
    let v: serde_json::Value =
        serde_json::from_slice(input).context("the status line's input is not JSON")?;
    // Secrets out before anything is kept or shown, as for a hook's payload
    // (ids, paths and numbers stay).
    let snapshot = limits::from_statusline(&crate::domain::redact::redact(&v));
    let mut store = Store::open_waiting(db, WAIT)?;
    let recorded =
        store.record_snapshot(crate::domain::clients::CLAUDE_CODE.name, &snapshot, now)?;
    if let Some(path) = snapshot.transcript_path.as_deref() {
        let budget = settings::count(&store, "ingest.stop_max_bytes")?;
        ingest::catch_up(&mut store, Path::new(path), budget, false)?;
    }
    let session_cost_nanousd = match &snapshot.session_id {
        Some(sid) => session_cost(&store, sid)?,
        None => None,
    };
    let five_hour_pace = match snapshot.five_hour {
        Some(w) => limits::pace(w, store.window_first(w.resets_at)?, now),
        None => None,
    };
    Ok(Status {
        today_cost_nanousd: today_cost(&store, now, tz)?,
        session_cost_nanousd,
        five_hour_pace,
        recorded,
        snapshot,
    })
}

/// The session's priced cost in the store.
fn session_cost(store: &Store, sid: &str) -> Result<Option<i64>> {
    let filter = SessionFilter {
        session_id: Some(sid.to_string()),
        ..SessionFilter::default()
    };
    let row = store.sessions(&filter)?.into_iter().next();
    Ok(row
        .filter(|s| s.totals.priced_messages > 0)
        .map(|s| s.totals.cost_nanousd))
}

/// Every message's cost since midnight in `tz`.
fn today_cost(store: &Store, now: Millis, tz: &jiff::tz::TimeZone) -> Result<i64> {
    let ts = jiff::Timestamp::from_millisecond(now)?;
    let day = tz.to_datetime(ts).date();
    let midnight = tz.to_timestamp(day.to_datetime(jiff::civil::Time::midnight()))?;
    let q = Query {
        by: &[],
        filter: CostFilter {
            since: Some(midnight.as_millisecond()),
            ..CostFilter::default()
        },
        tz: tz.clone(),
        from: None,
    };
    Ok(report::sums(store, &q)?.total.cost_nanousd)
}
