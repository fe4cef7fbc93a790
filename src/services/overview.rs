//! What `report` draws: a period's cost and tokens over time by model and
//! by harness, the top sessions and projects, the most expensive sessions'
//! agent trees, the stated usage limits and the memory loop's health. One
//! read of the store; the HTML is `output::html`'s.

use std::collections::BTreeMap;

use anyhow::Result;

use crate::domain::clock::Millis;
use crate::services::report::{self, Key, Query, Watch};
use crate::store::Store;
use crate::store::costs::CostFilter;
pub use crate::store::overview::{Bucket, Overview, SessionPart};
use crate::store::reports::{SessionFilter, Totals};

/// Sessions drawn in full (their trees), the most expensive first, and
/// the agents they may hold in all (the first session is always drawn):
/// a year of heavy use keeps the file under 2 MB.
pub const SESSIONS_DRAWN: usize = 40;
pub const AGENTS_DRAWN: usize = 1500;

/// A period longer than this many days is drawn by week.
pub const WEEKS_AFTER_DAYS: i64 = 92;

/// What a report covers.
pub struct Ask<'a> {
    pub filter: CostFilter,
    pub tz: jiff::tz::TimeZone,
    pub now: Millis,
    pub project: Option<&'a str>,
}

/// Groups of a cost report by `by`, in the period.
fn grouped(store: &Store, ask: &Ask<'_>, by: &[Key]) -> Result<BTreeMap<Vec<String>, Totals>> {
    let q = Query {
        by,
        filter: ask.filter.clone(),
        tz: ask.tz.clone(),
        from: None,
    };
    Ok(report::sums(store, &q)?.groups)
}

/// Pairs of keys from two-key groups.
fn pairs(groups: BTreeMap<Vec<String>, Totals>) -> BTreeMap<(String, String), Totals> {
    groups
        .into_iter()
        .map(|(k, t)| ((k[0].clone(), k[1].clone()), t))
        .collect()
}

/// Single-key groups, highest cost first (then by name).
fn ranked(groups: BTreeMap<Vec<String>, Totals>) -> Vec<(String, Totals)> {
    let mut v: Vec<(String, Totals)> = groups
        .into_iter()
        .map(|(k, t)| (k.into_iter().next().unwrap_or_default(), t))
        .collect();
    v.sort_by(|a, b| {
        b.1.cost_nanousd
            .cmp(&a.1.cost_nanousd)
            .then(b.1.tokens.total().cmp(&a.1.tokens.total()))
            .then(a.0.cmp(&b.0))
    });
    v
}

/// The overview `ask` asks for.
pub fn overview(store: &Store, ask: &Ask<'_>) -> Result<Overview> {
    let f = &ask.filter;
    // The days from the first message to the last: past three months the
    // charts go by week (the sums read again, by week).
    let by_day = pairs(grouped(store, ask, &[Key::Day, Key::Model])?);
    let days = match (by_day.keys().next(), by_day.keys().next_back()) {
        (Some((a, _)), Some((b, _))) => day_span(a, b),
        _ => 0,
    };
    let (bucket, period, by_model) = if days > WEEKS_AFTER_DAYS {
        let by_week = pairs(grouped(store, ask, &[Key::Week, Key::Model])?);
        (Bucket::Week, Key::Week, by_week)
    } else {
        (Bucket::Day, Key::Day, by_day)
    };
    let periods = match (by_model.keys().next(), by_model.keys().next_back()) {
        (Some((a, _)), Some((b, _))) => every_period(bucket, a, b),
        _ => Vec::new(),
    };
    let total = report::sums(
        store,
        &Query {
            by: &[],
            filter: f.clone(),
            tz: ask.tz.clone(),
            from: None,
        },
    )?
    .total;
    let top_sessions = ranked(grouped(store, ask, &[Key::Session])?);
    let top_projects = ranked(grouped(store, ask, &[Key::Project])?);
    let watch = Watch::load(store)?;
    let mut sessions = Vec::new();
    let mut agents = 0;
    for (id, in_period) in top_sessions.iter().take(SESSIONS_DRAWN) {
        let part = session_part(store, ask, &watch, id, in_period)?;
        agents += part.nodes.len();
        if agents > AGENTS_DRAWN && !sessions.is_empty() {
            break;
        }
        sessions.push(part);
    }
    Ok(Overview {
        since: f.since,
        until: f.until,
        project: ask.project.map(str::to_string),
        harness: f.harness.clone(),
        generated_at: ask.now,
        bucket,
        periods,
        total,
        by_model,
        by_harness: pairs(grouped(store, ask, &[period, Key::Harness])?),
        top_sessions,
        top_projects,
        sessions,
        limits: store
            .snapshots(f.since)?
            .into_iter()
            .filter(|s| f.until.is_none_or(|u| s.at < u))
            .collect(),
        memory: store.memory_health(f.since)?,
    })
}

