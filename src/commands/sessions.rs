//! `sessionkit sessions`: list sessions with their token totals.

use anyhow::Result;
use serde_json::{Map, Value, json};

use super::{Ctx, put_totals, time};
use crate::Exit;
use crate::clock::parse_bound;
use crate::output::{Column, col};
use crate::store::reports::{SessionFilter, SessionRow};

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = "JSON fields (one object per session): session_id, harness, project, project_slug, cwd, git_branch, harness_version, started_at, last_activity_at, status, status_at (the main agent's), agents, models, messages, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, total_tokens, cost_usd, cost_nanousd, unpriced_tokens, records, unknown_records, synthetic_messages, degraded_lines."
)]
pub struct Args {
    /// Only this project (its name, or Claude Code's folder slug)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,

    /// Only sessions active since T (RFC 3339, YYYY-MM-DD, or a span such as 30d, 12h)
    #[arg(long, value_name = "T")]
    pub since: Option<String>,

    /// Only sessions started until T (same forms as --since)
    #[arg(long, value_name = "T")]
    pub until: Option<String>,

    /// At most N sessions (most recent first)
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,

    /// Only sessions with degraded (skipped) lines
    #[arg(long)]
    pub degraded: bool,
}

const COLUMNS: &[Column] = &[
    col("session_id", "session"),
    col("project", "project"),
    col("started_at", "started"),
    col("last_activity_at", "last activity"),
    col("agents", "agents"),
    col("models", "models"),
    col("input_tokens", "input"),
    col("output_tokens", "output"),
    col("cache_write_5m_tokens", "cache w 5m"),
    col("cache_write_1h_tokens", "cache w 1h"),
    col("cache_read_tokens", "cache read"),
    col("cost_usd", "cost"),
    col("unpriced_tokens", "unpriced"),
    col("degraded_lines", "degraded"),
];

/// The JSON shape of a session (the documented contract).
pub(crate) fn session_json(s: &SessionRow) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("session_id".into(), json!(s.session_id));
    o.insert("harness".into(), json!(s.harness));
    o.insert("project".into(), json!(s.project));
    o.insert("project_slug".into(), json!(s.project_slug));
    o.insert("cwd".into(), json!(s.cwd));
    o.insert("git_branch".into(), json!(s.git_branch));
    o.insert("harness_version".into(), json!(s.harness_version));
    o.insert("started_at".into(), time(s.started_at));
    o.insert("last_activity_at".into(), time(s.last_activity_at));
    o.insert("status".into(), json!(s.status));
    o.insert("status_at".into(), time(s.status_at));
    o.insert("agents".into(), json!(s.agents));
    o.insert("models".into(), json!(s.models));
    put_totals(&mut o, &s.totals);
    o.insert("records".into(), json!(s.records));
    o.insert("unknown_records".into(), json!(s.unknown_records));
    o.insert("synthetic_messages".into(), json!(s.synthetic_messages));
    o.insert("degraded_lines".into(), json!(s.degraded_lines));
    o
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let filter = SessionFilter {
        project: args.project.clone(),
        since: args.since.as_deref().map(parse_bound).transpose()?,
        until: args.until.as_deref().map(parse_bound).transpose()?,
        limit: args.limit,
        degraded_only: args.degraded,
        session_id: None,
    };
    let store = ctx.open()?;
    let watch = super::Watch::load(&store)?;
    let rows: Vec<Value> = store
        .sessions(&filter)?
        .iter_mut()
        .map(|s| {
            s.status = watch.status(&s.status, s.status_at, s.last_activity_at);
            Value::Object(session_json(s))
        })
        .collect();
    ctx.out.records(COLUMNS, &rows)?;
    Ok(Exit::Success)
}
