//! `sessionkit sources`: which agents' transcripts are on this machine,
//! where, how many sessions, how many the database holds, when they last
//! changed, and what is not read and why. The first thing to run when a
//! number looks wrong.

use anyhow::Result;

use super::{Ctx, help_fields};
use crate::commands::Exit;
use crate::output::records::{SOURCE_SCHEMA, SourceRecord};
use crate::output::{Column, col};
use crate::services::ingest::survey;

#[derive(Debug, clap::Args)]
#[command(after_long_help = help_fields("sources"))]
pub struct Args {
    /// A root to look at, repeatable [default: every agent's own folders, as `ingest` reads them]
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<std::path::PathBuf>,
}

const COLUMNS: &[Column] = &[
    col("harness", "agent"),
    col("sessions", "sessions"),
    col("ingested", "ingested").optional(2),
    col("bytes", "bytes").optional(1),
    col("last_modified", "last changed"),
    col("root", "root"),
    col("skipped", "skipped"),
];

pub fn run(ctx: &Ctx, a: &Args) -> Result<Exit> {
    let given = if a.roots.is_empty() {
        crate::domain::clients::default_roots()
    } else {
        a.roots.clone()
    };
    if given.is_empty() {
        ctx.out
            .note("no agent's transcripts found in their default folders; pass --root DIR");
        return Ok(Exit::Success);
    }
    let roots = crate::services::ingest::resolve_roots(&given)?;
    // The database, when there is one: read, never created.
    let known = if ctx.db.exists() {
        Some(ctx.open()?.session_ids()?)
    } else {
        None
    };
    let rows = survey(&roots, known.as_ref())
        .into_iter()
        .map(|s| SourceRecord {
            root: s.root,
            harness: s.harness.to_string(),
            sessions: s.sessions,
            ingested: known.as_ref().map(|_| s.ingested),
            bytes: s.bytes,
            last_modified: (s.newest_ns > 0).then(|| {
                crate::domain::clock::format_instant(
                    i64::try_from(s.newest_ns / 1_000_000).unwrap_or(0),
                )
            }),
            skipped: s.skipped,
            schema: SOURCE_SCHEMA.to_string(),
        });
    ctx.out.records_of(COLUMNS, rows)?;
    Ok(Exit::Success)
}
