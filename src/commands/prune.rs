//! `sessionkit prune --before DATE`: drop old projected transcript data.

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::parse_bound;
use crate::output::records::{PRUNE_INDEX_SCHEMA, PRUNE_SCHEMA, PruneIndexRecord, PruneRecord};
use crate::output::{Column, col};

/// Removes sessions whose last activity is before DATE, with their agents,
/// token rows, degraded lines and what the search index holds of them.
/// Memories and runs are never touched. A pruned session whose files still
/// exist stays out of `ingest` until its files change; `replay` brings it
/// back. `--index` drops the whole search index instead and gives its space
/// back; `replay` rebuilds it.
#[derive(Debug, clap::Args)]
#[command(after_long_help = format!("{}\n\nWith --index: {}", super::help_fields("prune"), super::help_fields("prune-index")))]
pub struct Args {
    /// Remove sessions last active before this (RFC 3339, YYYY-MM-DD, or a span such as 90d)
    #[arg(long, value_name = "DATE", required_unless_present = "index")]
    pub before: Option<String>,

    /// Drop the search index (every text and place; the database file
    /// shrinks by its size); `replay` rebuilds it
    #[arg(long, conflicts_with_all = ["before", "project"])]
    pub index: bool,

    /// Only sessions of this project (name or folder slug)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,

    /// Report what would be removed and change nothing (exit 1 if anything would be)
    #[arg(long)]
    pub dry_run: bool,
}

const COLUMNS: &[Column] = &[
    col("before", "before"),
    col("project", "project"),
    col("dry_run", "dry run"),
    col("sessions", "sessions"),
    col("agents", "agents"),
    col("token_rows", "token rows"),
    col("degraded_lines", "degraded lines"),
];

const INDEX_COLUMNS: &[Column] = &[
    col("dry_run", "dry run"),
    col("places", "places"),
    col("texts", "texts"),
    col("text_bytes", "text bytes"),
    col("file_bytes_before", "file bytes before"),
    col("file_bytes_after", "after"),
];

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let Some(before) = args.before.as_deref() else {
        return index(ctx, args);
    };
    let before = parse_bound(before)?;
    let mut store = ctx.open_writer()?;
    let r = store.prune(before, args.project.as_deref(), args.dry_run)?;
    let row = PruneRecord {
        agents: r.agents,
        before: crate::domain::clock::format_instant(before),
        degraded_lines: r.degraded_lines,
        dry_run: args.dry_run,
        project: args.project.clone(),
        schema: PRUNE_SCHEMA.to_string(),
        sessions: r.sessions,
        token_rows: r.token_rows,
    };
    ctx.out.record_of(COLUMNS, &row)?;
    Ok(if args.dry_run && r.sessions > 0 {
        Exit::Found
    } else {
        Exit::Success
    })
}

/// `prune --index`: the search index dropped and its space given back.
fn index(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let mut store = ctx.open_writer()?;
    let d = store.drop_index(args.dry_run)?;
    let row = PruneIndexRecord {
        schema: PRUNE_INDEX_SCHEMA.to_string(),
        dry_run: args.dry_run,
        places: d.stats.places,
        texts: d.stats.texts,
        text_bytes: d.stats.text_bytes,
        file_bytes_before: d.file_bytes_before,
        file_bytes_after: d.file_bytes_after,
    };
    ctx.out.record_of(INDEX_COLUMNS, &row)?;
    Ok(if args.dry_run && d.stats.places > 0 {
        Exit::Found
    } else {
        Exit::Success
    })
}
