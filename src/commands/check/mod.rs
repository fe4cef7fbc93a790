//! `sessionkit check`: the integrity report CI runs on a golden corpus.
//! Exit 1 when it finds anything.

use anyhow::Result;

use super::Ctx;

mod golden;
use super::{CorpusArgs, roots};
use crate::commands::Exit;
use crate::output::records::finding_record;
use crate::output::{Column, col};
use crate::services::check;
use crate::services::ingest::{self, Finding, Options};

#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("check"))]
pub struct Args {
    #[command(flatten)]
    pub corpus: CorpusArgs,

    /// Skip the recount (no transcript is read; only the database is checked)
    #[arg(long)]
    pub no_recount: bool,

    /// Compare stored parents with hand-written labels (`<session>.json` files in DIR)
    #[arg(long, value_name = "DIR")]
    pub labels: Option<std::path::PathBuf>,

    /// Check a golden directory instead of this database: DIR/corpus/ read
    /// into two scratch databases (yours is never opened) must give equal
    /// rows, a clean recount, exactly the records in DIR/expected/ (a
    /// unified diff per file that differs) and the parents in DIR/labels/;
    /// prices pinned in DIR/prices.json. The first run on a new corpus
    /// blesses
    #[arg(long, value_name = "DIR", conflicts_with_all = ["labels", "no_recount"])]
    pub golden: Option<std::path::PathBuf>,

    /// With --golden: write DIR/expected/ (and DIR/prices.json when none is
    /// pinned) from this build, and say which files changed
    #[arg(long, requires = "golden")]
    pub bless: bool,

    /// With --golden: price with today's table, not DIR/prices.json (with
    /// --bless, pin today's)
    #[arg(long, requires = "golden")]
    pub reprice: bool,

    /// With --labels: exit 1 when the share of correct parents is below this
    #[arg(
        long,
        value_name = "RATIO",
        default_value_t = 0.95,
        requires = "labels"
    )]
    pub min_accuracy: f64,
}

const COLUMNS: &[Column] = &[
    col("kind", "kind"),
    col("session_id", "session"),
    col("file", "file"),
    col("line", "line"),
    col("detail", "detail"),
];

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    if let Some(dir) = &args.golden {
        return golden::run(ctx, dir, args.bless, args.reprice);
    }
    let mut store = ctx.open()?;
    let roots = if args.no_recount {
        None
    } else {
        roots(ctx, &args.corpus, Some(&store))?
    };
    let recount = match roots {
        Some(roots) => Some((
            roots,
            Options {
                // A recount reads numbers only.
                said: None,
                ..Options::from_settings(&store, args.corpus.max_line_size)?
            },
        )),
        None => None,
    };
    let recount = recount.as_ref().map(|(r, o)| (r.as_slice(), o));
    let mut findings = check::findings(&mut store, &ctx.db, recount)?;
    let mut labelled: Vec<Finding> = Vec::new();
    let mut below = false;
    if let Some(dir) = &args.labels {
        let r = ingest::labels::compare(&store, dir)?;
        let acc = r.accuracy();
        below = acc < args.min_accuracy;
        ctx.out.note(&format!(
            "hierarchy accuracy: {}/{} parents correct ({:.1}%, threshold {:.1}%)",
            r.correct,
            r.labelled,
            acc * 100.0,
            args.min_accuracy * 100.0
        ));
        labelled = r.findings;
    }
    note_index(ctx, &store)?;
    // Label mismatches are listed; only the accuracy threshold decides the exit.
    let failing = !findings.is_empty() || below;
    findings.extend(labelled);
    ctx.out
        .records_of(COLUMNS, findings.iter().map(finding_record))?;
    if !failing {
        ctx.out.note("check: nothing found");
        Ok(Exit::Success)
    } else {
        ctx.out
            .note(&format!("check: {} finding(s)", findings.len()));
        Ok(Exit::Found)
    }
}

/// Says, on stderr, how large the search index is against the transcripts
/// it covers (nothing when it holds nothing).
fn note_index(ctx: &Ctx, store: &crate::store::Store) -> Result<()> {
    let st = store.index_stats()?;
    let waiting = store.sessions_not_indexed()?;
    if st.places == 0 {
        if waiting > 0
            && crate::services::ingest::index_mode(store)?
                == crate::services::ingest::IndexMode::Lazy
        {
            ctx.out.note(&format!(
                "search index: not built yet; the first `sessionkit search` indexes the {waiting} sessions"
            ));
        }
        return Ok(());
    }
    let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
    let size = match st.disk_bytes {
        Some(d) if st.covered_bytes > 0 => format!(
            "{:.1} MiB, {:.1}% of the {:.1} MiB of transcripts it covers",
            mib(d),
            d as f64 * 100.0 / st.covered_bytes as f64,
            mib(st.covered_bytes)
        ),
        Some(d) => format!("{:.1} MiB", mib(d)),
        None => format!("{:.1} MiB of text", mib(st.text_bytes)),
    };
    ctx.out.note(&format!(
        "search index: {size} ({} sessions, {} distinct texts said in {} places{})",
        st.sessions,
        st.texts,
        st.places,
        if waiting > 0 {
            format!("; {waiting} sessions not indexed yet")
        } else {
            String::new()
        }
    ));
    Ok(())
}
