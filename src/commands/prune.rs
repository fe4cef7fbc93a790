//! `sessionkit prune --before DATE`: drop old projected transcript data.

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::parse_bound;
use crate::output::records::{PRUNE_SCHEMA, PruneRecord};
use crate::output::{Column, col};

/// Removes sessions whose last activity is before DATE, with their agents,
/// token rows and degraded lines. Memories and runs are never touched. A pruned
/// session whose files still exist stays out of `ingest` until its files change;
/// `replay` brings it back.
#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("prune"))]
pub struct Args {
    /// Remove sessions last active before this (RFC 3339, YYYY-MM-DD, or a span such as 90d)
    #[arg(long, value_name = "DATE")]
    pub before: String,

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

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let before = parse_bound(&args.before)?;
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
