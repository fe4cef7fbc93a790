//! Copilot CLI: `~/.copilot/session-state`.

mod find;
pub(super) mod hooks;
mod read;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Home, Reads};
use crate::domain::transcript::Format;

pub static COPILOT: Client = Client {
    name: "copilot",
    aliases: &["copilot-cli"],
    label: "Copilot CLI",
    format: Format::CopilotCli,
    roots,
    home: Some(Home {
        name: ".copilot",
        marker: None,
        sessions: &["session-state"],
    }),
    finds: Finds::Layout(&find::FIND),
    reads: Reads {
        said: Some(read::said),
        ..Reads::lines(read::is_session, read::parse_block)
    },
    hooks: Some(&hooks::HOOKS),
};

fn roots(home: Option<&Path>, _env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    home.map(|h| vec![h.join(".copilot/session-state")])
        .unwrap_or_default()
}
