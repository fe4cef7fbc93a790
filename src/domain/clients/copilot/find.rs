//! Copilot CLI's sessions:
//!
//! ```text
//! <root>/<session uuid>/events.jsonl     the session's events
//! ```
//! `<root>` is `~/.copilot/session-state`. The folder's other files
//! (`workspace.yaml`, checkpoints, file snapshots, locks) are not read.

use crate::domain::corpus::kit::{Discovery, SessionFiles};
use crate::domain::corpus::kit::{Entry, admit, is_session_uuid};
use crate::domain::corpus::kit::{Folders, Skip, SkipReason, places_none};
use crate::domain::transcript::FileRole;

/// Whether a folder of a root is a Copilot CLI session folder.
pub(super) fn is_session_dir(dir: &Entry) -> bool {
    is_session_uuid(&dir.name)
        && std::fs::symlink_metadata(dir.path.join("events.jsonl")).is_ok_and(|m| m.is_file())
}

/// One session folder.
pub(super) fn walk_session(root_idx: usize, dir: &Entry, into: &mut Discovery) {
    let rel = format!("{}/events.jsonl", dir.name);
    if into.sessions.contains_key(&dir.name) {
        into.skips.push(Skip {
            root: 0,
            reason: SkipReason::DuplicateSession,
            path: rel,
        });
        return;
    }
    let path = dir.path.join("events.jsonl");
    let Ok(meta) = std::fs::symlink_metadata(&path) else {
        return;
    };
    let e = Entry {
        name: "events.jsonl".into(),
        path,
        meta,
    };
    let Some(main) = admit(&e, rel, FileRole::Main, &mut into.skips) else {
        return;
    };
    into.sessions.insert(
        dir.name.clone(),
        SessionFiles {
            session_id: dir.name.clone(),
            slug: dir.name.clone(),
            root: root_idx,
            main,
            agents: Vec::new(),
            cwd_hint: None,
        },
    );
}

/// Copilot CLI's session folders (`<uuid>/events.jsonl`).
pub static FIND: Folders = Folders {
    is: is_session_dir,
    walk: |i, _, d, _, into| walk_session(i, d, into),
    place: places_none,
};