/// Every period from `first` to `last` (keys as `cost --by day` or
/// `--by week` writes them: `2026-01-05`, `2026-W02`).
fn every_period(bucket: Bucket, first: &str, last: &str) -> Vec<String> {
    use jiff::civil::{Date, ISOWeekDate, Weekday};
    let week = |s: &str| -> Option<Date> {
        let (y, w) = s.split_once("-W")?;
        ISOWeekDate::new(y.parse().ok()?, w.parse().ok()?, Weekday::Monday)
            .ok()
            .map(ISOWeekDate::date)
    };
    let show_week = |d: Date| {
        let w = d.iso_week_date();
        format!("{}-W{:02}", w.year(), w.week())
    };
    let (a, b, step) = match bucket {
        Bucket::Day => (first.parse::<Date>().ok(), last.parse::<Date>().ok(), 1),
        Bucket::Week => (week(first), week(last), 7),
    };
    let (Some(mut d), Some(b)) = (a, b) else {
        return vec![first.to_string(), last.to_string()];
    };
    let mut out = Vec::new();
    while d <= b {
        out.push(match bucket {
            Bucket::Day => d.to_string(),
            Bucket::Week => show_week(d),
        });
        let Ok(next) = d.checked_add(jiff::Span::new().days(step)) else {
            break;
        };
        d = next;
    }
    out
}

/// Days from `a` to `b` (both `YYYY-MM-DD`), inclusive of neither end's
/// length: 0 for one day.
fn day_span(a: &str, b: &str) -> i64 {
    let d = |s: &str| s.parse::<jiff::civil::Date>().ok();
    match (d(a), d(b)) {
        (Some(a), Some(b)) => (b - a).get_days().into(),
        _ => 0,
    }
}

/// One session in full: its row, its agents (statuses read as now), what
/// its parents reported of children without transcripts, its compactions,
/// and its cost by agent type.
fn session_part(
    store: &Store,
    ask: &Ask<'_>,
    watch: &Watch,
    id: &str,
    in_period: &Totals,
) -> Result<SessionPart> {
    let row = store
        .sessions(&SessionFilter {
            session_id: Some(id.to_string()),
            ..SessionFilter::default()
        })?
        .into_iter()
        .next()
        .ok_or_else(|| anyhow::anyhow!("session {id} vanished while the report was read"))?;
    let mut nodes = store.agent_nodes(id)?;
    for n in &mut nodes {
        n.status = watch.status(id, &n.status, n.status_at, n.last_seen);
    }
    let detail = report::session_detail(store, id)?;
    let mut filter = ask.filter.clone();
    filter.session = Some(id.to_string());
    let by_type = report::sums(
        store,
        &Query {
            by: &[Key::AgentType],
            filter,
            tz: ask.tz.clone(),
            from: None,
        },
    )?;
    Ok(SessionPart {
        row,
        in_period: *in_period,
        nodes,
        reported: store.reported_by_parent(id)?,
        compactions: detail.compactions,
        by_agent_type: ranked(by_type.groups),
        client_cost_nanousd: detail.reported.map(|r| r.cost_nanousd),
    })
}
