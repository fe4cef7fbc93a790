//! Gemini CLI's chats:
//!
//! ```text
//! <root>/<project>/chats/session-<time>-<id8>.jsonl     a session (its id in its header)
//! <root>/<project>/chats/<session>/<agent>.jsonl        a subagent of <session>
//! ```
//! `<root>` is `~/.gemini/tmp`. Older versions (0.20 and before) wrote a
//! session as one whole-file JSON document,
//! `<root>/<project hash>/chats/session-<time>-<id8>.json`; it is read too.
//! Gemini converts one into a `.jsonl` beside it when it is resumed (the
//! same messages, then the new ones): where both are there, the `.jsonl`
//! is the session and the `.json` a duplicate.
//!
//! Qwen Code, a fork, keeps the layout under `~/.qwen/projects` with its
//! own file names and lines: `<project>/chats/<session id>.jsonl`, and its
//! subagents' in `<project>/subagents/<session id>/agent-<id>.jsonl`.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::domain::corpus::kit::{Discovery, PlannedFile, SessionFiles};
use crate::domain::corpus::kit::{Entry, admit, is_session_uuid, list};
use crate::domain::corpus::kit::{Folders, Skip, SkipReason};
use crate::domain::transcript::{AgentLayout, FileRole};

/// Whether a project folder holds Gemini chats.
pub(super) fn is_project(dir: &Entry) -> bool {
    std::fs::symlink_metadata(dir.path.join("chats")).is_ok_and(|m| m.is_dir())
}

#[derive(Deserialize)]
struct Header {
    #[serde(rename = "sessionId")]
    session_id: Option<String>,
}

/// The session id a chat's header line names (for an older whole-file
/// chat, its document's first `sessionId`, which comes before its
/// messages).
pub fn session_of(path: &std::path::Path) -> Option<String> {
    let head = crate::domain::corpus::kit::read_head(path, 64 * 1024).ok()?;
    let head = head
        .strip_prefix(b"\xEF\xBB\xBF".as_slice())
        .unwrap_or(&head);
    if path.extension().is_some_and(|e| e == "json") {
        return first_session_id(head);
    }
    let line = head.split(|&b| b == b'\n').next()?;
    let h: Header = serde_json::from_slice(line).ok()?;
    h.session_id.filter(|s| is_session_uuid(s))
}

/// The value of the first `"sessionId": "<uuid>"` in a document's head.
fn first_session_id(head: &[u8]) -> Option<String> {
    let key = b"\"sessionId\"";
    let at = memchr::memmem::find(head, key)? + key.len();
    let rest = &head[at..];
    let colon = rest.iter().position(|&c| !c.is_ascii_whitespace())?;
    let rest = rest[colon..].strip_prefix(b":")?;
    let open = rest.iter().position(|&c| !c.is_ascii_whitespace())?;
    let rest = rest[open..].strip_prefix(b"\"")?;
    let id = std::str::from_utf8(rest.get(..36)?).ok()?;
    (rest.get(36) == Some(&b'"') && is_session_uuid(id)).then(|| id.to_string())
}

