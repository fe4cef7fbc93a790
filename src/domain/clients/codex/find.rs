//! Codex's rollout tree:
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

use crate::domain::corpus::kit::{Discovery, PlannedFile, SessionFiles};
use crate::domain::corpus::kit::{Entry, admit, list};
use crate::domain::corpus::kit::{Skip, SkipReason};
use crate::domain::transcript::{AgentLayout, FileRole};

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

/// How much of a rollout is read first: Codex writes `session_meta`'s ids
/// in its first few hundred bytes.
const PREFIX: u64 = 4096;

/// The thread a rollout holds and the session it belongs to: from its
/// `session_meta`, else (a file still being written) the thread id its
/// name ends with, as a session of its own. Only the first 4 KiB are read
/// when they hold the ids (every walk reads each rollout's head; the
/// line itself is about 22 KB), else the whole first line.
pub fn thread_of(path: &std::path::Path, name: &str) -> Option<(String, String)> {
    let head = crate::domain::corpus::kit::read_head(path, PREFIX).ok()?;
    let head = head
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(&head);
    let ids = match prefix_ids(head) {
        Some(ids) => Some(ids),
        None if head.len() as u64 >= PREFIX - 3 => {
            let whole = crate::domain::corpus::kit::read_head(path, META_LIMIT).ok()?;
            let line = whole.split(|&b| b == b'\n').next().unwrap_or(&whole);
            let line = line
                .strip_prefix(b"\xEF\xBB\xBF".as_slice())
                .unwrap_or(line);
            line_ids(line)
        }
        None => None,
    };
    if let Some((id, session)) = ids {
        return Some((id, session));
    }
    let stem = name.strip_suffix(".jsonl")?;
    let id = stem.get(stem.len().checked_sub(36)?..)?;
    crate::domain::corpus::kit::is_session_uuid(id).then(|| (id.to_string(), id.to_string()))
}

/// The ids of a whole `session_meta` line.
fn line_ids(line: &[u8]) -> Option<(String, String)> {
    let first: First = serde_json::from_slice(line).ok()?;
    let meta = first.payload?;
    let id = meta.id.filter(|i| !i.is_empty())?;
    (first.kind.as_deref() == Some("session_meta")).then(|| {
        let session = meta
            .session_id
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| id.clone());
        (id, session)
    })
}

/// The ids of a `session_meta` line from its first bytes, which may end
/// mid-line: the top-level `type` and the `payload` object's own `id` and
/// `session_id` string members (nested objects' members do not count). A
/// complete line is parsed whole instead. `None` when the bytes do not say.
fn prefix_ids(head: &[u8]) -> Option<(String, String)> {
    if let Some(end) = memchr::memchr(b'\n', head) {
        return line_ids(&head[..end]);
    }
    let (mut depth, mut i) = (0usize, 0usize);
    let mut key: Option<(usize, &[u8])> = None;
    let mut payload: Option<usize> = None;
    let mut kind: Option<&[u8]> = None;
    let mut id: Option<&[u8]> = None;
    let mut session: Option<&[u8]> = None;
    while i < head.len() {
        match head[i] {
            b'{' | b'[' => {
                depth += 1;
                if head[i] == b'{' && key == Some((1, b"payload".as_slice())) {
                    payload = Some(depth);
                }
                key = None;
            }
            b'}' | b']' => {
                if payload == Some(depth) {
                    break;
                }
                depth = depth.checked_sub(1)?;
                key = None;
            }
            b',' => key = None,
            b'"' => {
                let Some((text, next)) = string_at(head, i) else {
                    break;
                };
                i = next;
                if head.get(i) == Some(&b':') {
                    key = Some((depth, text));
                } else {
                    match key {
                        Some((1, b"type")) => kind = Some(text),
                        Some((d, b"id")) if Some(d) == payload => id = Some(text),
                        Some((d, b"session_id")) if Some(d) == payload => session = Some(text),
                        _ => {}
                    }
                    key = None;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
        if kind.is_some() && id.is_some() && session.is_some() {
            break;
        }
    }
    if kind? != b"session_meta" {
        return None;
    }
    // Both, or the whole line decides (a line that names no session is
    // a root thread of its own; only its end can tell).
    Some((plain_id(id?)?, plain_id(session?)?))
}

/// The JSON string that opens at `head[i]` (its raw bytes) and where the
/// scan goes on: past it and any whitespace. `None` when it is cut off.
fn string_at(head: &[u8], i: usize) -> Option<(&[u8], usize)> {
    let start = i + 1;
    let mut j = start;
    while j < head.len() && head[j] != b'"' {
        j += if head[j] == b'\\' { 2 } else { 1 };
    }
    if j >= head.len() {
        return None;
    }
    let mut next = j + 1;
    while next < head.len() && head[next].is_ascii_whitespace() {
        next += 1;
    }
    Some((&head[start..j], next))
}

/// An id as text: not empty, no escapes.
fn plain_id(raw: &[u8]) -> Option<String> {
    std::str::from_utf8(raw)
        .ok()
        .filter(|s| !s.is_empty() && !s.contains('\\'))
        .map(str::to_string)
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
                into.skips.push(Skip::new(SkipReason::NonArtifact, mrel));
                continue;
            }
            for d in list(&m.path, &mrel, &mut into.skips) {
                let drel = format!("{mrel}/{}", d.name);
                if !(d.meta.is_dir() && is_date_dir(&d.name, 2)) {
                    into.skips.push(Skip::new(SkipReason::NonArtifact, drel));
                    continue;
                }
                walk_day(&d, &drel, only, &mut found, into);
            }
        }
    }
    file_sessions(root_idx, found, into);
}

