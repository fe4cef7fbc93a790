//! `sessionkit search WORDS`: what agents and users said, found by words,
//! best first, each with the command that shows it in its conversation.

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::format_instant;
use crate::domain::transcript::said::Role;
use crate::output::records::{SEARCH_SCHEMA, SearchHitRecord};
use crate::output::{Column, Format, col};
use crate::services::search::{self, Filters, PHRASE_WINDOW, RANK_WINDOW, SearchHit};

#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("search"))]
pub struct Args {
    /// Words to look for: every word must be there (in any form: `deploy`
    /// finds "deployed"; an alias finds its group: `postgres`, "PostgreSQL");
    /// the last word also as a prefix unless some text has it whole (`deplo`
    /// finds "deployment"); an identifier or path
    /// (`parse_config`, `src/api/routes.ts`) or "quoted words" as a phrase
    #[arg(required = true, value_name = "WORDS")]
    pub words: Vec<String>,

    /// Only this project's sessions (its name or Claude Code's folder slug)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,

    /// Only this agent's sessions
    #[arg(long, value_name = "H", value_parser = crate::domain::clients::harness_arg())]
    pub harness: Option<String>,

    /// Only this session (its id or a unique prefix)
    #[arg(long, value_name = "S")]
    pub session: Option<String>,

    /// Only what this role said: user (prompts), assistant (answers),
    /// tool (tool calls, and outputs when indexed)
    #[arg(long, value_name = "R")]
    pub role: Option<String>,

    #[command(flatten)]
    pub period: super::PeriodArgs,

    /// Newest first instead of best first
    #[arg(long)]
    pub newest: bool,

    /// At most N hits
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub limit: usize,
}

const COLUMNS: &[Column] = &[
    col("at", "at"),
    col("session_id", "session"),
    col("harness", "harness").optional(4),
    col("role", "role"),
    col("tool", "tool").optional(2),
    col("snippet", "snippet"),
    col("places", "places").optional(5),
    col("open", "open").optional(6),
];

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    ctx.out
        .refuse("search hits", &[Format::Text, Format::Dot, Format::Mermaid])?;
    let (_, since, until) = args.period.resolve()?;
    let role = args.role.as_deref().map(Role::parse).transpose()?;
    anyhow::ensure!(args.limit > 0, "--limit must be at least 1");
    let mut store = ctx.open()?;
    let session = args
        .session
        .as_deref()
        .map(|s| store.resolve_session(s))
        .transpose()?;
    let query = args.words.join(" ");
    let pb = ctx.out.progress_bar(0, "indexing what was said");
    let found = search::search(
        &mut store,
        &query,
        &Filters {
            project: args.project.as_deref(),
            harness: args.harness.as_deref(),
            session: session.as_deref(),
            role,
            since,
            until,
            newest: args.newest,
            limit: args.limit,
        },
        pb.as_ref(),
    );
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    let found = found?;
    super::note_built(
        ctx,
        &found.built,
        crate::services::ingest::index_mode(&store)?,
    );
    note(ctx, &found, &query);
    let rows: Vec<SearchHitRecord> = found.hits.into_iter().map(record).collect();
    if ctx.out.format == Format::Table && !ctx.out.explicit {
        return on_a_terminal(ctx, &store, &rows);
    }
    // A table has no marks: its snippet is the plain text.
    let table = ctx.out.format == Format::Table;
    let rows = rows.into_iter().map(|mut r| {
        if table {
            r.snippet = r.snippet.replace("**", "");
        }
        r
    });
    ctx.out.records_of(COLUMNS, rows)?;
    Ok(Exit::Success)
}

/// A terminal, no format asked: each hit in at most three lines, with the
/// shortest command that opens it.
fn on_a_terminal(ctx: &Ctx, store: &crate::store::Store, rows: &[SearchHitRecord]) -> Result<Exit> {
    let mut opens = Vec::with_capacity(rows.len());
    for r in rows {
        opens.push(format!(
            "show {} --at {}",
            store.shortest_prefix(&r.session_id, 8)?,
            store.record_prefix(&r.session_id, &r.record, 8)?
        ));
    }
    let width = ctx
        .out
        .width
        .or_else(|| comfy_table::Table::new().width())
        .unwrap_or(80);
    print!(
        "{}",
        crate::output::hits::terminal(rows, &opens, usize::from(width), ctx.out.color)
    );
    Ok(Exit::Success)
}

/// Says on stderr what the hits alone do not: texts not yet searchable, a
/// ranking that saw only the newest matches, why nothing was found.
fn note(ctx: &Ctx, found: &search::Found, query: &str) {
    if found.window_full && found.phrase {
        ctx.out.note(&format!(
            "over {PHRASE_WINDOW} texts hold the words of {query:?}: its phrases were looked for in the {PHRASE_WINDOW} newest; add a word or a filter to look further"
        ));
    } else if found.window_full {
        ctx.out.note(&format!(
            "over {RANK_WINDOW} texts match {query:?}: the {RANK_WINDOW} newest were ranked; add a word or a filter to rank them all"
        ));
    }
    // An empty index with sessions left out was said above.
    if found.hits.is_empty() && !(found.empty && found.built.left > 0) {
        if found.empty {
            ctx.out.note(
                "the search index holds nothing: no session is stored yet (`sessionkit ingest` reads them), or none said anything it keeps",
            );
        } else {
            ctx.out.note(&format!("nothing said matches {query:?}"));
        }
    }
}

/// A hit as its record.
fn record(found: SearchHit) -> SearchHitRecord {
    let h = found.place;
    let agent_id = h.agent_id.unwrap_or_else(|| h.session_id.clone());
    SearchHitRecord {
        schema: SEARCH_SCHEMA.to_string(),
        open: format!("sessionkit show {} --at {}", h.session_id, h.record),
        agent_id,
        record: h.record,
        at: h.at.map(format_instant),
        role: h.role,
        tool: h.tool,
        output: h.output,
        harness: h.harness,
        project: h.project,
        title: h.title,
        snippet: found
            .snippet
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
        places: h.places,
        score: (h.score * 1e6).round() / 1e6,
        similar: h.similar,
        session_id: h.session_id,
    }
}