/// One project folder; with `only`, just that session.
pub(super) fn walk_project(
    root_idx: usize,
    project: &Entry,
    only: Option<&str>,
    into: &mut Discovery,
) {
    let mut mains: BTreeMap<String, PlannedFile> = BTreeMap::new();
    let mut cwd = None;
    let mut agents: BTreeMap<String, Vec<PlannedFile>> = BTreeMap::new();
    for e in list(&project.path, &project.name, &mut into.skips) {
        let rel = format!("{}/{}", project.name, e.name);
        if e.name == ".project_root" && e.meta.is_file() && e.meta.len() <= 4096 {
            // The project's directory: the sessions' working directory.
            cwd = crate::domain::corpus::kit::read_head(&e.path, 4096)
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .map(|s| s.trim().to_string())
                .filter(|s| s.starts_with('/'));
            if cwd.is_some() {
                continue;
            }
        }
        if e.name == "subagents" && e.meta.is_dir() {
            // Qwen Code's subagents: `subagents/<session>/agent-<id>.jsonl`,
            // each with its `.meta.json`.
            for c in list(&e.path, &rel, &mut into.skips) {
                let crel = format!("{rel}/{}", c.name);
                if !(c.meta.is_dir() && is_session_uuid(&c.name)) {
                    into.skips.push(Skip::new(SkipReason::NonArtifact, crel));
                    continue;
                }
                if only.is_some_and(|o| o != c.name) {
                    continue;
                }
                let mut found = Vec::new();
                crate::domain::corpus::kit::walk_agents(
                    &c,
                    &crel,
                    u64::MAX,
                    None,
                    &mut found,
                    &mut into.skips,
                );
                agents.entry(c.name.clone()).or_default().extend(found);
            }
            continue;
        }
        if e.name != "chats" || !e.meta.is_dir() {
            if only.is_none() {
                into.skips.push(Skip::new(SkipReason::NonArtifact, rel));
            }
            continue;
        }
        for c in list(&e.path, &rel, &mut into.skips) {
            let crel = format!("{rel}/{}", c.name);
            if c.meta.is_dir() && is_session_uuid(&c.name) {
                if only.is_some_and(|o| o != c.name) {
                    continue;
                }
                for a in list(&c.path, &crel, &mut into.skips) {
                    let arel = format!("{crel}/{}", a.name);
                    let id = a
                        .name
                        .strip_suffix(".jsonl")
                        .filter(|id| is_session_uuid(id));
                    let (Some(id), true) = (id, a.meta.is_file()) else {
                        into.skips.push(Skip::new(SkipReason::NonArtifact, arel));
                        continue;
                    };
                    let role = FileRole::Agent {
                        agent_id: id.to_string(),
                        layout: AgentLayout::Chat,
                        workflow_id: None,
                    };
                    if let Some(f) = admit(&a, arel, role, &mut into.skips) {
                        agents.entry(c.name.clone()).or_default().push(f);
                    }
                }
                continue;
            }
            let chat = c.meta.is_file()
                && c.name.starts_with("session-")
                && (c.name.ends_with(".jsonl") || c.name.ends_with(".json"));
            // Qwen Code (a Gemini CLI fork) names its sessions by their id.
            let qwen = c
                .name
                .strip_suffix(".jsonl")
                .filter(|id| c.meta.is_file() && is_session_uuid(id));
            let sid = if chat {
                session_of(&c.path)
            } else {
                qwen.map(str::to_string)
            };
            let Some(sid) = sid else {
                if only.is_none() {
                    into.skips.push(Skip::new(SkipReason::NonArtifact, crel));
                }
                continue;
            };
            if only.is_some_and(|o| o != sid) {
                continue;
            }
            if let Some(held) = mains.get(&sid) {
                // A whole-file chat and its conversion: the conversion is the
                // session (it holds the same messages and the later ones).
                let converted = held.rel.ends_with(".json") && crel == format!("{}l", held.rel);
                if !converted {
                    into.skips
                        .push(Skip::new(SkipReason::DuplicateSession, crel));
                    continue;
                }
                let old = mains.remove(&sid).expect("held").rel;
                into.skips
                    .push(Skip::new(SkipReason::DuplicateSession, old));
            }
            if let Some(f) = admit(&c, crel, FileRole::Main, &mut into.skips) {
                mains.insert(sid, f);
            }
        }
    }
    for (sid, files) in &mut agents {
        if !mains.contains_key(sid) {
            for f in files.drain(..) {
                into.skips.push(Skip::new(SkipReason::OrphanAgent, f.rel));
            }
        }
    }
    for (sid, main) in mains {
        if into.sessions.contains_key(&sid) {
            into.skips
                .push(Skip::new(SkipReason::DuplicateSession, main.rel));
            for f in agents.remove(&sid).unwrap_or_default() {
                into.skips
                    .push(Skip::new(SkipReason::DuplicateSession, f.rel));
            }
            continue;
        }
        let files = agents.remove(&sid).unwrap_or_default();
        into.sessions.insert(
            sid.clone(),
            SessionFiles {
                session_id: sid,
                slug: project.name.clone(),
                root: root_idx,
                main,
                agents: files,
                cwd_hint: cwd.clone(),
            },
        );
    }
}

/// Gemini CLI's project folders (`<project>/chats/`), and its forks'.
pub static FIND: Folders = Folders {
    is: is_project,
    walk: |i, _, d, only, into| walk_project(i, d, only, into),
    place,
};

/// `<root>/<project>/chats/session-….jsonl`, the session named in its
/// header (a fork's `chats/<session>.jsonl`, by its name).
fn place(transcript: &std::path::Path) -> Option<Option<crate::domain::corpus::Placed>> {
    let dir = transcript.parent()?;
    let name = transcript.file_name()?.to_str()?;
    if dir.file_name().is_none_or(|d| d != "chats") {
        return None;
    }
    // A fork's chat (Qwen Code's) is named by its session.
    let named = name
        .strip_suffix(".jsonl")
        .filter(|s| is_session_uuid(s))
        .map(str::to_string);
    if named.is_none() && !name.starts_with("session-") {
        return None;
    }
    Some((|| {
        let session = named.or_else(|| session_of(transcript))?;
        let project = dir.parent()?;
        let name = project.file_name().and_then(|s| s.to_str())?;
        Some((project.parent()?.to_path_buf(), name.to_string(), session))
    })())
}
