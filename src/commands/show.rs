//! `sessionkit show SESSION`: one session in full.

use anyhow::Result;
use serde_json::Value;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::format_instant;
use crate::output::conversation::{Conversation, markdown, terminal};
use crate::output::records::{
    AgentDetail, CompactionRecord, DegradedLine, HarnessReported, ModelTotals, SHOW_SCHEMA,
    ShowRecord, session_record, totals_fields,
};
use crate::output::records::{SAID_SCHEMA, SaidRecord};
use crate::output::{Column, Format, col};
use crate::services::{report, search};
use crate::store::reports::AgentRow;

#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("show"))]
pub struct Args {
    /// Session id, or a unique prefix of one
    pub session: String,

    /// The conversation around this record (an id `search` prints): the
    /// pieces said before and after it by its agent; on a terminal the
    /// text itself with its line breaks, piped (or with --format) as
    /// records, or as Markdown with `--format markdown`
    #[arg(long, value_name = "RECORD")]
    pub at: Option<String>,

    /// With --at: how many pieces before and after it
    #[arg(long, value_name = "N", default_value_t = 5, requires = "at")]
    pub context: usize,
}

const SAID_COLUMNS: &[Column] = &[
    col("at", "at"),
    col("agent_id", "agent").optional(3),
    col("role", "role"),
    col("tool", "tool").optional(2),
    col("text", "text"),
    col("focus", "here").optional(1),
];

const SESSION_COLUMNS: &[Column] = &[
    col("session_id", "session"),
    col("title", "title"),
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
    col("reasoning_tokens", "reasoning tokens (of output)"),
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
    col("layout", "layout").optional(4),
    col("agent_type", "type").optional(3),
    col("status", "status"),
    col("first_seen_at", "first seen").optional(5),
    col("last_seen_at", "last seen").optional(2),
    col("messages", "messages").optional(4),
    col("input_tokens", "input").optional(3),
    col("output_tokens", "output").optional(3),
    col("cache_write_5m_tokens", "cache w 5m").optional(5),
    col("cache_write_1h_tokens", "cache w 1h").optional(5),
    col("cache_read_tokens", "cache read").optional(3),
    col("cost_usd", "cost"),
];

const MODEL_COLUMNS: &[Column] = &[
    col("model", "model"),
    col("messages", "messages").optional(3),
    col("input_tokens", "input").optional(2),
    col("output_tokens", "output").optional(2),
    col("cache_write_5m_tokens", "cache w 5m").optional(4),
    col("cache_write_1h_tokens", "cache w 1h").optional(4),
    col("cache_read_tokens", "cache read").optional(2),
    col("reasoning_tokens", "reasoning").optional(5),
    col("cost_usd", "cost"),
];

const COMPACTION_COLUMNS: &[Column] = &[
    col("agent_id", "agent"),
    col("at", "at"),
    col("trigger", "trigger"),
    col("pre_tokens", "tokens before").optional(2),
    col("uncounted", "calls not recorded").optional(1),
];

const LINE_COLUMNS: &[Column] = &[
    col("file", "file"),
    col("line", "line"),
    col("reason", "reason"),
];

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    if args.at.is_some() || ctx.out.format == Format::Markdown {
        return conversation(ctx, args);
    }
    ctx.out
        .refuse("a session (it has nested lists)", &[Format::Csv])?;
    let store = ctx.open()?;
    let id = store.resolve_session(&args.session)?;
    let detail = report::session_detail(&store, &id)?;
    super::name_unpriced(ctx, detail.unpriced.iter().map(String::as_str));
    let doc = show_record(&detail);
    note_uncounted(ctx, &doc.compactions);
    if ctx.out.format != Format::Table {
        ctx.out
            .record(SESSION_COLUMNS, &serde_json::to_value(doc)?)?;
        return Ok(Exit::Success);
    }
    let mut head = value(&doc.session);
    if let (Some(r), Value::Object(o)) = (&detail.reported, &mut head) {
        o.insert(
            "harness_cost_usd".into(),
            Value::from(crate::domain::pricing::usd(r.cost_nanousd)),
        );
    }
    ctx.out.record(SESSION_COLUMNS, &head)?;
    ctx.out.section("Agents")?;
    ctx.out.records(AGENT_COLUMNS, &values(&doc.by_agent))?;
    ctx.out.section("Models")?;
    ctx.out.records(MODEL_COLUMNS, &values(&doc.by_model))?;
    if !doc.compactions.is_empty() {
        ctx.out.section("Compactions")?;
        ctx.out
            .records(COMPACTION_COLUMNS, &values(&doc.compactions))?;
    }
    if !doc.degraded.is_empty() {
        ctx.out.section("Degraded lines")?;
        ctx.out.records(LINE_COLUMNS, &values(&doc.degraded))?;
    }
    Ok(Exit::Success)
}