/// Rollouts lying at the top of a root: Codex's `archived_sessions/`
/// (archived sessions' rollouts, moved out of the date tree).
pub(super) fn walk_flat(root_idx: usize, files: Vec<Entry>, into: &mut Discovery) {
    let mut found = Vec::new();
    for e in files {
        take_rollout(&e, String::new(), None, &mut found, into);
    }
    file_sessions(root_idx, found, into);
}

/// Whether a root's top-level entry is a rollout file.
pub(super) fn is_rollout_file(e: &Entry) -> bool {
    e.meta.is_file() && e.name.starts_with("rollout-") && e.name.ends_with(".jsonl")
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
    let Some(entry) = Entry::dir_at(root, day) else {
        return;
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
        if !is_rollout_file(&e) {
            if only.is_none() {
                into.skips.push(Skip::new(
                    SkipReason::NonArtifact,
                    format!("{drel}/{}", e.name),
                ));
            }
            continue;
        }
        take_rollout(&e, drel.to_string(), only, found, into);
    }
}

/// Files one rollout under its session (`day` is its folder, empty at the
/// top of a root).
fn take_rollout(
    e: &Entry,
    day: String,
    only: Option<&str>,
    found: &mut Vec<Found>,
    into: &mut Discovery,
) {
    let rel = if day.is_empty() {
        e.name.clone()
    } else {
        format!("{day}/{}", e.name)
    };
    let Some((thread, session)) = thread_of(&e.path, &e.name) else {
        if only.is_none() {
            into.skips.push(Skip::new(SkipReason::NonArtifact, rel));
        }
        return;
    };
    if only.is_some_and(|o| o != session) {
        return;
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
    if let Some(file) = admit(e, rel, role, &mut into.skips) {
        found.push(Found {
            thread,
            session,
            day,
            file,
        });
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
                into.skips
                    .push(Skip::new(SkipReason::OrphanAgent, a.file.rel));
            }
            continue;
        };
        for extra in mains {
            into.skips
                .push(Skip::new(SkipReason::DuplicateSession, extra.file.rel));
        }
        if into.sessions.contains_key(&sid) {
            into.skips
                .push(Skip::new(SkipReason::DuplicateSession, main.file.rel));
            for a in agents {
                into.skips
                    .push(Skip::new(SkipReason::DuplicateSession, a.file.rel));
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
                    .push(Skip::new(SkipReason::DuplicateSession, a.file.rel));
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
                cwd_hint: None,
            },
        );
    }
}

/// `YYYY/MM/DD` of a day folder.
fn day_of(dir: &std::path::Path) -> Option<String> {
    let parts: Vec<&str> = dir
        .iter()
        .rev()
        .take(3)
        .map(|p| p.to_str())
        .collect::<Option<_>>()?;
    let ok = parts.len() == 3
        && parts
            .iter()
            .zip([2, 2, 4])
            .all(|(p, n)| p.len() == n && p.bytes().all(|b| b.is_ascii_digit()));
    ok.then(|| format!("{}/{}/{}", parts[2], parts[1], parts[0]))
}

