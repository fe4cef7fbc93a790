//! `sessionkit eval closer`: the closer measured on labeled cases (issue
//! 19). Each case replays through the closer's own code path on a scratch
//! database; per case and in total: recall, precision, spurious resolves,
//! tokens, milliseconds. Exit 1 below the thresholds.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::Ctx;
use crate::Exit;
use crate::continuity::close::{Case, Judge, replay};
use crate::output::records::{EVAL_SCHEMA, EvalRecord};
use crate::output::{Column, col};
use crate::store::Store;

#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("eval"))]
pub struct Args {
    #[command(subcommand)]
    pub command: EvalCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum EvalCommand {
    /// Replay labeled cases through the closer; recall, precision, spurious resolves
    ///
    /// A case is one JSON file: {"name", "commitments":[{"id","topic","content"}],
    /// "transcript_tail":[{"role":"user"|"assistant","text"}], "final_message",
    /// "resolved_by_agent":[ids], "expected_completed":[ids]}; `{ID}` in a text
    /// stands for that commitment's id. Each replays on a
    /// scratch database (yours is never opened): the commitments briefed to a
    /// run, the agent's own resolves, the final message, the run closed, one
    /// closer batch with the assistant turns as the transcript's tail.
    Closer(CloserArgs),
}

#[derive(Debug, clap::Args)]
pub struct CloserArgs {
    /// The folder of case files (*.json), read in name order
    #[arg(long, value_name = "DIR")]
    pub cases: PathBuf,
    /// The judge: evidence (offline), or endpoint (the model that
    /// SESSIONKIT_CLOSER_ENDPOINT, SESSIONKIT_CLOSER_MODEL, SESSIONKIT_CLOSER_API
    /// and SESSIONKIT_CLOSER_API_KEY name; each case spends real calls)
    #[arg(long, value_name = "NAME", default_value = "evidence")]
    pub judge: String,
    /// Exit 1 when the total recall is below this (0 to 1)
    #[arg(long, value_name = "R")]
    pub min_recall: Option<f64>,
    /// Exit 1 when the total spurious resolves are more than this
    #[arg(long, value_name = "N")]
    pub max_spurious: Option<usize>,
}

const COLUMNS: &[Column] = &[
    col("case", "case"),
    col("expected", "expected"),
    col("resolved", "resolved"),
    col("right", "right"),
    col("spurious", "spurious"),
    col("recall", "recall"),
    col("precision", "precision"),
    col("ms", "ms"),
];

fn ratio(n: usize, d: usize) -> Option<f64> {
    (d > 0).then(|| (n as f64 / d as f64 * 1000.0).round() / 1000.0)
}

fn record(case: &str, expected: usize, resolved: usize, right: usize, ms: u64) -> EvalRecord {
    EvalRecord {
        case: case.to_string(),
        expected,
        failed: false,
        judge: "evidence".into(),
        ms,
        precision: ratio(right, resolved),
        recall: ratio(right, expected),
        resolved,
        right,
        schema: EVAL_SCHEMA.into(),
        spurious: resolved - right,
        tokens: 0,
    }
}

/// Every case file of `dir`, parsed, in name order; a bad file is an error
/// naming it (nothing is replayed).
fn cases(dir: &Path) -> Result<Vec<Case>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    if files.is_empty() {
        bail!("{} holds no case files (*.json)", dir.display());
    }
    files
        .iter()
        .map(|f| {
            let text =
                std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
            serde_json::from_str(&text)
                .with_context(|| format!("{}: not a closer case", f.display()))
        })
        .collect()
}

/// A scratch database file, removed (with its journal) when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let mut p = self.0.clone().into_os_string();
            p.push(suffix);
            let _ = std::fs::remove_file(p);
        }
    }
}

pub fn run(ctx: &Ctx, a: &Args) -> Result<Exit> {
    let EvalCommand::Closer(c) = &a.command;
    if c.judge != "evidence" && c.judge != "endpoint" {
        bail!("--judge {:?}: evidence or endpoint", c.judge);
    }
    let all = cases(&c.cases)?;
    let now = crate::clock::now();
    let mut rows = Vec::new();
    let (mut expected, mut resolved, mut right, mut ms) = (0, 0, 0, 0);
    let (mut tokens, mut failed) = (0, 0);
    for (n, case) in all.iter().enumerate() {
        let scratch = Scratch(
            std::env::temp_dir().join(format!("sessionkit-eval-{}-{n}.db", std::process::id())),
        );
        let started = std::time::Instant::now();
        let mut store = Store::open(&scratch.0)?;
        let judge = if c.judge == "endpoint" {
            Judge::endpoint(&store)?
        } else {
            Judge::Evidence
        };
        let r =
            replay(&mut store, case, &judge, now).with_context(|| format!("case {}", case.name))?;
        drop(store);
        let took = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let hits = r
            .resolved
            .iter()
            .filter(|id| r.expected.contains(id))
            .count();
        let mut row = record(&case.name, r.expected.len(), r.resolved.len(), hits, took);
        row.judge.clone_from(&c.judge);
        row.tokens = r.tokens;
        row.failed = r.failed;
        tokens += r.tokens;
        failed += usize::from(r.failed);
        rows.push(row);
        expected += r.expected.len();
        resolved += r.resolved.len();
        right += hits;
        ms += took;
    }
    let mut total = record("(total)", expected, resolved, right, ms);
    total.judge.clone_from(&c.judge);
    total.tokens = tokens;
    total.failed = failed > 0;
    let below = c
        .min_recall
        .is_some_and(|min| total.recall.is_some_and(|r| r < min))
        || c.max_spurious.is_some_and(|max| total.spurious > max);
    rows.push(total);
    ctx.out.records_of(COLUMNS, &rows)?;
    Ok(if below { Exit::Found } else { Exit::Success })
}
