//! Cost reports: messages grouped by period and key, summed exactly, from
//! this store's hourly rollup where it answers, else from every message
//! (here or in a team's database); and a session's cost per compaction
//! segment. Returns sums; the command lays them out.

use std::collections::{BTreeMap, HashMap};

use anyhow::Result;

use crate::domain::clock::Millis;
use crate::services::{push, settings};
use crate::store::Store;
use crate::store::costs::{CostFilter, CostRow, RowKeys};
use crate::store::reports::{
    AgentRow, CompactionRow, LineRow, ReportedCost, SessionFilter, SessionRow, Totals,
};

/// What a report can group on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Key {
    Day,
    Week,
    Month,
    Session,
    Project,
    Harness,
    Model,
    AgentType,
    Agent,
    /// The machine that pushed it (`--from`), else this one's label.
    Machine,
    /// The person's label it was pushed with (`--from`; `-` where none
    /// was set), else this store's (`push.user`).
    User,
    /// The five-hour block the message falls in: a block starts at the
    /// first message after the previous one ended, floored to the hour
    /// (the usage-limit window, as message times show it).
    Block,
}

impl Key {
    /// The key's field in a record.
    pub fn field(self) -> &'static str {
        match self {
            Key::Day => "day",
            Key::Week => "week",
            Key::Month => "month",
            Key::Session => "session_id",
            Key::Project => "project",
            Key::Harness => "harness",
            Key::Model => "model",
            Key::AgentType => "agent_type",
            Key::Agent => "agent_id",
            Key::Machine => "machine",
            Key::User => "user",
            Key::Block => "block",
        }
    }
}

/// What a cost report asks for.
pub struct Query<'a> {
    pub by: &'a [Key],
    pub filter: CostFilter,
    /// The zone days, weeks and months are in.
    pub tz: jiff::tz::TimeZone,
    /// A team database to read instead of this store.
    pub from: Option<&'a push::Target>,
}

/// A cost report's sums.
#[derive(Debug, Default)]
pub struct Costs {
    /// Each group's values of the keys, in order, and its sums.
    pub groups: BTreeMap<Vec<String>, Totals>,
    pub total: Totals,
    /// Whether this store holds no session at all (an empty report's reason).
    pub store_empty: bool,
    /// Compressions of a Gemini CLI chat in the selection, whose model
    /// calls no transcript records.
    pub uncounted_compactions: u64,
    /// The models without a price, when some tokens are unpriced.
    pub unpriced_models: Vec<String>,
    /// Grouped by session (in this store): each session's title, project
    /// and last activity, by id.
    pub sessions: std::collections::HashMap<String, crate::store::reports::SessionBrief>,
}

/// The cost report `q` asks for.
pub fn costs(store: &Store, q: &Query<'_>) -> Result<Costs> {
    let mut out = sums(store, q)?;
    if q.from.is_none() {
        out.store_empty = out.groups.is_empty() && store.session_ids()?.is_empty();
        out.uncounted_compactions = store.uncounted_compactions(&q.filter)?;
        if out.total.unpriced_tokens > 0 {
            out.unpriced_models = store
                .unpriced_models()?
                .into_iter()
                .map(|(m, _, _)| m)
                .collect();
        }
        if let Some(i) = q.by.iter().position(|k| *k == Key::Session) {
            let ids: Vec<&str> = out.groups.keys().map(|k| k[i].as_str()).collect();
            out.sessions = store.session_briefs(&ids)?;
        }
    }
    Ok(out)
}

/// The groups and their total only (what the status line and `limits`
/// need, on their hot path), without what an empty or partly priced
/// report says.
pub fn sums(store: &Store, q: &Query<'_>) -> Result<Costs> {
    // This machine's and person's labels, only when grouped by them.
    let (machine, user) = if q.by.iter().any(|k| matches!(k, Key::Machine | Key::User)) {
        (
            push::machine_label(store)?,
            push::user_label(store)?.unwrap_or_else(|| "-".to_string()),
        )
    } else {
        (String::new(), String::new())
    };
    let labels = (machine.as_str(), user.as_str());
    let mut out = Costs::default();
    let mut add = |key: Vec<String>, t: &Totals| {
        *out.groups.entry(key).or_default() += t;
        out.total += t;
    };
    let mut rollup = Vec::new();
    let hourly = q.from.is_none() && whole_hour(q.filter.since) && whole_hour(q.filter.until);
    if hourly {
        store.each_rollup_row(&q.filter, |r| rollup.push(r))?;
    }
    let hours: Vec<i64> = rollup.iter().map(|r| r.hour).collect();
    let from_rollup = hourly && whole_hour_zone(&q.tz, &hours);
    let blocks = if q.by.contains(&Key::Block) {
        block_starts(store, q, from_rollup.then_some(hours.as_slice()))?
    } else {
        Vec::new()
    };
    let when = Periods {
        tz: &q.tz,
        blocks: &blocks,
    };
    if from_rollup {
        // The hourly rollup answers in a few rows per session (reports ≤ 50 ms);
        // each distinct hour is converted to its local period once.
        let mut periods: HashMap<(i64, Key), String> = HashMap::new();
        for r in &rollup {
            let key = group(q.by, &r.keys, labels, |k| {
                periods
                    .entry((r.hour, k))
                    .or_insert_with(|| when.of((r.hour >= 0).then_some(r.hour * 3_600_000), k))
                    .clone()
            });
            add(key, &r.totals);
        }
    } else {
        // A zone with a part-hour offset, a bound inside an hour, or a team
        // database: every message.
        let mut visit = |r: CostRow| {
            let key = group(q.by, &r.keys, labels, |k| when.of(r.at, k));
            add(key, &r.totals);
        };
        match q.from {
            Some(target) => push::each_cost_row(target, &q.filter, visit)?,
            None => store.each_cost_row(&q.filter, &mut visit)?,
        }
    }
    // What the clients said the messages cost that have no price here.
    if q.from.is_none() {
        store.each_harness_priced_row(&q.filter, |r| {
            let key = group(q.by, &r.keys, labels, |k| when.of(r.at, k));
            add(key, &r.totals);
        })?;
    }
    Ok(out)
}

