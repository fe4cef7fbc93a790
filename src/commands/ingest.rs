//! `sessionkit ingest`: read transcripts into the database, incrementally;
//! and `sessionkit replay`, the same reading with checkpoints and
//! quarantine ignored: every session whose files still exist is projected
//! again (the result equals a fresh ingest); sessions whose files are gone
//! are kept and reported as retained.

use anyhow::Result;
use serde_json::Value;

use super::{CorpusArgs, Ctx, roots};
use crate::commands::Exit;
use crate::output::{Column, col};
use crate::services::ingest::{self, Options, Summary};

#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("ingest"))]
pub struct Args {
    #[command(flatten)]
    pub corpus: CorpusArgs,

    /// Fail a session on its first malformed line instead of skipping the line (exit 1)
    #[arg(long)]
    pub strict: bool,

    /// Fail a session that has a model with no price instead of keeping it unpriced (exit 1)
    #[arg(long)]
    pub strict_pricing: bool,

    /// Read only this agent's sessions
    #[arg(long, value_name = "NAME", value_parser = crate::domain::clients::harness_arg())]
    pub harness: Option<String>,
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

/// `sessionkit replay`.
pub fn replay(ctx: &Ctx, args: &Args) -> Result<Exit> {
    run_corpus(ctx, args, true)
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
        replay,
        strict_pricing: args.strict_pricing,
        harness: args.harness.clone(),
        ..Options::from_settings(&store, corpus.max_line_size)?
    };
    let pb = ctx
        .out
        .progress_bar(0, if replay { "replay" } else { "ingest" });
    let summary = ingest::run(&mut store, &roots, &opts, pb.as_ref());
    if summary.is_ok() {
        let paths: Vec<&str> = roots.iter().filter_map(|r| r.path.to_str()).collect();
        store.remember_roots(&paths, crate::domain::clock::now())?;
        // What a hook left behind under these roots has now been read.
        for b in store.backlog()? {
            if roots
                .iter()
                .any(|r| std::path::Path::new(&b.path).starts_with(&r.path))
            {
                store.clear_backlog(&b.path)?;
            }
        }
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
    ctx.out.record(SUMMARY_COLUMNS, &value)?;
    // One line saying where it all went.
    ctx.out.note(&format!(
        "{}: {} new, {} updated, {} unchanged session(s); {} failed",
        ctx.db.display(),
        s.new,
        s.updated,
        s.unchanged,
        s.failed + s.quarantined
    ));
    Ok(())
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    run_corpus(ctx, args, false)
}
