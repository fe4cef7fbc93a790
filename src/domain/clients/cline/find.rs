//! Cline's sessions:
//!
//! ```text
//! <root>/<id>/<id>.messages.json          the lead agent (one JSON document)
//! <root>/<id>/agent_<a>.messages.json     each subagent
//! <root>/<id>/<id>.json                   the manifest: cwd, status, running totals
//! ```
//! `<root>` is `~/.cline/data/sessions` (`$CLINE_DATA_DIR/sessions`); `<id>`
//! is `<epoch ms>_<five characters>`. The manifest's working directory
//! names the project; its totals are not read (the messages are).

use super::read::is_session_id as is_cline_session_id;
use crate::domain::corpus::kit::{Discovery, SessionFiles};
use crate::domain::corpus::kit::{Entry, admit, list};
use crate::domain::corpus::kit::{Folders, Skip, SkipReason, places_none};
use crate::domain::transcript::{AgentLayout, FileRole};

/// Whether a folder of a root is a Cline session's.
pub(super) fn is_session_dir(dir: &Entry) -> bool {
    is_cline_session_id(&dir.name)
}

/// One session's folder.
pub(super) fn walk_session(root_idx: usize, dir: &Entry, into: &mut Discovery) {
    let sid = dir.name.clone();
    if into.sessions.contains_key(&sid) {
        into.skips
            .push(Skip::new(SkipReason::DuplicateSession, sid));
        return;
    }
    let files = list(&dir.path, &sid, &mut into.skips);
    let lead = format!("{sid}.messages.json");
    let Some(main) = files
        .iter()
        .find(|f| f.name == lead && f.meta.is_file())
        .and_then(|f| admit(f, format!("{sid}/{lead}"), FileRole::Main, &mut into.skips))
    else {
        into.skips.push(Skip::new(SkipReason::NonArtifact, sid));
        return;
    };
    let mut agents = Vec::new();
    for f in files.iter().filter(|f| f.meta.is_file()) {
        let Some(agent) = f
            .name
            .strip_prefix("agent_")
            .and_then(|n| n.strip_suffix(".messages.json"))
            .filter(|a| !a.is_empty())
        else {
            continue;
        };
        let role = FileRole::Agent {
            agent_id: agent.to_string(),
            // Filed in its session's folder, under its lead.
            layout: AgentLayout::Chat,
            workflow_id: None,
        };
        agents.extend(admit(f, format!("{sid}/{}", f.name), role, &mut into.skips));
    }
    let cwd =
        crate::domain::confined::read_linked_text(&dir.path.join(format!("{sid}.json")), 4 << 20)
            .ok()
            .flatten()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .and_then(|v| v["cwd"].as_str().map(str::to_string));
    into.sessions.insert(
        sid.clone(),
        SessionFiles {
            session_id: sid.clone(),
            slug: sid,
            root: root_idx,
            main,
            agents,
            cwd_hint: cwd,
        },
    );
}

/// Cline's session folders (`<id>/<id>.messages.json`).
pub static FIND: Folders = Folders {
    is: is_session_dir,
    walk: |i, _, d, _, into| walk_session(i, d, into),
    place: places_none,
};
