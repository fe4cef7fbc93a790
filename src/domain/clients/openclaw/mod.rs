//! OpenClaw: `$OPENCLAW_STATE_DIR`, else `~/.openclaw`: each agent's
//! `agents/<agent>/agent/openclaw-agent.sqlite`.

mod find;
mod read;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Reads};
use crate::domain::transcript::Format;

pub static OPENCLAW: Client = Client {
    name: "openclaw",
    aliases: &[],
    label: "OpenClaw",
    format: Format::OpenClaw,
    roots,
    // Its state folder is its root.
    home: None,
    finds: Finds::Store(&find::Store),
    reads: Reads {
        // Its entries are pi's, kept as rows.
        lines: Some(super::pi::read_entries),
        said: Some(crate::domain::transcript::said::role_message_line),
        ..Reads::rows(read::is_session)
    },
    hooks: None,
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("OPENCLAW_STATE_DIR")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".openclaw")))
        .into_iter()
        .collect()
}