/// One compaction segment of a session: the messages from a boundary (the
/// session's start for the first) to the next.
#[derive(Debug, Default)]
pub struct Segment {
    /// The boundary that opens it: its time, trigger and the tokens before
    /// it; `None` for the first segment.
    pub opened_by: Option<(Millis, Option<String>, Option<i64>)>,
    pub totals: Totals,
}

/// A session's cost per compaction segment; the segments sum to the whole
/// (returned beside them).
pub fn segments(store: &Store, session: &str) -> Result<(Vec<Segment>, Totals)> {
    let mut times: Vec<(i64, Option<String>, Option<i64>)> = store
        .compactions_of(session)?
        .iter()
        .filter_map(|c| Some((c.at?, c.trigger.clone(), c.pre_tokens)))
        .collect();
    times.sort_by_key(|t| t.0);
    let mut seg: Vec<Segment> = std::iter::once(None)
        .chain(times.iter().cloned().map(Some))
        .map(|opened_by| Segment {
            opened_by,
            totals: Totals::default(),
        })
        .collect();
    let filter = CostFilter {
        session: Some(session.to_string()),
        ..CostFilter::default()
    };
    let mut total = Totals::default();
    store.each_cost_row(&filter, |r| {
        // A message at a boundary's instant belongs to the segment it opens.
        let i = r.at.map_or(0, |t| times.partition_point(|b| b.0 <= t));
        seg[i].totals += &r.totals;
        total += &r.totals;
    })?;
    Ok((seg, total))
}

/// Whether an instant falls on a whole UTC hour.
fn whole_hour(t: Option<i64>) -> bool {
    t.is_none_or(|ms| ms.rem_euclid(3_600_000) == 0)
}

/// Whether a zone's offset is a whole number of hours at every instant of
/// `hours` (then hourly rollup rows fall in exactly one local day each).
fn whole_hour_zone(tz: &jiff::tz::TimeZone, hours: &[i64]) -> bool {
    hours.iter().filter(|h| **h >= 0).all(|h| {
        jiff::Timestamp::from_millisecond(h * 3_600_000)
            .is_ok_and(|ts| tz.to_offset(ts).seconds() % 3600 == 0)
    })
}

/// The group of a row: each key in order (`when` gives the periods).
fn group(
    by: &[Key],
    ids: &RowKeys,
    (machine, user): (&str, &str),
    mut when: impl FnMut(Key) -> String,
) -> Vec<String> {
    by.iter()
        .map(|k| match k {
            Key::Day | Key::Week | Key::Month | Key::Block => when(*k),
            Key::Session => ids.session_id.clone(),
            Key::Project => ids.project.clone().unwrap_or_default(),
            Key::Harness => ids.harness.clone(),
            Key::Model => ids.model.clone(),
            Key::AgentType => ids.agent_type.clone().unwrap_or_else(|| "main".into()),
            Key::Agent => ids.agent_id.clone(),
            Key::Machine => ids.machine.clone().unwrap_or_else(|| machine.to_string()),
            Key::User => ids.user.clone().unwrap_or_else(|| user.to_string()),
        })
        .collect()
}

/// What the period keys of a row are: its day, week or month in `tz`, its
/// five-hour block among `blocks`.
struct Periods<'a> {
    tz: &'a jiff::tz::TimeZone,
    /// Every block's start in the selection, in order.
    blocks: &'a [Millis],
}

