//! `sessionkit sources`: which agents' transcripts are on this machine,
//! where, how many sessions, how many the database holds, when they last
//! changed, and what is not read and why. The first thing to run when a
//! number looks wrong.

use std::collections::BTreeMap;

use anyhow::Result;

use super::{Ctx, help_fields};
use crate::commands::Exit;
use crate::output::records::{SOURCE_SCHEMA, SourceRecord};
use crate::output::{Column, col};

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
        crate::domain::corpus::default_roots()
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
    let mut rows = Vec::new();
    for (i, root) in roots.iter().enumerate() {
        let mut d = crate::domain::corpus::Discovery::default();
        crate::domain::corpus::discover(i, &root.path, u64::MAX, &mut d);
        let mut skipped: BTreeMap<String, u64> = BTreeMap::new();
        for s in &d.skips {
            *skipped.entry(s.reason.as_str().to_string()).or_default() += 1;
        }
        // harness -> (sessions, ingested, bytes, newest mtime)
        let mut by: BTreeMap<&str, (u64, u64, u64, i128)> = BTreeMap::new();
        for (sid, files) in &d.sessions {
            let e = by
                .entry(crate::domain::transcript::harness_of(&files.main.rel))
                .or_default();
            e.0 += 1;
            e.1 += u64::from(known.as_ref().is_some_and(|k| k.contains(sid)));
            for f in std::iter::once(&files.main).chain(&files.agents) {
                e.2 += f.size;
                e.3 = e.3.max(f.mtime_ns);
            }
        }
        for db in &d.databases {
            // OpenCode's database: its session trees, and when it changed.
            let e = by.entry("opencode").or_default();
            e.2 += db.size;
            e.3 = e.3.max(db.mtime_ns);
            let moved = crate::domain::corpus::opencode::moved_to_database(db);
            match crate::domain::corpus::opencode::Reader::open(db).and_then(|c| c.trees()) {
                Ok(trees) => {
                    for t in trees.iter().filter(|t| !moved.contains(t.id())) {
                        e.0 += 1;
                        e.1 += u64::from(known.as_ref().is_some_and(|k| k.contains(t.id())));
                    }
                }
                Err(_) => *skipped.entry("unreadable".to_string()).or_default() += 1,
            }
        }
        let root_name = root.path.display().to_string();
        if by.is_empty() {
            by.insert("-", (0, 0, 0, 0));
        }
        for (n, (harness, (sessions, ingested, bytes, newest))) in by.into_iter().enumerate() {
            rows.push(SourceRecord {
                root: root_name.clone(),
                harness: harness.to_string(),
                sessions,
                ingested: known.as_ref().map(|_| ingested),
                bytes,
                last_modified: (newest > 0).then(|| {
                    crate::domain::clock::format_instant(
                        i64::try_from(newest / 1_000_000).unwrap_or(0),
                    )
                }),
                skipped: if n == 0 {
                    std::mem::take(&mut skipped)
                } else {
                    BTreeMap::new()
                },
                schema: SOURCE_SCHEMA.to_string(),
            });
        }
    }
    ctx.out.records_of(COLUMNS, &rows)?;
    Ok(Exit::Success)
}
