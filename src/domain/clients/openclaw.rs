//! OpenClaw: `$OPENCLAW_STATE_DIR`, else `~/.openclaw`: each agent's
//! `agents/<agent>/agent/openclaw-agent.sqlite`.

use std::path::{Path, PathBuf};

use super::Client;
use crate::domain::transcript::Format;

pub static OPENCLAW: Client = Client {
    name: "openclaw",
    aliases: &[],
    label: "OpenClaw",
    format: Format::OpenClaw,
    roots,
    present: |p| !crate::domain::corpus::openclaw::databases_in(p).is_empty(),
    // Its state folder is its root.
    home: None,
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("OPENCLAW_STATE_DIR")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".openclaw")))
        .into_iter()
        .collect()
}
