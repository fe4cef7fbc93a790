//! Factory Droid's sessions:
//!
//! ```text
//! <root>/<cwd slug>/<uuid>.jsonl               the transcript (no usage)
//! <root>/<cwd slug>/<uuid>.settings.json       its settings and token totals
//! <root>/<cwd slug>/<uuid>.settings.json.bak   the previous save (never read)
//! ```
//! `<root>` is `~/.factory/sessions`. The transcript's path has Claude
//! Code's shape: a folder is Droid's when a `<uuid>.settings.json` lies in
//! it (Claude Code writes none), and its files are carried as Droid's. A
//! subagent is a pair of its own in the same folder whose first record
//! names the session that called it (`callingSessionId`): it is read as an
//! agent of that session (of the top of the chain), so the first line of
//! each transcript is read here.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::domain::corpus::kit::{
    Discovery, Entry, PlannedFile, SessionFiles, admit, is_session_uuid, list,
};
use crate::domain::corpus::kit::{Folders, Skip, SkipReason, places_none};
use crate::domain::transcript::{AgentLayout, FileRole, Format};

const SETTINGS: &str = ".settings.json";
/// The first record, `session_start`, is short: more than this is not it.
const FIRST_LINE: u64 = 64 << 10;

/// Whether a folder of a root is a Droid project's: it holds a session's
/// settings document, or (before the first is saved) a transcript that
/// opens with Droid's `session_start` record, which Claude Code never
/// writes.
pub(super) fn is_project(dir: &Entry) -> bool {
    let Ok(rd) = std::fs::read_dir(&dir.path) else {
        return false;
    };
    let mut transcript = None;
    for e in rd.flatten() {
        let Some(name) = e.file_name().to_str().map(str::to_string) else {
            continue;
        };
        if name.strip_suffix(SETTINGS).is_some_and(is_session_uuid) {
            return true;
        }
        if transcript.is_none() && name.strip_suffix(".jsonl").is_some_and(is_session_uuid) {
            transcript = Some(e.path());
        }
    }
    transcript.is_some_and(|p| first_record(&p).is_some())
}

#[derive(Deserialize)]
struct SessionStart {
    #[serde(rename = "type")]
    kind: String,
    #[serde(rename = "callingSessionId")]
    calling: Option<String>,
}

/// The transcript's first record, when it is Droid's `session_start` and
/// written whole (its line ended).
fn first_record(path: &std::path::Path) -> Option<SessionStart> {
    let head = crate::domain::corpus::kit::read_head(path, FIRST_LINE).ok()?;
    let end = memchr::memchr(b'\n', &head)?;
    serde_json::from_slice::<SessionStart>(&head[..end])
        .ok()
        .filter(|s| s.kind == "session_start")
}

/// One project's folder; with `only`, just that session's tree.
pub(super) fn walk_project(root_idx: usize, dir: &Entry, only: Option<&str>, into: &mut Discovery) {
    let found = sessions(dir, only.is_none(), &mut into.skips);
    // The top of each session's chain of callers in this folder.
    let top = |sid: &str| -> String {
        let mut at = sid.to_string();
        for _ in 0..found.len() {
            match found.get(&at).and_then(|(_, c)| c.as_ref()) {
                Some(c) if found.contains_key(c) => at = c.clone(),
                _ => break,
            }
        }
        at
    };
    let mut trees: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for sid in found.keys() {
        trees.entry(top(sid)).or_default().push(sid.clone());
    }
    for (root, members) in trees {
        if only.is_some_and(|o| o != root && !members.iter().any(|m| m == o)) {
            continue;
        }
        if into.sessions.contains_key(&root) {
            let rel = found[&root].0.rel.clone();
            into.skips
                .push(Skip::new(SkipReason::DuplicateSession, rel));
            continue;
        }
        let main = found[&root].0.clone();
        let agents = members
            .iter()
            .filter(|m| **m != root)
            .map(|m| {
                let mut f = found[m].0.clone();
                f.role = FileRole::Agent {
                    agent_id: m.clone(),
                    layout: AgentLayout::Thread,
                    workflow_id: None,
                };
                f
            })
            .collect();
        into.sessions.insert(
            root.clone(),
            SessionFiles {
                session_id: root,
                slug: dir.name.clone(),
                root: root_idx,
                main,
                agents,
                cwd_hint: None,
            },
        );
    }
}

/// Every session of a project's folder: its transcript (with its
/// settings as its sidecar) and the session that called it. Files that
/// are none of Droid's are skipped (`count_skips`: counted).
fn sessions(
    dir: &Entry,
    count_skips: bool,
    skips: &mut Vec<Skip>,
) -> BTreeMap<String, (PlannedFile, Option<String>)> {
    let files = list(&dir.path, &dir.name, skips);
    let mut found = BTreeMap::new();
    for f in files.iter() {
        let rel = format!("{}/{}", dir.name, f.name);
        let Some(sid) = f
            .name
            .strip_suffix(".jsonl")
            .filter(|s| is_session_uuid(s) && f.meta.is_file())
        else {
            // Its settings (and their previous save) are read with it.
            let settings = f.name.strip_suffix(SETTINGS).or_else(|| {
                f.name
                    .strip_suffix(".bak")
                    .and_then(|n| n.strip_suffix(SETTINGS))
            });
            if !settings.is_some_and(is_session_uuid) && count_skips {
                skips.push(Skip::new(SkipReason::NonArtifact, rel));
            }
            continue;
        };
        let Some(mut main) = admit(f, rel, FileRole::Main, skips) else {
            continue;
        };
        // Its first line not written whole yet: whose it is cannot be
        // told (a subagent's names its caller), so it waits for the next
        // run rather than be taken for a session of its own.
        let Some(first) = first_record(&f.path) else {
            continue;
        };
        main.format = Format::Droid;
        let name = format!("{sid}{SETTINGS}");
        main.sidecar = files
            .iter()
            .find(|s| s.name == name && s.meta.is_file())
            .map(|s| {
                (
                    format!("{}/{name}", dir.name),
                    s.path.clone(),
                    s.meta.len(),
                    crate::domain::corpus::kit::mtime_ns(&s.meta),
                )
            });
        let calling = first.calling.filter(|c| c != sid);
        found.insert(sid.to_string(), (main, calling));
    }
    found
}

/// Droid's project folders (`<cwd slug>/<uuid>.jsonl` beside its `.settings.json`).
pub static FIND: Folders = Folders {
    is: is_project,
    walk: |i, _, d, only, into| walk_project(i, d, only, into),
    place: places_none,
};
