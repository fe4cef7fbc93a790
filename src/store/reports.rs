//! Read queries behind `sessions`, `show` and `check`.

use std::collections::BTreeMap;

use anyhow::Result;
use rusqlite::{Row, params};

use super::{Store, StoreError};
use crate::domain::clock::Millis;
use crate::domain::transcript::Buckets;

/// Which sessions `sessions` lists.
#[derive(Debug, Clone, Default)]
pub struct SessionFilter {
    /// Matches `project` or `project_slug` exactly.
    pub project: Option<String>,
    /// Sessions active at or after this instant.
    pub since: Option<Millis>,
    /// Sessions that started at or before this instant.
    pub until: Option<Millis>,
    pub limit: Option<u64>,
    pub degraded_only: bool,
    /// Exactly this session.
    pub session_id: Option<String>,
    /// Only sessions of this harness.
    pub harness: Option<String>,
    /// Also sessions only the hooks have heard of (no transcript read yet),
    /// from their events.
    pub heard: bool,
}

/// Token sums and the number of messages they come from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub messages: u64,
    pub tokens: Buckets,
    /// Messages with a price, their exact cost, and the tokens of the rest.
    pub priced_messages: u64,
    pub cost_nanousd: i64,
    pub unpriced_tokens: u64,
    /// Of the messages with no price here, what their client said they
    /// cost by its own prices (pi, OpenCode): never part of `cost_nanousd`.
    pub harness_nanousd: i64,
}

/// The one sum of two totals: every count adds (the buckets by
/// `Buckets::add`).
impl std::ops::AddAssign<&Totals> for Totals {
    fn add_assign(&mut self, o: &Totals) {
        self.messages += o.messages;
        self.tokens.add(o.tokens);
        self.priced_messages += o.priced_messages;
        self.cost_nanousd += o.cost_nanousd;
        self.unpriced_tokens += o.unpriced_tokens;
        self.harness_nanousd += o.harness_nanousd;
    }
}

#[derive(Debug, Clone)]
pub struct SessionRow {
    pub session_id: String,
    pub harness: String,
    pub project: Option<String>,
    pub project_slug: String,
    pub cwd: Option<String>,
    pub git_branch: Option<String>,
    pub harness_version: Option<String>,
    pub started_at: Option<Millis>,
    pub last_activity_at: Option<Millis>,
    pub status: String,
    pub status_at: Option<Millis>,
    pub records: i64,
    pub unknown_records: i64,
    pub synthetic_messages: i64,
    pub degraded_lines: i64,
    pub agents: i64,
    pub models: Vec<String>,
    pub totals: Totals,
    /// Known only from hook events: no transcript read yet.
    pub heard: bool,
    /// Its title (`sessions.title`), when one is known.
    pub title: Option<String>,
}

/// What names a session to a person: its title, project and last
/// activity.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionBrief {
    pub title: Option<String>,
    pub project: Option<String>,
    pub last_activity_at: Option<Millis>,
}

#[derive(Debug, Clone)]
pub struct AgentRow {
    pub status_at: Option<Millis>,
    pub agent_id: String,
    pub parent_agent_id: Option<String>,
    pub layout: String,
    pub agent_type: Option<String>,
    pub description: Option<String>,
    pub transcript_path: String,
    pub first_seen_at: Option<Millis>,
    pub last_seen_at: Option<Millis>,
    pub status: String,
    pub records: i64,
    pub models: Vec<String>,
    pub totals: Totals,
}

#[derive(Debug, Clone)]
pub struct LineRow {
    pub session_id: String,
    pub file: String,
    pub line: i64,
    pub reason: String,
}

#[derive(Debug, Clone)]
pub struct CompactionRow {
    pub agent_id: String,
    pub at: Option<Millis>,
    pub trigger: Option<String>,
    pub pre_tokens: Option<i64>,
}

/// Sums over `usage_rollup` rows, in the order `totals_at` reads them.
pub(crate) const TOTALS: &str = "SUM(messages), SUM(input_tokens), SUM(output_tokens), SUM(cache_write_5m_tokens), \
     SUM(cache_write_1h_tokens), SUM(cache_read_tokens), SUM(priced_messages), SUM(cost_nanousd), SUM(unpriced_tokens), \
     SUM(reasoning_tokens)";

