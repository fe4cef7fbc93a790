//! `check`'s recount: re-read every session whose files exist and compare
//! what the files say with what the database holds.

use std::collections::BTreeMap;

use anyhow::Result;

use super::stream::{Buffers, Failure};
use super::{Options, Root, discover, read_whole};
use crate::domain::corpus;
use crate::domain::transcript::Buckets;
use crate::store::Store;

pub use crate::domain::integrity::{Finding, FindingKind};

fn describe(m: &BTreeMap<String, (String, String, Buckets)>) -> String {
    let mut t = Buckets::default();
    for (_, _, b) in m.values() {
        t.add(*b);
    }
    format!(
        "{} messages, {} tokens (in {}, out {}, cw5m {}, cw1h {}, cr {})",
        m.len(),
        t.total(),
        t.input,
        t.output,
        t.cache_write_5m,
        t.cache_write_1h,
        t.cache_read
    )
}

/// A finding about a whole file.
fn file_finding(kind: FindingKind, session_id: &str, file: &str, detail: String) -> Finding {
    Finding {
        kind,
        session_id: session_id.to_string(),
        file: Some(file.to_string()),
        line: None,
        detail,
    }
}

/// What ingest would skip is data no report holds (empty files and files
/// that are not transcripts aside): each a finding.
fn skipped(skips: &[crate::domain::corpus::Skip], roots: &[Root], out: &mut Vec<Finding>) {
    for s in skips {
        use crate::domain::corpus::SkipReason as R;
        if matches!(s.reason, R::Empty | R::NonArtifact) {
            continue;
        }
        out.push(Finding {
            kind: FindingKind::Skipped,
            session_id: String::new(),
            file: Some(s.path.clone()),
            line: None,
            detail: format!(
                "not read ({}) under root {}: its tokens are in no report",
                s.reason,
                roots[s.root].path.display()
            ),
        });
    }
}

/// Re-reads the sessions found under `roots` that the database holds.
pub fn recount(store: &mut Store, roots: &[Root], opts: &Options) -> Result<Vec<Finding>> {
    let (d, _) = discover(store, roots, opts.max_line_size, None)?;
    let mut out = Vec::new();
    skipped(&d.skips, roots, &mut out);
    let known = store.session_ids()?;
    let checkpoints = store.checkpoints()?;
    let failures = store.failures()?;
    let mut buf = Buffers::default();
    for (sid, files) in &d.sessions {
        if !known.contains(sid) {
            if !failures.contains_key(sid) {
                out.push(file_finding(
                    FindingKind::NotIngested,
                    sid,
                    &files.main.rel,
                    "on disk but not in the database: run `sessionkit ingest`".into(),
                ));
            }
            continue;
        }
        if checkpoints.get(sid) != Some(&corpus::fingerprint(files)) {
            out.push(file_finding(
                FindingKind::Stale,
                sid,
                &files.main.rel,
                "files changed since the last ingest: run `sessionkit ingest`".into(),
            ));
            continue;
        }
        let parsed = match read_whole(files, opts, &mut buf) {
            Ok(parsed) => parsed,
            Err(Failure { reason, .. }) => {
                let detail = format!(
                    "files cannot be read now: {}",
                    crate::domain::text::sanitize_reason(&reason)
                );
                out.push(file_finding(
                    FindingKind::RecountMismatch,
                    sid,
                    &files.main.rel,
                    detail,
                ));
                continue;
            }
        };
        compare(store, sid, &files.main.rel, &parsed, &mut out)?;
    }
    for db in &d.databases {
        recount_store(
            store,
            (db, &d.databases),
            &known,
            &checkpoints,
            &failures,
            &mut out,
        )?;
    }
    Ok(out)
}

/// Compares a session's messages as read now with the database's.
fn compare(
    store: &Store,
    sid: &str,
    rel: &str,
    parsed: &crate::domain::transcript::ParsedSession,
    out: &mut Vec<Finding>,
) -> Result<()> {
    let from_files: BTreeMap<String, (String, String, Buckets)> = parsed
        .usage
        .iter()
        .map(|u| {
            (
                u.message_id.clone(),
                (u.agent_id.clone(), u.model.clone(), u.buckets),
            )
        })
        .collect();
    let from_db = store.observations_of(sid)?;
    if from_files != from_db {
        let detail = format!(
            "files: {}; database: {}",
            describe(&from_files),
            describe(&from_db)
        );
        out.push(file_finding(FindingKind::RecountMismatch, sid, rel, detail));
    }
    Ok(())
}

/// The recount of an OpenCode database: each session tree as `recount`
/// takes a session's files.
fn recount_store(
    store: &Store,
    (db, all): (
        &crate::domain::corpus::Database,
        &[crate::domain::corpus::Database],
    ),
    known: &std::collections::BTreeSet<String>,
    checkpoints: &std::collections::HashMap<String, String>,
    failures: &std::collections::HashMap<String, crate::store::projection::FailureState>,
    out: &mut Vec<Finding>,
) -> Result<()> {
    use crate::domain::transcript::session_path;
    let label = db.label();
    let read = db.open().and_then(|c| {
        let trees = c.trees()?;
        Ok((c, trees))
    });
    let (reader, trees) = match read {
        Ok(r) => r,
        Err(e) => {
            out.push(file_finding(
                FindingKind::Skipped,
                "",
                label,
                format!(
                    "not read ({}): {}",
                    crate::domain::corpus::SkipReason::Unreadable,
                    crate::domain::text::sanitize_reason(&format!("{e:#}"))
                ),
            ));
            return Ok(());
        }
    };
    let elsewhere = db.read_elsewhere(all);
    for tree in trees.iter().filter(|t| !elsewhere.contains(t.id())) {
        let sid = tree.id();
        let rel = session_path(label, sid);
        if !known.contains(sid) {
            if !failures.contains_key(sid) {
                out.push(file_finding(
                    FindingKind::NotIngested,
                    sid,
                    &rel,
                    format!(
                        "in the database {} keeps but not in sessionkit's: run `sessionkit ingest`",
                        crate::domain::clients::of_format(db.format).label
                    ),
                ));
            }
            continue;
        }
        if checkpoints.get(sid) != Some(&tree.fingerprint) {
            out.push(file_finding(
                FindingKind::Stale,
                sid,
                &rel,
                "changed since the last ingest: run `sessionkit ingest`".into(),
            ));
            continue;
        }
        compare(store, sid, &rel, &reader.parse(label, tree, None)?, out)?;
    }
    Ok(())
}