impl Periods<'_> {
    /// The day (`2026-12-05`), ISO week (`2026-W49`) or month (`2026-12`)
    /// of an instant in the zone, or its block's start; `unknown` without
    /// an instant.
    fn of(&self, at: Option<i64>, key: Key) -> String {
        let Some(ms) = at else {
            return "unknown".into();
        };
        if key == Key::Block {
            let i = self.blocks.partition_point(|s| *s <= ms);
            return i.checked_sub(1).map_or_else(
                || "unknown".into(),
                |i| crate::domain::clock::format_instant(self.blocks[i]),
            );
        }
        let Ok(ts) = jiff::Timestamp::from_millisecond(ms) else {
            return "unknown".into();
        };
        let d = self.tz.to_datetime(ts).date();
        match key {
            Key::Day => d.to_string(),
            Key::Month => format!("{:04}-{:02}", d.year(), d.month()),
            _ => {
                let w = d.iso_week_date();
                format!("{:04}-W{:02}", w.year(), w.week())
            }
        }
    }
}

/// The five-hour blocks of the selection: from the rollup's hours when it
/// answers (a block starts on a whole hour, so an hour's messages share
/// one), else from every message's time.
fn block_starts(store: &Store, q: &Query<'_>, hours: Option<&[i64]>) -> Result<Vec<Millis>> {
    let mut times: Vec<Millis> = if let Some(h) = hours {
        h.iter()
            .filter(|h| **h >= 0)
            .map(|h| h * 3_600_000)
            .collect()
    } else {
        let mut t = Vec::new();
        let mut visit = |r: CostRow| t.extend(r.at);
        match q.from {
            Some(target) => push::each_cost_row(target, &q.filter, visit)?,
            None => store.each_cost_row(&q.filter, &mut visit)?,
        }
        t
    };
    times.sort_unstable();
    Ok(crate::domain::limits::blocks(&times))
}

/// The clock and watchdog window reports show statuses by, and the
/// sessions whose client is gone from this machine.
#[derive(Debug, Clone)]
pub struct Watch {
    pub now: Millis,
    pub window_ms: i64,
    pub gone: std::collections::HashSet<String>,
}

impl Watch {
    pub fn load(store: &Store) -> Result<Watch> {
        Ok(Watch {
            now: crate::domain::clock::now(),
            window_ms: settings::minutes_ms(store, "watchdog.minutes")?,
            gone: store.gone_sessions(crate::domain::harness::sender::gone)?,
        })
    }

    /// The status to show for a stored one of session `sid`: ended when
    /// its client is gone, else as the watchdog has it.
    pub fn status(
        &self,
        sid: &str,
        status: &str,
        at: Option<Millis>,
        last_seen: Option<Millis>,
    ) -> String {
        use crate::domain::status::{Cause, Evidence, Status, client_gone};
        if self.gone.contains(sid)
            && let Some(st) = Status::parse(status)
            && let Some(ended) = client_gone(&Evidence::new(st, at, Cause::Transcript), last_seen)
        {
            return ended.status.as_str().to_string();
        }
        crate::domain::status::shown(status, at, last_seen, self.now, self.window_ms).to_string()
    }
}

/// Everything `show` says of one session, its statuses as shown now.
#[derive(Debug)]
pub struct Detail {
    pub session: SessionRow,
    pub agents: Vec<AgentRow>,
    pub models: Vec<(String, Totals)>,
    pub degraded: Vec<LineRow>,
    pub compactions: Vec<CompactionRow>,
    /// The harness's own figures for the session, when it states them.
    pub reported: Option<ReportedCost>,
    /// Its models with tokens and no price (free models aside).
    pub unpriced: Vec<String>,
}

/// The session `id` (already resolved) in detail, read in one snapshot.
pub fn session_detail(store: &Store, id: &str) -> Result<Detail> {
    let watch = Watch::load(store)?;
    let filter = SessionFilter {
        session_id: Some(id.to_string()),
        ..SessionFilter::default()
    };
    let mut session = store
        .sessions(&filter)?
        .into_iter()
        .next()
        .ok_or_else(|| crate::store::StoreError::NoSuchSession(id.to_string()))?;
    session.status = watch.status(
        id,
        &session.status,
        session.status_at,
        session.last_activity_at,
    );
    let mut agents = store.agents_of(id)?;
    for a in &mut agents {
        a.status = watch.status(id, &a.status, a.status_at, a.last_seen_at);
    }
    let models = store.models_of(id)?;
    let unpriced = models
        .iter()
        .filter(|(m, t)| t.unpriced_tokens > 0 && !crate::domain::pricing::PriceTable::is_free(m))
        .map(|(m, _)| m.clone())
        .collect();
    Ok(Detail {
        session,
        agents,
        models,
        degraded: store.degraded_lines(Some(id))?,
        compactions: store.compactions_of(id)?,
        reported: store.reported_costs(Some(id))?.into_iter().next(),
        unpriced,
    })
}