pub(crate) fn totals_at(r: &Row<'_>, i: usize) -> rusqlite::Result<Totals> {
    let g = |k: usize| -> rusqlite::Result<u64> {
        Ok(r.get::<_, Option<i64>>(i + k)?.unwrap_or(0) as u64)
    };
    Ok(Totals {
        messages: g(0)?,
        tokens: Buckets {
            input: g(1)?,
            output: g(2)?,
            cache_write_5m: g(3)?,
            cache_write_1h: g(4)?,
            cache_read: g(5)?,
            reasoning: g(9)?,
        },
        priced_messages: g(6)?,
        cost_nanousd: r.get::<_, Option<i64>>(i + 7)?.unwrap_or(0),
        unpriced_tokens: g(8)?,
        harness_nanousd: 0,
    })
}

impl Store {
    /// The briefs of the sessions `ids` (those stored), by id.
    pub fn session_briefs(
        &self,
        ids: &[&str],
    ) -> Result<std::collections::HashMap<String, SessionBrief>> {
        let mut stmt = self.conn.prepare(
            "SELECT s.session_id, s.title, s.project, s.last_activity_at
             FROM json_each(?1) j JOIN sessions s ON s.session_id = j.value",
        )?;
        let ids = serde_json::to_string(ids)?;
        let rows = stmt.query_map([ids], |r| {
            Ok((
                r.get::<_, String>(0)?,
                SessionBrief {
                    title: r.get(1)?,
                    project: r.get(2)?,
                    last_activity_at: r.get(3)?,
                },
            ))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Sessions matching `f`, most recent activity first.
    pub fn sessions(&self, f: &SessionFilter) -> Result<Vec<SessionRow>> {
        let sql = format!(
            "WITH t AS (SELECT session_id, {TOTALS} FROM usage_rollup GROUP BY session_id),
                  a AS (SELECT session_id, COUNT(*) AS n FROM agents GROUP BY session_id)
             SELECT s.session_id, s.harness, s.project, s.project_slug, s.cwd, s.git_branch, s.harness_version,
                    s.started_at, s.last_activity_at, s.status, s.status_at, s.records, s.unknown_records,
                    s.synthetic_messages, s.degraded_lines, COALESCE(a.n, 0), s.title, t.*
             FROM sessions s LEFT JOIN a USING (session_id) LEFT JOIN t USING (session_id)
             WHERE (?1 IS NULL OR s.project = ?1 OR s.project_slug = ?1)
               AND (?2 IS NULL OR s.last_activity_at >= ?2)
               AND (?3 IS NULL OR s.started_at <= ?3)
               AND (?4 = 0 OR s.degraded_lines > 0)
               AND (?6 IS NULL OR s.session_id = ?6)
               AND (?7 IS NULL OR s.harness = ?7)
             ORDER BY s.last_activity_at DESC, s.session_id
             LIMIT ?5"
        );
        let limit = f.limit.map_or(-1, |l| l as i64);
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map(
            params![
                f.project,
                f.since,
                f.until,
                f.degraded_only,
                limit,
                f.session_id,
                f.harness
            ],
            |r| {
                Ok(SessionRow {
                    session_id: r.get(0)?,
                    harness: r.get(1)?,
                    project: r.get(2)?,
                    project_slug: r.get(3)?,
                    cwd: r.get(4)?,
                    git_branch: r.get(5)?,
                    harness_version: r.get(6)?,
                    started_at: r.get(7)?,
                    last_activity_at: r.get(8)?,
                    status: r.get(9)?,
                    status_at: r.get(10)?,
                    records: r.get(11)?,
                    unknown_records: r.get(12)?,
                    synthetic_messages: r.get(13)?,
                    degraded_lines: r.get(14)?,
                    agents: r.get(15)?,
                    models: Vec::new(),
                    title: r.get(16)?,
                    totals: totals_at(r, 18)?,
                    heard: false,
                })
            },
        )?;
        let mut out: Vec<SessionRow> = rows.collect::<Result<_, _>>()?;
        let models = self.models_by("session_id", None)?;
        for s in &mut out {
            s.models = models.get(&s.session_id).cloned().unwrap_or_default();
        }
        if f.heard && !f.degraded_only {
            self.add_heard(f, &mut out)?;
        }
        Ok(out)
    }

    /// Adds the sessions only hooks have heard of that match `f` to `out`
    /// (sorted as `sessions` sorts, within its limit).
    fn add_heard(&self, f: &SessionFilter, out: &mut Vec<SessionRow>) -> Result<()> {
        for h in self.heard_only(super::heard::RECENT_EVENTS)? {
            let slug = heard_slug(&h);
            let keep = f
                .project
                .as_ref()
                .is_none_or(|p| h.project.as_ref() == Some(p) || &slug == p)
                && f.since.is_none_or(|t| h.last_at >= t)
                && f.until.is_none_or(|t| h.first_at <= t)
                && f.session_id.as_ref().is_none_or(|s| *s == h.session_id)
                && f.harness.as_ref().is_none_or(|x| *x == h.harness);
            if !keep {
                continue;
            }
            let at = out.partition_point(|s| {
                s.last_activity_at.unwrap_or(i64::MIN) > h.last_at
                    || (s.last_activity_at == Some(h.last_at) && s.session_id < h.session_id)
            });
            out.insert(
                at,
                SessionRow {
                    session_id: h.session_id,
                    harness: h.harness,
                    project: h.project,
                    project_slug: slug,
                    cwd: h.cwd,
                    git_branch: None,
                    harness_version: None,
                    started_at: Some(h.first_at),
                    last_activity_at: Some(h.last_at),
                    status: h.evidence.status.as_str().to_string(),
                    status_at: h.evidence.at,
                    records: 0,
                    unknown_records: 0,
                    synthetic_messages: 0,
                    degraded_lines: 0,
                    agents: 1,
                    models: Vec::new(),
                    totals: Totals::default(),
                    heard: true,
                    title: h.title,
                },
            );
        }
        if let Some(l) = f.limit {
            out.truncate(usize::try_from(l).unwrap_or(usize::MAX));
        }
        Ok(())
    }

    pub fn token_row_count(&self) -> Result<u64> {
        Ok(self
            .conn
            // The rollup counts every token row once, in a few rows per
            // session; counting the view would read every message.
            .query_row(
                "SELECT COALESCE(SUM(messages), 0) FROM usage_rollup",
                [],
                |r| r.get::<_, i64>(0),
            )? as u64)
    }

    /// Every model a counted message names, in name order.
    pub fn used_models(&self) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT DISTINCT model FROM token_usage ORDER BY model")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Models with unpriced tokens: (model, messages, tokens), largest first.
    pub fn unpriced_models(&self) -> Result<Vec<(String, u64, u64)>> {
        let mut stmt = self.conn.prepare(
            "SELECT model, COUNT(*), SUM(input_tokens + output_tokens + cache_write_5m_tokens
                    + cache_write_1h_tokens + cache_read_tokens) AS t
             FROM token_usage WHERE cost_nanousd IS NULL GROUP BY model ORDER BY t DESC, model",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get(0)?,
                r.get::<_, i64>(1)? as u64,
                r.get::<_, i64>(2)? as u64,
            ))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Sessions whose rollup disagrees with their token rows (should be none):
    /// every column of every rollup row against the same sums recomputed.
    pub fn rollup_mismatches(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare(
            "WITH t AS (SELECT session_id, agent_id, model,
                          CASE WHEN occurred_at >= 0 THEN occurred_at / 3600000 ELSE -1 END AS hour,
                          COUNT(*), SUM(input_tokens), SUM(output_tokens), SUM(cache_write_5m_tokens),
                          SUM(cache_write_1h_tokens), SUM(cache_read_tokens), MIN(occurred_at), MAX(occurred_at),
                          COUNT(cost_nanousd), COALESCE(SUM(cost_nanousd), 0),
                          SUM(CASE WHEN cost_nanousd IS NULL THEN input_tokens + output_tokens
                                + cache_write_5m_tokens + cache_write_1h_tokens + cache_read_tokens ELSE 0 END)
                        FROM token_usage GROUP BY session_id, agent_id, model, 4),
                  u AS (SELECT session_id, agent_id, model, hour, messages, input_tokens, output_tokens,
                          cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, first_at, last_at,
                          priced_messages, cost_nanousd, unpriced_tokens FROM usage_rollup)
             SELECT DISTINCT session_id FROM (
               SELECT * FROM t EXCEPT SELECT * FROM u
               UNION ALL
               SELECT * FROM u EXCEPT SELECT * FROM t)
             ORDER BY session_id",
        )?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Distinct models per key column (`session_id` or `agent_id`), sorted.
    fn models_by(&self, key: &str, session: Option<&str>) -> Result<BTreeMap<String, Vec<String>>> {
        let sql = format!(
            "SELECT DISTINCT {key}, model FROM usage_rollup WHERE (?1 IS NULL OR session_id = ?1)
             ORDER BY {key}, model"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for r in stmt.query_map([session], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })? {
            let (k, m) = r?;
            out.entry(k).or_default().push(m);
        }
        Ok(out)
    }

    /// The one session whose id starts with `prefix`.
    pub fn resolve_session(&self, prefix: &str) -> Result<String> {
        match self.match_prefix("sessions", "session_id", prefix)? {
            super::PrefixMatch::None => Err(StoreError::NoSuchSession(prefix.to_string()).into()),
            super::PrefixMatch::One(id) => Ok(id),
            super::PrefixMatch::Many { count, examples } => Err(StoreError::AmbiguousSession {
                prefix: prefix.to_string(),
                count,
                examples: examples.join(", "),
            }
            .into()),
        }
    }

    /// The shortest prefix of session `id`, at least `min` characters,
    /// that names it alone (what a person can paste back).
    pub fn shortest_prefix(&self, id: &str, min: usize) -> Result<String> {
        let mut n = min.min(id.len());
        while n < id.len() {
            let prefix = id.get(..n).unwrap_or(id);
            if matches!(
                self.match_prefix("sessions", "session_id", prefix)?,
                super::PrefixMatch::One(_)
            ) {
                return Ok(prefix.to_string());
            }
            n += 4;
        }
        Ok(id.to_string())
    }

    /// The agents of a session with their own token totals.
    pub fn agents_of(&self, session: &str) -> Result<Vec<AgentRow>> {
        let sql = format!(
            "WITH t AS (SELECT agent_id, {TOTALS} FROM usage_rollup WHERE session_id = ?1 GROUP BY agent_id)
             SELECT a.agent_id, a.parent_agent_id, a.layout, a.agent_type, a.description, a.transcript_path,
                    a.first_seen_at, a.last_seen_at, a.status, a.records, a.status_at, t.*
             FROM agents a LEFT JOIN t USING (agent_id) WHERE a.session_id = ?1
             ORDER BY a.layout = 'main' DESC, a.first_seen_at, a.agent_id"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map([session], |r| {
            Ok(AgentRow {
                agent_id: r.get(0)?,
                parent_agent_id: r.get(1)?,
                layout: r.get(2)?,
                agent_type: r.get(3)?,
                description: r.get(4)?,
                transcript_path: r.get(5)?,
                first_seen_at: r.get(6)?,
                last_seen_at: r.get(7)?,
                status: r.get(8)?,
                records: r.get(9)?,
                status_at: r.get(10)?,
                models: Vec::new(),
                totals: totals_at(r, 12)?,
            })
        })?;
        let mut out: Vec<AgentRow> = rows.collect::<Result<_, _>>()?;
        let models = self.models_by("agent_id", Some(session))?;
        for a in &mut out {
            a.models = models.get(&a.agent_id).cloned().unwrap_or_default();
        }
        Ok(out)
    }

    /// Token totals of a session per model.
    pub fn models_of(&self, session: &str) -> Result<Vec<(String, Totals)>> {
        let sql = format!(
            "SELECT model, {TOTALS} FROM usage_rollup WHERE session_id = ?1 GROUP BY model ORDER BY model"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map([session], |r| Ok((r.get(0)?, totals_at(r, 1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Degraded lines of one session, or of all.
    pub fn degraded_lines(&self, session: Option<&str>) -> Result<Vec<LineRow>> {
        let mut stmt = self.conn.prepare(
            "SELECT session_id, file, line, reason FROM degraded_lines
             WHERE (?1 IS NULL OR session_id = ?1) ORDER BY session_id, file, line",
        )?;
        let rows = stmt.query_map([session], |r| {
            Ok(LineRow {
                session_id: r.get(0)?,
                file: r.get(1)?,
                line: r.get(2)?,
                reason: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn compactions_of(&self, session: &str) -> Result<Vec<CompactionRow>> {
        let mut stmt = self.conn.prepare(
            "SELECT agent_id, occurred_at, trigger, pre_tokens FROM compactions WHERE session_id = ?1
             ORDER BY occurred_at, file, line",
        )?;
        let rows = stmt.query_map([session], |r| {
            Ok(CompactionRow {
                agent_id: r.get(0)?,
                at: r.get(1)?,
                trigger: r.get(2)?,
                pre_tokens: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// What a session's observations hold: (message id → agent, model, buckets).
    pub fn observations_of(
        &self,
        session: &str,
    ) -> Result<BTreeMap<String, (String, String, Buckets)>> {
        let mut stmt = self.conn.prepare(
            "SELECT message_id, COALESCE(agent_id, session_id), model, input_tokens, output_tokens, cache_write_5m_tokens,
                    cache_write_1h_tokens, cache_read_tokens, reasoning_tokens
             FROM usage_observations WHERE session_id = ?1",
        )?;
        let rows = stmt.query_map([session], |r| {
            Ok((
                r.get::<_, String>(0)?,
                (
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    Buckets {
                        input: r.get::<_, i64>(3)? as u64,
                        output: r.get::<_, i64>(4)? as u64,
                        cache_write_5m: r.get::<_, i64>(5)? as u64,
                        cache_write_1h: r.get::<_, i64>(6)? as u64,
                        cache_read: r.get::<_, i64>(7)? as u64,
                        reasoning: r.get::<_, Option<i64>>(8)?.unwrap_or(0) as u64,
                    },
                ),
            ))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// A session's figure as its harness reported it (`harness_costs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportedCost {
    pub session_id: String,
    pub at: Option<Millis>,
    pub cost_nanousd: i64,
    pub tokens: crate::domain::transcript::Buckets,
    pub web_searches: u64,
}

impl Store {
    /// What the harness reported for each session (or one), by session.
    pub fn reported_costs(&self, session: Option<&str>) -> Result<Vec<ReportedCost>> {
        let mut stmt = self.conn.prepare(
            "SELECT session_id, reported_at, cost_nanousd, models FROM harness_costs
             WHERE ?1 IS NULL OR session_id = ?1 ORDER BY session_id",
        )?;
        let rows = stmt.query_map([session], |r| {
            let models: String = r.get(3)?;
            let mut tokens = crate::domain::transcript::Buckets::default();
            let mut web_searches = 0u64;
            let list: Vec<serde_json::Value> = serde_json::from_str(&models).unwrap_or_default();
            for m in &list {
                let n = |k: &str| m[k].as_u64().unwrap_or(0);
                tokens.add(crate::domain::transcript::Buckets {
                    input: n("input"),
                    output: n("output"),
                    cache_write_5m: n("cache_write_5m"),
                    cache_write_1h: n("cache_write_1h"),
                    cache_read: n("cache_read"),
                    reasoning: 0,
                });
                web_searches = web_searches.saturating_add(n("web_searches"));
            }
            Ok(ReportedCost {
                session_id: r.get(0)?,
                at: r.get(1)?,
                cost_nanousd: r.get(2)?,
                tokens,
                web_searches,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// A heard session's project folder slug: Claude Code's project folder
/// (the main transcript's parent), else empty.
fn heard_slug(h: &super::heard::Heard) -> String {
    if h.harness != crate::domain::clients::CLAUDE_CODE.name {
        return String::new();
    }
    h.transcript_path
        .as_deref()
        .map(std::path::Path::new)
        .and_then(std::path::Path::parent)
        .and_then(std::path::Path::file_name)
        .and_then(|n| n.to_str())
        .unwrap_or_default()
        .to_string()
}
