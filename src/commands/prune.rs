//! `sessionkit prune --before DATE`: drop old projected transcript data.

use anyhow::Result;
use serde_json::json;

use super::{Ctx, time};
use crate::Exit;
use crate::clock::parse_bound;
use crate::output::{Column, col};

/// Removes sessions whose last activity is before DATE, with their agents,
/// token rows and degraded lines. Memories and runs are never touched. A pruned
/// session whose files still exist stays out of `ingest` until its files change;
/// `replay` brings it back.
#[derive(Debug, clap::Args)]
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
    let row = json!({
        "before": time(Some(before)),
        "project": args.project,
        "dry_run": args.dry_run,
        "sessions": r.sessions,
        "agents": r.agents,
        "token_rows": r.token_rows,
        "degraded_lines": r.degraded_lines,
    });
    ctx.out.record(COLUMNS, &row)?;
    Ok(if args.dry_run && r.sessions > 0 {
        Exit::Found
    } else {
        Exit::Success
    })
}