/// The session's conversation (or the part of it around `--at`): as
/// Markdown, or one record per piece.
fn conversation(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let mut store = ctx.open()?;
    let id = store.resolve_session(&args.session)?;
    let pb = ctx.out.progress_bar(0, "indexing what was said");
    let said = search::conversation(
        &mut store,
        &id,
        args.at.as_deref(),
        args.context,
        pb.as_ref(),
    );
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    let said = said?;
    // What other sessions the index lacks is not this command's concern.
    super::note_built(
        ctx,
        &search::Built {
            left: 0,
            ..said.built.clone()
        },
        crate::services::ingest::index_mode(&store)?,
    );
    // Markdown when asked; on a terminal with no format asked, the text
    // itself (a table would escape its line breaks).
    let drawn = Conversation {
        session: &said.detail.session,
        agents: &said.detail.agents,
        places: &said.places,
        focus: said.focus.as_deref(),
    };
    let text = match ctx.out.format {
        Format::Markdown => Some(markdown(&drawn)),
        Format::Table if !ctx.out.explicit => Some(terminal(&drawn, ctx.out.color)),
        _ => None,
    };
    if let Some(text) = text {
        let mut out = ctx.out.data();
        std::io::Write::write_all(&mut out, text.as_bytes())?;
        return Ok(Exit::Success);
    }
    let rows = said.places.into_iter().map(|p| SaidRecord {
        schema: SAID_SCHEMA.to_string(),
        session_id: id.clone(),
        agent_id: p.agent_id.unwrap_or_else(|| id.clone()),
        focus: said.focus.as_deref() == Some(p.record.as_str()),
        record: p.record,
        piece: p.piece,
        at: p.at.map(format_instant),
        role: p.role,
        tool: p.tool,
        output: p.output,
        text: p.text,
    });
    ctx.out.records_of(SAID_COLUMNS, rows)?;
    Ok(Exit::Success)
}

/// A session's detail as its record.
fn show_record(d: &report::Detail) -> ShowRecord {
    let mut session = session_record(&d.session);
    session.schema = SHOW_SCHEMA.to_string();
    ShowRecord {
        session,
        by_agent: d.agents.iter().map(agent_detail).collect(),
        by_model: d
            .models
            .iter()
            .map(|(m, t)| ModelTotals {
                model: m.clone(),
                totals: totals_fields(t),
            })
            .collect(),
        compactions: d
            .compactions
            .iter()
            .map(|c| CompactionRecord {
                agent_id: c.agent_id.clone(),
                at: c.at.map(format_instant),
                pre_tokens: c.pre_tokens,
                uncounted: c.trigger.as_deref()
                    == Some(crate::domain::transcript::UNRECORDED_COMPACTION),
                trigger: c.trigger.clone(),
            })
            .collect(),
        degraded: d
            .degraded
            .iter()
            .map(|l| DegradedLine {
                file: l.file.clone(),
                line: l.line,
                reason: l.reason.clone(),
            })
            .collect(),
        harness_reported: d.reported.as_ref().map(|r| HarnessReported {
            at: r.at.map(format_instant),
            cache_read_tokens: r.tokens.cache_read,
            cache_write_1h_tokens: r.tokens.cache_write_1h,
            cache_write_5m_tokens: r.tokens.cache_write_5m,
            cost_nanousd: r.cost_nanousd,
            cost_usd: crate::domain::pricing::usd(r.cost_nanousd),
            input_tokens: r.tokens.input,
            output_tokens: r.tokens.output,
            web_searches: r.web_searches,
        }),
    }
}

fn agent_detail(a: &AgentRow) -> AgentDetail {
    AgentDetail {
        agent_id: a.agent_id.clone(),
        agent_type: a.agent_type.clone(),
        description: a.description.clone(),
        first_seen_at: a.first_seen_at.map(format_instant),
        last_seen_at: a.last_seen_at.map(format_instant),
        layout: a.layout.clone(),
        models: a.models.clone(),
        parent_agent_id: a.parent_agent_id.clone(),
        records: a.records,
        status: a.status.clone(),
        transcript_path: a.transcript_path.clone(),
        totals: totals_fields(&a.totals),
    }
}

/// Says, on stderr, that model calls the harness never recorded are not in
/// the figures (never hidden, never guessed).
fn note_uncounted(ctx: &Ctx, compactions: &[CompactionRecord]) {
    let n = compactions.iter().filter(|c| c.uncounted).count();
    if n > 0 {
        ctx.out.note(&format!(
            "{n} compression(s) of the chat: the model calls that wrote the summary are in no transcript and no hook, so their tokens are not in these figures"
        ));
    }
    // A client that deleted the records of some calls (Mistral Vibe keeps
    // its journal since the last-but-one snapshot only).
    let pruned = compactions
        .iter()
        .filter(|c| c.trigger.as_deref() == Some(crate::domain::transcript::PRUNED_CALLS))
        .count();
    if pruned > 0 {
        ctx.out.note(&format!(
            "{pruned} call(s) are missing from the session's journal (the client deleted their records at a snapshot): what its running totals hold beyond the calls still recorded is one figure, dated at its start; a call the totals miss as well (Mistral Vibe's skip the call that spawns a subagent) is in no figure here"
        ));
    }
}

fn value<T: serde::Serialize>(x: &T) -> Value {
    serde_json::to_value(x).expect("a record is JSON")
}

fn values<T: serde::Serialize>(xs: &[T]) -> Vec<Value> {
    xs.iter().map(value).collect()
}
