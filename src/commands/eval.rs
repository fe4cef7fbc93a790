//! `sessionkit eval closer`: the closer measured on labeled cases. Each
//! case replays through the closer's own code path on a scratch database;
//! per case and in total: recall, precision, spurious resolves,
//! tokens, milliseconds. Exit 1 below the thresholds.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::Ctx;
use crate::commands::Exit;
use crate::output::records::{EVAL_SCHEMA, EvalRecord};
use crate::output::{Column, col};
use crate::services::close::{Case, Judge, replay};
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
    /// "resolved_by_agent":[ids], "expected_completed":[ids], and optionally
    /// "category", "passing_tests":["command\noutput"] and "written_files":[paths]};
    /// cases in the folders `dev` and `test` below DIR are totalled per
    /// folder; `{ID}` in a text stands for that commitment's id. Each replays on a
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
    /// Also say, on stderr, why each commitment was resolved (the clause
    /// the judge read) and whether the case's label agrees
    #[arg(long)]
    pub explain: bool,
}

const COLUMNS: &[Column] = &[
    col("split", "split"),
    col("category", "category"),
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
        category: "-".into(),
        split: "-".into(),
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

/// The `*.json` files of `dir`, in name order.
fn json_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// Every case file of `dir` and of its folders one level down (a folder is
/// a split: `dev`, `test`), parsed, with its split, in order; a bad file is
/// an error naming it (nothing is replayed).
fn cases(dir: &Path) -> Result<Vec<(String, Case)>> {
    let mut files: Vec<(String, PathBuf)> = json_files(dir)?
        .into_iter()
        .map(|f| ("-".to_string(), f))
        .collect();
    let mut splits: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    splits.sort();
    for s in splits {
        let name = s
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        files.extend(json_files(&s)?.into_iter().map(|f| (name.clone(), f)));
    }
    if files.is_empty() {
        bail!(
            "{} holds no case files (*.json), nor its folders",
            dir.display()
        );
    }
    files
        .iter()
        .map(|(split, f)| {
            let text =
                std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?;
            let mut case: Case = serde_json::from_str(&text)
                .with_context(|| format!("{}: not a closer case", f.display()))?;
            if case.category.is_none() {
                case.category = category_of_name(f);
            }
            Ok((split.clone(), case))
        })
        .collect()
}

/// A case's category from its file's name, `<category>-<n>.json`, when
/// the case names none.
fn category_of_name(f: &Path) -> Option<String> {
    let stem = f.file_stem()?.to_str()?;
    let (category, n) = stem.rsplit_once('-')?;
    (!category.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .then(|| category.to_string())
}

/// Sums of case rows: `(total)` for each split and category within it,
/// then for everything.
fn totals(rows: &[EvalRecord], judge: &str) -> Vec<EvalRecord> {
    let mut groups: Vec<(String, String)> = Vec::new();
    for r in rows {
        for g in [
            (r.split.clone(), "-".to_string()),
            (r.split.clone(), r.category.clone()),
        ] {
            if !groups.contains(&g) {
                groups.push(g);
            }
        }
    }
    groups.sort();
    let many_splits = groups.iter().filter(|(_, c)| c == "-").count() > 1;
    let mut out = Vec::new();
    let sum = |pick: &dyn Fn(&EvalRecord) -> bool, split: &str, category: &str| {
        let picked: Vec<&EvalRecord> = rows.iter().filter(|r| pick(r)).collect();
        let n = |f: fn(&EvalRecord) -> usize| picked.iter().map(|r| f(r)).sum::<usize>();
        let mut t = record(
            "(total)",
            n(|r| r.expected),
            n(|r| r.resolved),
            n(|r| r.right),
            picked.iter().map(|r| r.ms).sum(),
        );
        t.split = split.to_string();
        t.category = category.to_string();
        t.judge = judge.to_string();
        t.tokens = picked.iter().map(|r| r.tokens).sum();
        t.failed = picked.iter().any(|r| r.failed);
        t
    };
    for (split, category) in &groups {
        if category == "-" && !many_splits {
            continue;
        }
        if category == "-" && rows.iter().all(|r| r.category == "-") {
            continue;
        }
        out.push(sum(
            &|r: &EvalRecord| r.split == *split && (category == "-" || r.category == *category),
            split,
            category,
        ));
    }
    out.push(sum(&|_| true, "-", "-"));
    out
}

/// Counts a case's resolves by rule, right or spurious, and with
/// `explain` says on stderr why each was made.
fn tally(
    ctx: &Ctx,
    explain: bool,
    case: &str,
    r: &crate::services::close::Replayed,
    by_rule: &mut std::collections::BTreeMap<String, (usize, usize)>,
) {
    for (id, why, rule) in &r.evidence {
        let right = r.expected.contains(id);
        if explain {
            let verdict = if right { "right" } else { "SPURIOUS" };
            ctx.out.note(&format!(
                "{case}: {id} resolved ({verdict}) by {rule}: {}",
                crate::domain::text::one_line(why)
            ));
        }
        let t = by_rule.entry(rule.clone()).or_default();
        if right {
            t.0 += 1;
        } else {
            t.1 += 1;
        }
    }
}

/// The resolves by the rule that made them, spurious ones first, then
/// the most used: where a wrong resolve came from.
fn rule_table(tallies: &std::collections::BTreeMap<String, (usize, usize)>) -> String {
    let mut by_rule: Vec<(&String, usize, usize)> = tallies
        .iter()
        .map(|(r, (right, bad))| (r, *right, *bad))
        .collect();
    by_rule.sort_by(|a, b| {
        b.2.cmp(&a.2)
            .then((b.1 + b.2).cmp(&(a.1 + a.2)))
            .then(a.0.cmp(b.0))
    });
    let width = by_rule
        .iter()
        .map(|r| r.0.len())
        .chain([4])
        .max()
        .unwrap_or(4);
    let mut out = format!("resolves by rule:\n{:<width$}  RIGHT  SPURIOUS", "RULE");
    for (rule, right, spurious) in &by_rule {
        out.push_str(&format!("\n{rule:<width$}  {right:>5}  {spurious:>8}"));
    }
    if by_rule.is_empty() {
        out.push_str("\n(no resolves)");
    }
    out
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
    let now = crate::domain::clock::now();
    let mut rows = Vec::new();
    // Each rule's resolves: right and spurious.
    let mut by_rule: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for (n, (split, case)) in all.iter().enumerate() {
        let scratch = Scratch(
            std::env::temp_dir().join(format!("sessionkit-eval-{}-{n}.db", std::process::id())),
        );
        let started = std::time::Instant::now();
        let mut store = Store::open(&scratch.0)?;
        let judge = if c.judge == "endpoint" {
            Judge::endpoint(&store)?
        } else {
            Judge::evidence(&store)?
        };
        let r =
            replay(&mut store, case, &judge, now).with_context(|| format!("case {}", case.name))?;
        tally(ctx, c.explain, &case.name, &r, &mut by_rule);
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
        row.split.clone_from(split);
        row.category = case.category.clone().unwrap_or_else(|| "-".into());
        rows.push(row);
    }
    let sums = totals(&rows, &c.judge);
    let total = sums.last().expect("the grand total");
    let below = c
        .min_recall
        .is_some_and(|min| total.recall.is_some_and(|r| r < min))
        || c.max_spurious.is_some_and(|max| total.spurious > max);
    rows.extend(sums);
    ctx.out.records_of(COLUMNS, &rows)?;
    for line in rule_table(&by_rule).lines() {
        ctx.out.note(line);
    }
    Ok(if below { Exit::Found } else { Exit::Success })
}
