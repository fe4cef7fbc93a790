//! `sessionkit ingest`: read transcripts into the database, incrementally.

use std::path::PathBuf;

use anyhow::Result;
use serde_json::Value;

use super::Ctx;
use crate::Exit;
use crate::ingest::{self, Options, Summary};
use crate::output::{Column, col};
use crate::settings;

/// Where transcripts are and how to read them (shared by ingest, replay, check).
#[derive(Debug, Clone, clap::Args)]
pub struct CorpusArgs {
    /// Corpus root, repeatable [default: $CLAUDE_CONFIG_DIR/projects for each comma-separated entry, else ~/.claude/projects and ~/.config/claude/projects]
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,

    /// Per-line size cap in bytes; a longer line is a degraded line (files have no cap) [default: setting ingest.max_line_size, 64 MiB]
    #[arg(long, value_name = "BYTES", alias = "max-file-size")]
    pub max_line_size: Option<u64>,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub corpus: CorpusArgs,

    /// Fail a session on its first malformed line instead of skipping the line (exit 1)
    #[arg(long)]
    pub strict: bool,

    /// Fail a session that has a model with no price instead of keeping it unpriced (exit 1)
    #[arg(long)]
    pub strict_pricing: bool,
}

pub(crate) const SUMMARY_COLUMNS: &[Column] = &[
    col("roots", "roots"),
    col("sessions_new", "new"),
    col("sessions_updated", "updated"),
    col("sessions_unchanged", "unchanged"),
    col("sessions_degraded", "degraded"),
    col("sessions_failed", "failed"),
    col("sessions_quarantined", "quarantined"),
    col("sessions_retained", "retained"),
    col("agents", "agents"),
    col("messages_read", "messages read"),
    col("token_rows", "token rows (all)"),
    col("skipped", "skipped"),
    col("skipped_paths", "skipped paths"),
    col("bytes_read", "bytes read"),
    col("elapsed_ms", "elapsed ms"),
    col("failures", "failures"),
];

/// Resolves the roots to read; `None` when none was given and none exists.
/// Without `--root`, `check` and `replay` (`stored`) read the roots ingest
/// last read from that still exist; otherwise, and for `ingest`, Claude
/// Code's default folders.
pub(crate) fn roots(
    ctx: &Ctx,
    args: &CorpusArgs,
    stored: Option<&crate::store::Store>,
) -> Result<Option<Vec<ingest::Root>>> {
    let remembered: Vec<PathBuf> = match stored {
        Some(store) if args.roots.is_empty() => store
            .ingested_roots()?
            .into_iter()
            .map(PathBuf::from)
            .filter(|p| {
                let there = p.is_dir();
                if !there {
                    ctx.out.note(&format!(
                        "a root ingest read from is gone, skipped: {}",
                        p.display()
                    ));
                }
                there
            })
            .collect(),
        _ => Vec::new(),
    };
    let given = if !args.roots.is_empty() {
        args.roots.clone()
    } else if !remembered.is_empty() {
        remembered
    } else {
        crate::corpus::default_roots()
    };
    if given.is_empty() {
        ctx.out.note(
            "no Claude Code transcripts found (looked for $CLAUDE_CONFIG_DIR/projects, ~/.claude/projects, ~/.config/claude/projects); pass --root DIR",
        );
        return Ok(None);
    }
    Ok(Some(ingest::resolve_roots(&given)?))
}

/// The line cap in force: `--max-line-size`, else the setting
/// `ingest.max_line_size`, else the older `ingest.max_file_size` (which
/// capped files before a session could be read as a stream; a value set
/// for it is kept, as the line cap), else 64 MiB.
pub(crate) fn line_cap(store: &crate::store::Store, args: &CorpusArgs) -> Result<u64> {
    if let Some(n) = args.max_line_size {
        anyhow::ensure!(n > 0, "--max-line-size must be a positive number of bytes");
        return Ok(n);
    }
    let line = settings::lookup("ingest.max_line_size")?;
    let (v, source) = settings::effective(store, line)?;
    if source == settings::Source::Default {
        let (old, source) = settings::effective(store, settings::lookup("ingest.max_file_size")?)?;
        if source != settings::Source::Default {
            return Ok(old.parse()?);
        }
    }
    Ok(v.parse()?)
}

pub(crate) fn run_corpus(ctx: &Ctx, args: &Args, replay: bool) -> Result<Exit> {
    let (corpus, strict) = (&args.corpus, args.strict);
    // A replay reads the roots the database was ingested from; an ingest
    // with nothing to read writes nothing (not even the file).
    let (mut store, roots) = if replay {
        let store = ctx.open_writer()?;
        let roots = roots(ctx, corpus, Some(&store))?;
        (store, roots)
    } else {
        let roots = roots(ctx, corpus, None)?;
        if roots.is_none() {
            return Ok(Exit::Success);
        }
        (ctx.open_writer()?, roots)
    };
    let Some(roots) = roots else {
        return Ok(Exit::Success);
    };
    let opts = Options {
        strict,
        max_line_size: line_cap(&store, corpus)?,
        replay,
        only: Default::default(),
        strict_pricing: args.strict_pricing,
        bulk_bytes: settings::count(&store, "ingest.bulk_bytes")?,
        part_bytes: settings::count(&store, "ingest.part_bytes")?,
    };
    let pb = ctx
        .out
        .progress_bar(0, if replay { "replay" } else { "ingest" });
    let summary = ingest::run(&mut store, &roots, &opts, pb.as_ref());
    if summary.is_ok() {
        let paths: Vec<&str> = roots.iter().filter_map(|r| r.path.to_str()).collect();
        store.remember_roots(&paths, crate::clock::now())?;
    }
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    let summary = summary?;
    print_summary(ctx, &summary)?;
    Ok(if summary.strict_failed {
        Exit::Found
    } else {
        Exit::Success
    })
}

fn print_summary(ctx: &Ctx, s: &Summary) -> Result<()> {
    for f in &s.failures {
        let state = if f.quarantined {
            "quarantined"
        } else {
            "will retry"
        };
        ctx.out.note(&format!(
            "session {} failed (attempt {}, {state}): {}",
            f.session_id, f.attempt, f.reason
        ));
    }
    let value: Value = serde_json::to_value(s)?;
    ctx.out.record(SUMMARY_COLUMNS, &value)
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    run_corpus(ctx, args, false)
}
