//! Codex's rollout tree (reference/harness-observed.md §3.2):
//!
//! ```text
//! <root>/YYYY/MM/DD/rollout-<time>-<thread>.jsonl
//! ```
//! A session is the rollout of its root thread plus one rollout per
//! subagent thread, which may sit in another day's folder. Which session a
//! rollout belongs to only its first line says (`session_meta`: `id`, the
//! thread; `session_id`, the root), so the walk reads that line of each.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::discover::{Entry, admit, list};
use super::{Skip, SkipReason};
use crate::corpus::discover::{Discovery, PlannedFile, SessionFiles};
use crate::transcript::{AgentLayout, FileRole};

/// How much of a rollout is read to find its `session_meta` (its line holds
/// the base instructions: about 22 KB with Codex 0.171).
const META_LIMIT: u64 = 1 << 20;

/// Whether `name` is a folder of the date tree (`YYYY`, `MM` or `DD`).
pub(super) fn is_date_dir(name: &str, digits: usize) -> bool {
    name.len() == digits && name.bytes().all(|b| b.is_ascii_digit())
}

#[derive(Deserialize)]
struct First {
    #[serde(rename = "type")]
    kind: Option<String>,
    payload: Option<MetaIds>,
}

#[derive(Deserialize)]
struct MetaIds {
    id: Option<String>,
    session_id: Option<String>,
}

/// The thread a rollout holds and the session it belongs to: from its
/// `session_meta`, else (a file still being written) the thread id its
/// name ends with, as a session of its own.
pub fn thread_of(path: &std::path::Path, name: &str) -> Option<(String, String)> {
    let head = super::read_head(path, META_LIMIT).ok()?;
    let line = head.split(|&b| b == b'\n').next().unwrap_or(&head);
    let line = line
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(line);
    if let Ok(First {
        kind: Some(kind),
        payload: Some(MetaIds {
            id: Some(id),
            session_id,
        }),
    }) = serde_json::from_slice::<First>(line)
        && kind == "session_meta"
        && !id.is_empty()
    {
        let session = session_id
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| id.clone());
        return Some((id, session));
    }
    let stem = name.strip_suffix(".jsonl")?;
    let id = stem.get(stem.len().checked_sub(36)?..)?;
    super::discover::is_session_uuid(id).then(|| (id.to_string(), id.to_string()))
}

/// One rollout found, before the session it belongs to is known.
struct Found {
    thread: String,
    session: String,
    day: String,
    file: PlannedFile,
}

/// Walks the `YYYY/MM/DD/` folders under a root's year folders and files
/// each rollout under its session; `only` keeps one session. Subagent threads without their root thread's rollout
/// are skipped as orphans.
pub fn walk(root_idx: usize, years: Vec<Entry>, only: Option<&str>, into: &mut Discovery) {
    let mut found: Vec<Found> = Vec::new();
    for y in years {
        for m in list(&y.path, &y.name, &mut into.skips) {
            let mrel = format!("{}/{}", y.name, m.name);
            if !(m.meta.is_dir() && is_date_dir(&m.name, 2)) {
                into.skips.push(skip(SkipReason::NonArtifact, mrel));
                continue;
            }
            for d in list(&m.path, &mrel, &mut into.skips) {
                let drel = format!("{mrel}/{}", d.name);
                if !(d.meta.is_dir() && is_date_dir(&d.name, 2)) {
                    into.skips.push(skip(SkipReason::NonArtifact, drel));
                    continue;
                }
                walk_day(&d, &drel, only, &mut found, into);
            }
        }
    }
    file_sessions(root_idx, found, into);
}

/// One day's folder (`YYYY/MM/DD`) and one session in it: what a hook's
/// catch-up reads. A subagent thread filed under another day is read by
/// the next full ingest.
pub fn walk_one_day(
    root_idx: usize,
    root: &std::path::Path,
    day: &str,
    sid: &str,
    into: &mut Discovery,
) {
    let path = root.join(day);
    let Ok(meta) = std::fs::symlink_metadata(&path) else {
        return;
    };
    if !meta.is_dir() {
        return;
    }
    let entry = Entry {
        name: day.to_string(),
        path,
        meta,
    };
    let mut found = Vec::new();
    walk_day(&entry, day, Some(sid), &mut found, into);
    file_sessions(root_idx, found, into);
}

/// One day's folder.
fn walk_day(
    d: &Entry,
    drel: &str,
    only: Option<&str>,
    found: &mut Vec<Found>,
    into: &mut Discovery,
) {
    for e in list(&d.path, drel, &mut into.skips) {
        let rel = format!("{drel}/{}", e.name);
        let rollout =
            e.meta.is_file() && e.name.starts_with("rollout-") && e.name.ends_with(".jsonl");
        if !rollout {
            if only.is_none() {
                into.skips.push(skip(SkipReason::NonArtifact, rel));
            }
            continue;
        }
        let Some((thread, session)) = thread_of(&e.path, &e.name) else {
            if only.is_none() {
                into.skips.push(skip(SkipReason::NonArtifact, rel));
            }
            continue;
        };
        if only.is_some_and(|o| o != session) {
            continue;
        }
        let role = if thread == session {
            FileRole::Main
        } else {
            FileRole::Agent {
                agent_id: thread.clone(),
                layout: AgentLayout::Thread,
                workflow_id: None,
            }
        };
        if let Some(file) = admit(&e, rel, role, &mut into.skips) {
            found.push(Found {
                thread,
                session,
                day: drel.to_string(),
                file,
            });
        }
    }
}

/// Groups the rollouts found into sessions: the root thread's rollout is
/// the main transcript.
fn file_sessions(root_idx: usize, found: Vec<Found>, into: &mut Discovery) {
    let mut by_session: BTreeMap<String, Vec<Found>> = BTreeMap::new();
    for f in found {
        by_session.entry(f.session.clone()).or_default().push(f);
    }
    for (sid, files) in by_session {
        let (mains, agents): (Vec<Found>, Vec<Found>) =
            files.into_iter().partition(|f| f.thread == sid);
        let mut mains = mains.into_iter();
        let Some(main) = mains.next() else {
            for a in agents {
                into.skips.push(skip(SkipReason::OrphanAgent, a.file.rel));
            }
            continue;
        };
        for extra in mains {
            into.skips
                .push(skip(SkipReason::DuplicateSession, extra.file.rel));
        }
        if into.sessions.contains_key(&sid) {
            into.skips
                .push(skip(SkipReason::DuplicateSession, main.file.rel));
            for a in agents {
                into.skips
                    .push(skip(SkipReason::DuplicateSession, a.file.rel));
            }
            continue;
        }
        let mut seen = std::collections::BTreeSet::new();
        let mut files = Vec::new();
        for a in agents {
            if seen.insert(a.thread.clone()) {
                files.push(a.file);
            } else {
                into.skips
                    .push(skip(SkipReason::DuplicateSession, a.file.rel));
            }
        }
        files.sort_by(|a, b| a.rel.cmp(&b.rel));
        into.sessions.insert(
            sid.clone(),
            SessionFiles {
                session_id: sid,
                slug: main.day,
                root: root_idx,
                main: main.file,
                agents: files,
            },
        );
    }
}

fn skip(reason: SkipReason, path: String) -> Skip {
    Skip {
        root: 0,
        reason,
        path,
    }
}
