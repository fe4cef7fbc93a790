//! Kimi CLI's sessions:
//!
//! ```text
//! <root>/<md5 of the work dir>/<session uuid>/wire.jsonl                  main
//! <root>/<md5 of the work dir>/<session uuid>/subagents/<id>/wire.jsonl   a subagent
//! ```
//! `<root>` is `~/.kimi/sessions` (`$KIMI_SHARE_DIR/sessions`); a work
//! folder on another machine kind is `<kaos>_<md5>`. The work folder's path
//! is in `kimi.json` beside the root (`work_dirs[].path`): its MD5 names the
//! folder. `context.jsonl` and `state.json` hold no usage.

use std::collections::HashMap;
use std::path::Path;

use md5::{Digest, Md5};

use crate::domain::corpus::kit::{Discovery, PlannedFile, SessionFiles};
use crate::domain::corpus::kit::{Entry, admit, list};
use crate::domain::corpus::kit::{Folders, Skip, SkipReason, places_none};
use crate::domain::transcript::{AgentLayout, FileRole, uuid_like};

/// Whether a folder of a root is a Kimi CLI work folder: the MD5 of its
/// path, in lowercase hex (after a `<kaos>_` prefix off the local machine).
pub(super) fn is_work_dir(dir: &Entry) -> bool {
    let md5 = dir.name.rsplit('_').next().unwrap_or(&dir.name);
    md5.len() == 32
        && md5
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// The work folders `kimi.json` beside `root` names, by their folder name.
fn work_dirs(root: &Path) -> HashMap<String, String> {
    let Some(file) = root.parent().map(|p| p.join("kimi.json")) else {
        return HashMap::new();
    };
    let Ok(Some(text)) = crate::domain::confined::read_linked_text(&file, 4 << 20) else {
        return HashMap::new();
    };
    let Ok(doc) = serde_json::from_str::<serde_json::Value>(&text) else {
        return HashMap::new();
    };
    let mut out = HashMap::new();
    for wd in doc["work_dirs"].as_array().into_iter().flatten() {
        let Some(path) = wd["path"].as_str() else {
            continue;
        };
        let md5: String = Md5::digest(path.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let name = match wd["kaos"].as_str() {
            Some(k) if k != "local" => format!("{k}_{md5}"),
            _ => md5,
        };
        out.insert(name, path.to_string());
    }
    out
}

/// One work folder; with `only`, just that session.
pub(super) fn walk_work_dir(
    root_idx: usize,
    root: &Path,
    dir: &Entry,
    only: Option<&str>,
    into: &mut Discovery,
) {
    let cwd = work_dirs(root).remove(&dir.name);
    for s in list(&dir.path, &dir.name, &mut into.skips) {
        let rel = format!("{}/{}", dir.name, s.name);
        if !s.meta.is_dir() || !uuid_like(&s.name) {
            if only.is_none() {
                into.skips.push(Skip::new(SkipReason::NonArtifact, rel));
            }
            continue;
        }
        if only.is_some_and(|o| o != s.name) {
            continue;
        }
        if into.sessions.contains_key(&s.name) {
            into.skips
                .push(Skip::new(SkipReason::DuplicateSession, rel));
            continue;
        }
        let files = list(&s.path, &rel, &mut into.skips);
        let Some(wire) = files
            .iter()
            .find(|f| f.name == "wire.jsonl" && f.meta.is_file())
        else {
            into.skips.push(Skip::new(SkipReason::NonArtifact, rel));
            continue;
        };
        let Some(main) = admit(
            wire,
            format!("{rel}/wire.jsonl"),
            FileRole::Main,
            &mut into.skips,
        ) else {
            continue;
        };
        let agents = files
            .iter()
            .find(|f| f.name == "subagents" && f.meta.is_dir())
            .map(|subs| subagents(subs, &format!("{rel}/subagents"), &mut into.skips))
            .unwrap_or_default();
        into.sessions.insert(
            s.name.clone(),
            SessionFiles {
                session_id: s.name.clone(),
                slug: dir.name.clone(),
                root: root_idx,
                main,
                agents,
                cwd_hint: cwd.clone(),
            },
        );
    }
}

/// The subagents' wires of a session's `subagents/` folder (`subs`, at
/// `rel`): `<id>/wire.jsonl`, each an agent of the session.
fn subagents(subs: &Entry, rel: &str, skips: &mut Vec<Skip>) -> Vec<PlannedFile> {
    let mut agents = Vec::new();
    for a in list(&subs.path, rel, skips) {
        let a_rel = format!("{rel}/{}", a.name);
        let wire = a.path.join("wire.jsonl");
        let entry = a.meta.is_dir().then(|| {
            std::fs::symlink_metadata(&wire)
                .ok()
                .filter(std::fs::Metadata::is_file)
                .map(|meta| Entry {
                    name: "wire.jsonl".into(),
                    path: wire.clone(),
                    meta,
                })
        });
        let Some(Some(entry)) = entry else {
            skips.push(Skip::new(SkipReason::NonArtifact, a_rel));
            continue;
        };
        let role = FileRole::Agent {
            agent_id: a.name.clone(),
            layout: AgentLayout::Nested,
            workflow_id: None,
        };
        agents.extend(admit(&entry, format!("{a_rel}/wire.jsonl"), role, skips));
    }
    agents
}

/// Kimi CLI's work-directory folders (`<md5 of the work dir>/<uuid>/wire.jsonl`).
pub static FIND: Folders = Folders {
    is: is_work_dir,
    walk: walk_work_dir,
    place: places_none,
};