/// Codex's rollouts: its `YYYY/MM/DD/` tree, and the archived rollouts
/// lying at the top of their folder. No folder of a root is one of its own
/// sessions: it claims its year folders and rollout files instead.
#[derive(Debug)]
pub struct Find;

impl crate::domain::corpus::Layout for Find {
    fn is(&self, _: &Entry) -> bool {
        false
    }

    fn walk(&self, _: usize, _: &std::path::Path, _: &Entry, _: Option<&str>, _: &mut Discovery) {}

    fn claim(&self, root_idx: usize, entries: Vec<Entry>, into: &mut Discovery) -> Vec<Entry> {
        let mut years = Vec::new();
        let mut rollouts = Vec::new();
        let mut rest = Vec::new();
        for e in entries {
            if is_rollout_file(&e) {
                rollouts.push(e);
            } else if e.meta.is_dir() && is_date_dir(&e.name, 4) {
                years.push(e);
            } else {
                rest.push(e);
            }
        }
        if !years.is_empty() {
            walk(root_idx, years, None, into);
        }
        if !rollouts.is_empty() {
            walk_flat(root_idx, rollouts, into);
        }
        rest
    }

    /// `<root>/YYYY/MM/DD/rollout-….jsonl`, the session named inside.
    fn place(&self, transcript: &std::path::Path) -> Option<Option<crate::domain::corpus::Placed>> {
        let name = transcript.file_name()?.to_str()?;
        let stem = name
            .strip_suffix(".jsonl")
            .filter(|n| n.starts_with("rollout-"))?;
        let dir = transcript.parent()?;
        Some((|| {
            let (_, session) = thread_of(transcript, stem)?;
            Some((dir.ancestors().nth(3)?.to_path_buf(), day_of(dir)?, session))
        })())
    }

    /// A hook names a session of the date tree by its day folder.
    fn walk_one(
        &self,
        root_idx: usize,
        root: &std::path::Path,
        (slug, sid): (&str, &str),
        into: &mut Discovery,
    ) -> bool {
        if !slug.contains('/') {
            return false;
        }
        walk_one_day(root_idx, root, slug, sid, into);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::{line_ids, prefix_ids};

    const LINE: &str = r#"{"timestamp":"2026-12-03T20:01:09.359Z","ordinal":0,"type":"session_meta","payload":{"account_scoped":true,"context":{"id":"nested"},"session_id":"root-1","id":"thread-2","parent_thread_id":"root-1","base_instructions":"long"}}"#;

    /// The ids come from the payload's own members, from a prefix cut
    /// anywhere after them, and agree with a parse of the whole line.
    #[test]
    fn ids_from_a_prefix_cut_anywhere() {
        let want = Some(("thread-2".to_string(), "root-1".to_string()));
        assert_eq!(line_ids(LINE.as_bytes()), want);
        let after = LINE.find("\"parent_thread_id\"").unwrap();
        for cut in after..LINE.len() {
            assert_eq!(prefix_ids(&LINE.as_bytes()[..cut]), want, "cut at {cut}");
        }
        assert_eq!(prefix_ids(format!("{LINE}\n{{}}").as_bytes()), want);
        // Cut before the ids: the prefix does not say.
        let before = LINE.find("\"session_id\"").unwrap();
        assert_eq!(prefix_ids(&LINE.as_bytes()[..before]), None);
        // Not a session_meta line.
        let other = LINE.replace("session_meta", "turn_context");
        assert_eq!(prefix_ids(&other.as_bytes()[..other.len() - 10]), None);
        assert_eq!(line_ids(other.as_bytes()), None);
        // A root thread's line without session_id: only the whole line says.
        let root = r#"{"type":"session_meta","payload":{"id":"root-9","cwd":"/w"}}"#;
        assert_eq!(prefix_ids(&root.as_bytes()[..root.len() - 2]), None);
        assert_eq!(
            line_ids(root.as_bytes()),
            Some(("root-9".into(), "root-9".into()))
        );
    }
}
