//! The history of an account's usage limits: each five-hour and seven-day
//! window Claude Code's status line reported (its used share over time,
//! the tokens and dollars spent in it, its pace), and, where no snapshot
//! exists (older history, other harnesses), five-hour blocks derived from
//! message times, marked as estimated.

use anyhow::Result;

use crate::domain::clock::{Millis, parse_instant};
use crate::domain::limits::FIVE_HOURS;
use crate::services::report::{self, Key, Query};
use crate::store::Store;
use crate::store::costs::CostFilter;
use crate::store::reports::Totals;

const SEVEN_DAYS: i64 = 7 * 24 * 3_600_000;

/// One window.
#[derive(Debug, Clone, PartialEq)]
pub struct Window {
    /// `5h` or `7d` (stated), or `block` (derived from message times).
    pub kind: &'static str,
    pub starts_at: Millis,
    pub resets_at: Millis,
    /// The used share first and last seen in the window, and how many
    /// snapshots saw it (none for a derived block).
    pub first: Option<(f64, Millis)>,
    pub last: Option<(f64, Millis)>,
    pub snapshots: usize,
    /// What the messages in the window (up to now) used and cost.
    pub totals: Totals,
}

impl Window {
    /// Whether `now` is in the window.
    pub fn active(&self, now: Millis) -> bool {
        self.starts_at <= now && now < self.resets_at
    }

    /// The time left until it resets, while it is active.
    pub fn left(&self, now: Millis) -> Option<Millis> {
        self.active(now).then(|| self.resets_at - now)
    }

    /// What the window will have cost when it resets, spending on at its
    /// pace so far (its cost over the time since it began, once a minute
    /// has passed), while it is active.
    pub fn projected_nanousd(&self, now: Millis) -> Option<i64> {
        let elapsed = now - self.starts_at;
        (self.active(now) && elapsed >= 60_000).then(|| {
            let whole = (self.resets_at - self.starts_at) as f64;
            (self.totals.cost_nanousd as f64 * whole / elapsed as f64).round() as i64
        })
    }

    /// Percentage points an hour, from the first snapshot to the last.
    pub fn pace(&self) -> Option<f64> {
        let ((p0, t0), (p1, t1)) = (self.first?, self.last?);
        (t1 - t0 >= 60_000).then(|| (p1 - p0) / ((t1 - t0) as f64 / 3_600_000.0))
    }

    pub fn estimated(&self) -> bool {
        self.kind == "block"
    }
}

/// Every window seen since `since` (by its start), oldest first: the
/// stated ones, and the derived blocks no stated five-hour window overlaps.
pub fn history(store: &Store, since: Option<Millis>, now: Millis) -> Result<Vec<Window>> {
    let mut out: Vec<Window> = Vec::new();
    for seen in store.snapshots(None)? {
        let s = &seen.snapshot;
        for (kind, w, len) in [
            ("5h", s.five_hour, FIVE_HOURS),
            ("7d", s.seven_day, SEVEN_DAYS),
        ] {
            let Some(w) = w else { continue };
            let point = (w.used_pct, seen.at);
            match out
                .iter_mut()
                .find(|x| x.kind == kind && x.resets_at == w.resets_at)
            {
                Some(x) => {
                    x.last = Some(point);
                    x.snapshots += 1;
                }
                None => out.push(Window {
                    kind,
                    starts_at: w.resets_at - len,
                    resets_at: w.resets_at,
                    first: Some(point),
                    last: Some(point),
                    snapshots: 1,
                    totals: Totals::default(),
                }),
            }
        }
    }
    out.retain(|w| since.is_none_or(|t| w.resets_at > t));
    for w in &mut out {
        w.totals = spent(store, w.starts_at, w.resets_at.min(now))?;
    }
    let stated: Vec<(Millis, Millis)> = out
        .iter()
        .filter(|w| w.kind == "5h")
        .map(|w| (w.starts_at, w.resets_at))
        .collect();
    for (start, totals) in blocks(store, since)? {
        let end = start + FIVE_HOURS;
        if stated.iter().any(|(s, e)| start < *e && *s < end) {
            continue;
        }
        out.push(Window {
            kind: "block",
            starts_at: start,
            resets_at: end,
            first: None,
            last: None,
            snapshots: 0,
            totals,
        });
    }
    out.sort_by_key(|w| (w.starts_at, w.kind));
    Ok(out)
}

/// The messages' sums in [from, to).
fn spent(store: &Store, from: Millis, to: Millis) -> Result<Totals> {
    if to <= from {
        return Ok(Totals::default());
    }
    let q = Query {
        by: &[],
        filter: CostFilter {
            since: Some(from),
            until: Some(to),
            ..CostFilter::default()
        },
        tz: jiff::tz::TimeZone::UTC,
        from: None,
    };
    Ok(report::sums(store, &q)?.total)
}

/// The five-hour blocks of every message since `since`, with their sums.
fn blocks(store: &Store, since: Option<Millis>) -> Result<Vec<(Millis, Totals)>> {
    let q = Query {
        by: &[Key::Block],
        filter: CostFilter {
            since,
            ..CostFilter::default()
        },
        tz: jiff::tz::TimeZone::UTC,
        from: None,
    };
    Ok(report::sums(store, &q)?
        .groups
        .into_iter()
        .filter_map(|(k, t)| Some((parse_instant(k.first()?)?, t)))
        .collect())
}
