//! What each root holds, per harness, without reading a transcript: the
//! sessions a walk finds (OpenCode's database trees too), how many are
//! ingested, their bytes and newest change, and what the walk skipped.

use std::collections::{BTreeMap, BTreeSet};

use super::Root;
use crate::domain::corpus::{self, Discovery};

/// One root's sessions of one harness.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub root: String,
    /// The harness (`-` for a root that holds none).
    pub harness: &'static str,
    pub sessions: u64,
    /// Of them, those the database holds.
    pub ingested: u64,
    pub bytes: u64,
    /// The newest file's change time, in nanoseconds (0: none).
    pub newest_ns: i128,
    /// What the walk skipped, by reason: on the root's first row only.
    pub skipped: BTreeMap<String, u64>,
}

/// Each root's sources; `known` holds the session ids the database has.
pub fn survey(roots: &[Root], known: Option<&BTreeSet<String>>) -> Vec<Source> {
    let is_known = |id: &str| known.is_some_and(|k| k.contains(id));
    let mut out = Vec::new();
    for (i, root) in roots.iter().enumerate() {
        let mut d = Discovery::default();
        corpus::discover(i, &root.path, u64::MAX, &mut d);
        let mut skipped: BTreeMap<String, u64> = BTreeMap::new();
        for s in &d.skips {
            *skipped.entry(s.reason.as_str().to_string()).or_default() += 1;
        }
        let mut by: BTreeMap<&'static str, Source> = BTreeMap::new();
        for (sid, files) in &d.sessions {
            let e = source(
                &mut by,
                root,
                crate::domain::clients::of_format(files.main.format).name,
            );
            e.sessions += 1;
            e.ingested += u64::from(is_known(sid));
            for f in std::iter::once(&files.main).chain(&files.agents) {
                e.bytes += f.size;
                e.newest_ns = e.newest_ns.max(f.mtime_ns);
            }
        }
        for db in &d.databases {
            // A database of sessions: its session trees, and when it
            // changed.
            let client = crate::domain::clients::of_format(db.format);
            let e = source(&mut by, root, client.name);
            e.bytes += db.size;
            e.newest_ns = e.newest_ns.max(db.mtime_ns);
            let moved = db.read_elsewhere(&d.databases);
            match db.open().and_then(|c| c.trees()) {
                Ok(trees) => {
                    for t in trees.iter().filter(|t| !moved.contains(t.id())) {
                        e.sessions += 1;
                        e.ingested += u64::from(is_known(t.id()));
                    }
                }
                Err(_) => *skipped.entry("unreadable".to_string()).or_default() += 1,
            }
        }
        if by.is_empty() {
            source(&mut by, root, "-");
        }
        let mut rows: Vec<Source> = by.into_values().collect();
        rows[0].skipped = skipped;
        out.extend(rows);
    }
    out
}

/// The row of `harness` under `root`, made empty when new.
fn source<'a>(
    by: &'a mut BTreeMap<&'static str, Source>,
    root: &Root,
    harness: &'static str,
) -> &'a mut Source {
    by.entry(harness).or_insert_with(|| Source {
        root: root.path.display().to_string(),
        harness,
        sessions: 0,
        ingested: 0,
        bytes: 0,
        newest_ns: 0,
        skipped: BTreeMap::new(),
    })
}
