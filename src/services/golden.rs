//! `check --golden DIR`: a corpus that must give exactly the recorded
//! sessions, trees and costs. The corpus (`DIR/corpus/`) is ingested into
//! two scratch databases (the user's is never opened) at the prices pinned
//! in `DIR/prices.json`; the two must be equal row for row, a recount must
//! equal what was stored, the records must equal `DIR/expected/`, and the
//! labels in `DIR/labels/` must match the parents. `--bless` writes
//! `expected/` (and the prices) from what this build gives.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::domain::clock::Millis;
use crate::domain::confined;
use crate::domain::integrity::FindingKind;
use crate::domain::pricing::Price;
use crate::services::ingest::{self, Options};
use crate::store::Store;

/// One check's outcome.
#[derive(Debug, Clone)]
pub struct Check {
    pub name: &'static str,
    pub pass: bool,
    pub detail: String,
    /// Per file that differs, its unified diff (expected → got).
    pub diffs: Vec<(String, String)>,
}

/// Two scratch databases the corpus was read into, removed when dropped.
pub struct Scratch {
    dir: PathBuf,
    pub first: PathBuf,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The most a golden directory's price list, label file or expected
/// record may hold: far past any real one, and a `/dev/zero` or a
/// runaway file is refused, not read.
const MAX_PRICES: u64 = 16 << 20;
const MAX_RECORD: u64 = 64 << 20;

/// The golden directory itself, checked to be a real folder (a link could
/// point a pull request's golden directory anywhere).
pub fn checked_dir(dir: &Path) -> Result<PathBuf> {
    confined::real_dir(dir)?
        .with_context(|| format!("golden directory {} does not exist", dir.display()))
}

/// The pinned prices, when the golden directory has them.
pub fn pinned_prices(dir: &Path) -> Result<Option<Vec<Price>>> {
    let path = dir.join("prices.json");
    let Some(text) = confined::read_text(&path, MAX_PRICES)? else {
        return Ok(None);
    };
    let prices: Vec<Price> = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a price list", path.display()))?;
    Ok(Some(prices))
}

/// The corpus's roots: each folder of `DIR/corpus/`, as `ingest --root`
/// takes it (`projects/`, `sessions/`, `tmp/`, an OpenCode data folder…).
/// A link among them is refused: the corpus is the directory's own.
fn corpus_roots(corpus: &Path) -> Result<Vec<crate::services::ingest::Root>> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for e in std::fs::read_dir(corpus).with_context(|| format!("reading {}", corpus.display()))? {
        let path = e?.path();
        match confined::entry(&path)? {
            confined::Entry::Dir => dirs.push(path),
            confined::Entry::Other(what) if what.contains("link") => bail!(
                "{} is {what}: a golden corpus is read from its own folders only",
                path.display()
            ),
            _ => {}
        }
    }
    dirs.sort();
    if dirs.is_empty() {
        bail!(
            "{} holds no folder: put each agent's folder there (projects/, sessions/, …)",
            corpus.display()
        );
    }
    ingest::resolve_roots(&dirs)
}

/// Ingests the corpus into a new scratch database at `path`, at `prices`
/// (else the table in force).
fn ingest_into(path: &Path, corpus: &Path, prices: Option<&[Price]>, now: Millis) -> Result<Store> {
    let mut store = Store::open(path)?;
    if let Some(p) = prices {
        store.set_prices(p, "golden", now)?;
    }
    let roots = corpus_roots(corpus)?;
    // The index is built as the corpus is read (unless it is off), so
    // that what was said is compared too.
    let said = match ingest::index_mode(&store)? {
        ingest::IndexMode::Off => None,
        _ => Some(ingest::index_options(&store)?),
    };
    let opts = Options {
        said,
        ..Options::from_settings(&store, None)?
    };
    ingest::run(&mut store, &roots, &opts, None)?;
    Ok(store)
}

