//! Codex: `$CODEX_HOME/sessions` (else `~/.codex/sessions`) and the
//! archived rollouts beside it.

mod find;
pub(super) mod hooks;
mod read;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Home, Reads};
use crate::domain::transcript::Format;

pub static CODEX: Client = Client {
    name: "codex",
    aliases: &[],
    label: "Codex",
    format: Format::Codex,
    roots,
    home: Some(Home {
        name: ".codex",
        // A CODEX_HOME by another name.
        marker: Some("config.toml"),
        sessions: &["sessions", "archived_sessions"],
    }),
    finds: Finds::Layout(&find::Find),
    reads: Reads {
        said: Some(read::said),
        ..Reads::lines(read::is_rollout, read::parse_block)
    },
    hooks: Some(&hooks::HOOKS),
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    let base = env("CODEX_HOME")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".codex")));
    base.map(|b| vec![b.join("sessions"), b.join("archived_sessions")])
        .unwrap_or_default()
}
