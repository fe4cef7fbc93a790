//! `sessionkit show SESSION`: one session in full.

use anyhow::Result;
use serde_json::{Map, Value, json};

use super::{Ctx, put_totals, time};
use crate::Exit;
use crate::output::records::session_json;
use crate::output::{Column, Format, col};
use crate::store::reports::SessionFilter;

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = "JSON: the session's fields (see `sessionkit sessions --help`) plus by_agent [{agent_id, parent_agent_id, layout, agent_type, description, transcript_path, status, first_seen_at, last_seen_at, records, models, messages, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, total_tokens, cost_usd, cost_nanousd, unpriced_tokens}], by_model [{model, messages, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, total_tokens, cost_usd, cost_nanousd, unpriced_tokens}], degraded [{file, line, reason}], compactions [{agent_id, at, trigger, pre_tokens}]; and, when the harness wrote its own running totals (Claude Code 2.1.3xx cost-state), harness_reported {at, cost_usd, cost_nanousd, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, web_searches}: the harness's figure, never added to totals (`check` reports a difference)."
)]
pub struct Args {
    /// Session id, or a unique prefix of one
    pub session: String,
}

const SESSION_COLUMNS: &[Column] = &[
    col("session_id", "session"),
    col("project", "project"),
    col("project_slug", "slug"),
    col("cwd", "cwd"),
    col("git_branch", "branch"),
    col("harness", "harness"),
    col("harness_version", "version"),
    col("started_at", "started"),
    col("last_activity_at", "last activity"),
    col("status", "status"),
    col("agents", "agents"),
    col("models", "models"),
    col("messages", "messages"),
    col("input_tokens", "input tokens"),
    col("output_tokens", "output tokens"),
    col("cache_write_5m_tokens", "cache write 5m tokens"),
    col("cache_write_1h_tokens", "cache write 1h tokens"),
    col("cache_read_tokens", "cache read tokens"),
    col("total_tokens", "total tokens"),
    col("cost_usd", "cost"),
    col("harness_cost_usd", "cost the harness reported"),
    col("unpriced_tokens", "unpriced tokens"),
    col("records", "records"),
    col("unknown_records", "unknown records"),
    col("synthetic_messages", "synthetic messages"),
    col("degraded_lines", "degraded lines"),
];

const AGENT_COLUMNS: &[Column] = &[
    col("agent_id", "agent"),
    col("layout", "layout"),
    col("agent_type", "type"),
    col("status", "status"),
    col("first_seen_at", "first seen"),
    col("last_seen_at", "last seen"),
    col("messages", "messages"),
    col("input_tokens", "input"),
    col("output_tokens", "output"),
    col("cache_write_5m_tokens", "cache w 5m"),
    col("cache_write_1h_tokens", "cache w 1h"),
    col("cache_read_tokens", "cache read"),
    col("cost_usd", "cost"),
];

const MODEL_COLUMNS: &[Column] = &[
    col("model", "model"),
    col("messages", "messages"),
    col("input_tokens", "input"),
    col("output_tokens", "output"),
    col("cache_write_5m_tokens", "cache w 5m"),
    col("cache_write_1h_tokens", "cache w 1h"),
    col("cache_read_tokens", "cache read"),
    col("cost_usd", "cost"),
];

const LINE_COLUMNS: &[Column] = &[
    col("file", "file"),
    col("line", "line"),
    col("reason", "reason"),
];

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    ctx.out
        .refuse("a session (it has nested lists)", &[Format::Csv])?;
    let store = ctx.open()?;
    let id = store.resolve_session(&args.session)?;
    let filter = SessionFilter {
        session_id: Some(id.clone()),
        ..SessionFilter::default()
    };
    let watch = super::Watch::load(&store)?;
    let mut session = store
        .sessions(&filter)?
        .into_iter()
        .next()
        .ok_or_else(|| crate::store::StoreError::NoSuchSession(id.clone()))?;
    session.status = watch.status(&session.status, session.status_at, session.last_activity_at);
    let agents: Vec<Value> = store
        .agents_of(&id)?
        .iter()
        .map(|a| {
            let mut o = Map::new();
            o.insert("agent_id".into(), json!(a.agent_id));
            o.insert("parent_agent_id".into(), json!(a.parent_agent_id));
            o.insert("layout".into(), json!(a.layout));
            o.insert("agent_type".into(), json!(a.agent_type));
            o.insert("description".into(), json!(a.description));
            o.insert("transcript_path".into(), json!(a.transcript_path));
            o.insert(
                "status".into(),
                json!(watch.status(&a.status, a.status_at, a.last_seen_at)),
            );
            o.insert("first_seen_at".into(), time(a.first_seen_at));
            o.insert("last_seen_at".into(), time(a.last_seen_at));
            o.insert("records".into(), json!(a.records));
            o.insert("models".into(), json!(a.models));
            put_totals(&mut o, &a.totals);
            Value::Object(o)
        })
        .collect();
    let models: Vec<Value> = store
        .models_of(&id)?
        .iter()
        .map(|(m, t)| {
            let mut o = Map::new();
            o.insert("model".into(), json!(m));
            put_totals(&mut o, t);
            Value::Object(o)
        })
        .collect();
    let degraded: Vec<Value> = store
        .degraded_lines(Some(&id))?
        .iter()
        .map(|l| json!({"file": l.file, "line": l.line, "reason": l.reason}))
        .collect();
    let compactions: Vec<Value> = store
        .compactions_of(&id)?
        .iter()
        .map(|c| json!({"agent_id": c.agent_id, "at": time(c.at), "trigger": c.trigger, "pre_tokens": c.pre_tokens}))
        .collect();
    let mut doc = session_json(&session);
    let reported = store.reported_costs(Some(&id))?.into_iter().next();
    if ctx.out.format == Format::Table {
        let mut doc = doc;
        if let Some(r) = &reported {
            doc.insert(
                "harness_cost_usd".into(),
                json!(crate::pricing::usd(r.cost_nanousd)),
            );
        }
        let head = Value::Object(doc);
        ctx.out.record(SESSION_COLUMNS, &head)?;
        ctx.out.section("Agents")?;
        ctx.out.records(AGENT_COLUMNS, &agents)?;
        ctx.out.section("Models")?;
        ctx.out.records(MODEL_COLUMNS, &models)?;
        if !degraded.is_empty() {
            ctx.out.section("Degraded lines")?;
            ctx.out.records(LINE_COLUMNS, &degraded)?;
        }
        return Ok(Exit::Success);
    }
    doc.insert("by_agent".into(), Value::Array(agents));
    doc.insert("by_model".into(), Value::Array(models));
    doc.insert("degraded".into(), Value::Array(degraded));
    doc.insert("compactions".into(), Value::Array(compactions));
    if let Some(r) = reported {
        let t = r.tokens;
        doc.insert(
            "harness_reported".into(),
            json!({
                "at": time(r.at),
                "cost_usd": crate::pricing::usd(r.cost_nanousd),
                "cost_nanousd": r.cost_nanousd,
                "input_tokens": t.input,
                "output_tokens": t.output,
                "cache_write_5m_tokens": t.cache_write_5m,
                "cache_write_1h_tokens": t.cache_write_1h,
                "cache_read_tokens": t.cache_read,
                "web_searches": r.web_searches,
            }),
        );
    }
    ctx.out.record(SESSION_COLUMNS, &Value::Object(doc))?;
    Ok(Exit::Success)
}
