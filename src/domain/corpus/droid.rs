//! Factory Droid's sessions:
//!
//! ```text
//! <root>/<cwd slug>/<uuid>.jsonl               the transcript (no usage)
//! <root>/<cwd slug>/<uuid>.settings.json       its settings and token totals
//! <root>/<cwd slug>/<uuid>.settings.json.bak   the previous save (never read)
//! ```
//! `<root>` is `~/.factory/sessions`. The transcript's path has Claude
//! Code's shape: a folder is Droid's when a `<uuid>.settings.json` lies in
//! it (Claude Code writes none), and its files are carried as Droid's.

use super::discover::{Discovery, Entry, SessionFiles, admit, is_session_uuid, list};
use super::{Skip, SkipReason};
use crate::domain::transcript::{FileRole, Format};

const SETTINGS: &str = ".settings.json";

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
    transcript.is_some_and(|p| opens_as_droid(&p))
}

/// Whether the file at `path` begins with Droid's first record.
fn opens_as_droid(path: &std::path::Path) -> bool {
    const START: &[u8] = br#"{"type":"session_start""#;
    super::read::read_head(path, START.len() as u64).is_ok_and(|h| h == START)
}

/// One project's folder; with `only`, just that session.
pub(super) fn walk_project(root_idx: usize, dir: &Entry, only: Option<&str>, into: &mut Discovery) {
    let files = list(&dir.path, &dir.name, &mut into.skips);
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
            if !settings.is_some_and(is_session_uuid) && only.is_none() {
                into.skips.push(skip(SkipReason::NonArtifact, rel));
            }
            continue;
        };
        if only.is_some_and(|o| o != sid) {
            continue;
        }
        if into.sessions.contains_key(sid) {
            into.skips.push(skip(SkipReason::DuplicateSession, rel));
            continue;
        }
        let Some(mut main) = admit(f, rel, FileRole::Main, &mut into.skips) else {
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
                    super::discover::mtime_ns(&s.meta),
                )
            });
        into.sessions.insert(
            sid.to_string(),
            SessionFiles {
                session_id: sid.to_string(),
                slug: dir.name.clone(),
                root: root_idx,
                main,
                agents: Vec::new(),
                cwd_hint: None,
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
