//! pi's sessions:
//!
//! ```text
//! <root>/--<cwd, / as ->--/<time>_<session uuid>.jsonl
//! ```
//! `<root>` is `~/.pi/agent/sessions` (`$PI_CODING_AGENT_DIR/sessions`). pi
//! runs no subagents of its own: a session is one file.

use crate::domain::corpus::kit::{Discovery, SessionFiles};
use crate::domain::corpus::kit::{Entry, admit, list};
use crate::domain::corpus::kit::{Folders, Skip, SkipReason, places_none};
use crate::domain::transcript::FileRole;

/// Whether a folder of a root is a pi project folder (`--<cwd>--`).
pub(super) fn is_project(dir: &Entry) -> bool {
    dir.name.len() >= 4 && dir.name.starts_with("--") && dir.name.ends_with("--")
}

/// One project folder; with `only`, just that session.
pub(super) fn walk_project(
    root_idx: usize,
    project: &Entry,
    only: Option<&str>,
    into: &mut Discovery,
) {
    for e in list(&project.path, &project.name, &mut into.skips) {
        let rel = format!("{}/{}", project.name, e.name);
        let sid = super::read::session_of_name(&e.name).filter(|_| e.meta.is_file());
        let Some(sid) = sid else {
            if only.is_none() {
                into.skips.push(Skip::new(SkipReason::NonArtifact, rel));
            }
            continue;
        };
        if only.is_some_and(|o| o != sid) {
            continue;
        }
        if into.sessions.contains_key(sid) {
            into.skips
                .push(Skip::new(SkipReason::DuplicateSession, rel));
            continue;
        }
        let Some(main) = admit(&e, rel, FileRole::Main, &mut into.skips) else {
            continue;
        };
        into.sessions.insert(
            sid.to_string(),
            SessionFiles {
                session_id: sid.to_string(),
                slug: project.name.clone(),
                root: root_idx,
                main,
                agents: Vec::new(),
                cwd_hint: None,
            },
        );
    }
}

/// pi's project folders (`--<cwd>--/<time>_<uuid>.jsonl`).
pub static FIND: Folders = Folders {
    is: is_project,
    walk: |i, _, d, only, into| walk_project(i, d, only, into),
    place: places_none,
};