/// The first lines where two dumps differ (at most `most`).
fn first_differences(a: &str, b: &str, most: usize) -> String {
    crate::domain::diff::unified(a, b, "first ingest", "second ingest", 1)
        .lines()
        .take(most)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The checks that need no record: the corpus read twice gives the same
/// database, a recount gives what was stored, the labels match. Returns
/// them with the scratch databases (the records are read from the first).
pub fn read_twice(dir: &Path, reprice: bool, now: Millis) -> Result<(Vec<Check>, Scratch)> {
    let dir = &checked_dir(dir)?;
    let corpus = dir.join("corpus");
    if confined::real_dir(&corpus)?.is_none() {
        bail!(
            "{} has no corpus/ folder: put the transcripts there, in their usual folders",
            dir.display()
        );
    }
    let prices = if reprice { None } else { pinned_prices(dir)? };
    let scratch_dir = std::env::temp_dir().join(format!(
        "sessionkit-golden-{}-{}",
        std::process::id(),
        crate::domain::clock::now()
    ));
    std::fs::create_dir_all(&scratch_dir)?;
    let scratch = Scratch {
        first: scratch_dir.join("first.db"),
        dir: scratch_dir.clone(),
    };
    let mut first = ingest_into(&scratch.first, &corpus, prices.as_deref(), now)?;
    let second = ingest_into(
        &scratch_dir.join("second.db"),
        &corpus,
        prices.as_deref(),
        now,
    )?;
    let (a, b) = (first.dump_content()?, second.dump_content()?);
    let rows = a.lines().filter(|l| !l.starts_with("## ")).count();
    let mut checks = vec![Check {
        name: "deterministic",
        pass: a == b,
        detail: if a == b {
            format!("two ingests, {rows} rows equal")
        } else {
            "two ingests of the same corpus differ".to_string()
        },
        diffs: if a == b {
            Vec::new()
        } else {
            vec![("database".into(), first_differences(&a, &b, 40))]
        },
    }];
    checks.push(recount(&mut first, &scratch.first, &corpus)?);
    if let Some(labels) = confined::real_dir(&dir.join("labels"))? {
        checks.push(labels_check(&first, &labels)?);
    }
    Ok((checks, scratch))
}

/// A recount of the corpus against what the first ingest stored.
fn recount(store: &mut Store, db: &Path, corpus: &Path) -> Result<Check> {
    let roots = corpus_roots(corpus)?;
    let opts = Options {
        said: None,
        ..Options::from_settings(store, None)?
    };
    let found = crate::services::check::findings(store, db, Some((&roots, &opts)))?;
    let bad: Vec<String> = found
        .iter()
        .filter(|f| {
            matches!(
                f.kind,
                FindingKind::RecountMismatch
                    | FindingKind::RollupMismatch
                    | FindingKind::Failed
                    | FindingKind::Quarantined
                    | FindingKind::NotIngested
            )
        })
        .map(|f| format!("{} {}: {}", f.kind.as_str(), f.session_id, f.detail))
        .collect();
    let sessions = store.session_ids()?.len();
    Ok(Check {
        name: "recount",
        pass: bad.is_empty(),
        detail: if bad.is_empty() {
            format!("{sessions} sessions read again, every token as stored")
        } else {
            format!("{} findings", bad.len())
        },
        diffs: if bad.is_empty() {
            Vec::new()
        } else {
            vec![("recount".into(), bad.join("\n"))]
        },
    })
}

/// The labels in `dir` against the stored parents.
fn labels_check(store: &Store, dir: &Path) -> Result<Check> {
    let r = ingest::labels::compare(store, dir)?;
    Ok(Check {
        name: "labels",
        pass: r.findings.is_empty(),
        detail: format!("{}/{} parents as labelled", r.correct, r.labelled),
        diffs: r
            .findings
            .iter()
            .map(|f| (f.session_id.clone(), f.detail.clone()))
            .collect(),
    })
}

/// Compares the rendered records (file name → text) with `DIR/expected/`;
/// with `bless` (or no `expected/` yet) writes them instead and says which
/// files changed. The check, and the files written.
pub fn compare_or_bless(
    dir: &Path,
    records: &BTreeMap<String, String>,
    bless: bool,
) -> Result<(Check, Vec<String>)> {
    let dir = checked_dir(dir)?;
    let expected = dir.join("expected");
    let on_disk = read_expected(&expected)?;
    if bless || on_disk.is_none() {
        let on_disk = on_disk.unwrap_or_default();
        if confined::real_dir(&expected)?.is_none() {
            std::fs::create_dir(&expected)
                .with_context(|| format!("creating {}", expected.display()))?;
        }
        let mut changed = Vec::new();
        for (name, text) in records {
            if on_disk.get(name) != Some(text) {
                confined::write_whole(&expected.join(name), text.as_bytes())?;
                changed.push(name.clone());
            }
        }
        for name in on_disk.keys().filter(|n| !records.contains_key(*n)) {
            confined::remove(&expected.join(name))?;
            changed.push(format!("{name} (removed)"));
        }
        let check = Check {
            name: "records",
            pass: true,
            detail: format!(
                "blessed: {} files, {} changed",
                records.len(),
                changed.len()
            ),
            diffs: Vec::new(),
        };
        return Ok((check, changed));
    }
    let on_disk = on_disk.unwrap_or_default();
    let mut diffs = Vec::new();
    let names: std::collections::BTreeSet<&String> = records.keys().chain(on_disk.keys()).collect();
    for name in names {
        let (want, got) = (on_disk.get(name), records.get(name));
        if want == got {
            continue;
        }
        let (w, g) = (
            want.map_or("", String::as_str),
            got.map_or("", String::as_str),
        );
        let diff = crate::domain::diff::unified(
            w,
            g,
            &format!("expected/{name}"),
            &format!("got/{name}"),
            3,
        );
        diffs.push((name.clone(), diff));
    }
    let check = Check {
        name: "records",
        pass: diffs.is_empty(),
        detail: format!(
            "{} of {} files differ",
            diffs.len(),
            records.len().max(on_disk.len())
        ),
        diffs,
    };
    Ok((check, Vec::new()))
}

/// The files of `expected/` (none: `None`); a link or anything but a
/// regular file among them is an error.
fn read_expected(dir: &Path) -> Result<Option<BTreeMap<String, String>>> {
    let Some(dir) = confined::real_dir(dir)? else {
        return Ok(None);
    };
    let mut out = BTreeMap::new();
    for name in confined::files_with_ext(&dir, "json")? {
        let text = confined::read_text(&dir.join(&name), MAX_RECORD)?.unwrap_or_default();
        out.insert(name, text);
    }
    Ok(Some(out))
}

/// Writes `DIR/prices.json`: the prices of `models` from `store`'s table
/// (the table in force), when blessing with none pinned or `--reprice`.
pub fn pin_prices(dir: &Path, store: &Store, models: &[String]) -> Result<bool> {
    let table = store.prices()?;
    let prices: Vec<&Price> = models.iter().filter_map(|m| table.lookup(m)).collect();
    let text = serde_json::to_string_pretty(&prices)? + "\n";
    let path = checked_dir(dir)?.join("prices.json");
    if confined::read_text(&path, MAX_PRICES)?.as_deref() == Some(text.as_str()) {
        return Ok(false);
    }
    confined::write_whole(&path, text.as_bytes())?;
    Ok(true)
}
