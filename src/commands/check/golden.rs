//! `check --golden DIR`: the checks of a golden directory, one line each
//! (or `sessionkit.golden-check/1` records), the records rendered by this
//! very binary as `show`, `tree` and `cost` print them.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::{Value, json};

use crate::commands::{Ctx, Exit};
use crate::output::Format;
use crate::output::records::{GOLDEN_SCHEMA, GoldenCheckRecord, GoldenDiff};
use crate::services::golden::{self, Check};

/// The instant the records are rendered as of: every session long over.
pub const SETTLED: &str = "2100-01-01T00:00:00Z";

/// One command of this binary on the scratch database, its JSON output.
fn json_of(db: &Path, args: &[&str]) -> Result<Value> {
    let exe = std::env::current_exe().context("finding this program to render the records")?;
    let out = std::process::Command::new(exe)
        .arg("--db")
        .arg(db)
        .args(args)
        .args(["--format", "json"])
        .env_remove("SESSIONKIT_DB")
        // Statuses as of long after the corpus: settled, whenever it runs.
        .env("SESSIONKIT_NOW", SETTLED)
        .output()?;
    anyhow::ensure!(
        out.status.success(),
        "rendering {args:?}: {}",
        String::from_utf8_lossy(&out.stderr).trim()
    );
    Ok(serde_json::from_slice(&out.stdout)?)
}

/// The records of every session and the costs, by file name: what
/// `expected/` holds. Costs are by UTC day, so a corpus gives the same
/// file on every machine.
fn records(db: &Path, sessions: &[String]) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    let pretty = |v: &Value| serde_json::to_string_pretty(v).map(|s| s + "\n");
    for s in sessions {
        let doc = json!({ "show": json_of(db, &["show", s])?, "tree": json_of(db, &["tree", s])? });
        out.insert(format!("{s}.json"), pretty(&doc)?);
    }
    let cost = json!({
        "by_day": json_of(db, &["cost", "--by", "day", "--tz", "UTC"])?,
        "by_model": json_of(db, &["cost", "--by", "model"])?,
    });
    out.insert("cost.json".into(), pretty(&cost)?);
    Ok(out)
}

pub fn run(ctx: &Ctx, dir: &Path, bless: bool, reprice: bool) -> Result<Exit> {
    let now = crate::domain::clock::now();
    let (mut checks, scratch) = golden::read_twice(dir, reprice, now)?;
    let store = crate::store::Store::open(&scratch.first)?;
    let sessions: Vec<String> = store.session_ids()?.into_iter().collect();
    let rendered = records(&scratch.first, &sessions)?;
    let (check, changed) = golden::compare_or_bless(dir, &rendered, bless)?;
    let blessing = !changed.is_empty() || check.detail.starts_with("blessed");
    checks.insert(2.min(checks.len()), check);
    if blessing && (reprice || golden::pinned_prices(dir)?.is_none()) {
        let models: Vec<String> = store.used_models()?;
        if golden::pin_prices(dir, &store, &models)? {
            ctx.out.note(&format!(
                "pinned the prices of {} models in prices.json",
                models.len()
            ));
        }
    }
    for c in &changed {
        ctx.out.note(&format!("blessed expected/{c}"));
    }
    let failed = checks.iter().filter(|c| !c.pass).count();
    report(ctx, &checks)?;
    Ok(if failed > 0 {
        Exit::Found
    } else {
        Exit::Success
    })
}

/// One line per check on a terminal (diffs after a failing one), records
/// otherwise.
fn report(ctx: &Ctx, checks: &[Check]) -> Result<()> {
    if ctx.out.format == Format::Table {
        let mut out = std::io::stdout().lock();
        for c in checks {
            use std::io::Write;
            writeln!(
                out,
                "{:<4}  {:<13}  {}",
                if c.pass { "pass" } else { "FAIL" },
                c.name,
                c.detail
            )?;
            for (_, d) in &c.diffs {
                writeln!(out, "{}", d.trim_end())?;
            }
        }
        return Ok(());
    }
    let rows = checks.iter().map(|c| GoldenCheckRecord {
        schema: GOLDEN_SCHEMA.to_string(),
        check: c.name.to_string(),
        pass: c.pass,
        detail: c.detail.clone(),
        diffs: c
            .diffs
            .iter()
            .map(|(file, diff)| GoldenDiff {
                file: file.clone(),
                diff: diff.clone(),
            })
            .collect(),
    });
    ctx.out.records_of(COLUMNS, rows)
}

const COLUMNS: &[crate::output::Column] = &[
    crate::output::col("check", "check"),
    crate::output::col("pass", "pass"),
    crate::output::col("detail", "detail"),
];
