//! Copilot CLI: `~/.copilot/session-state`.

use std::path::{Path, PathBuf};

use super::{Client, Home};
use crate::domain::transcript::Format;

pub static COPILOT: Client = Client {
    name: "copilot",
    aliases: &["copilot-cli"],
    label: "Copilot CLI",
    format: Format::CopilotCli,
    roots,
    present: Path::is_dir,
    home: Some(Home {
        name: ".copilot",
        marker: None,
        sessions: &["session-state"],
    }),
};

fn roots(home: Option<&Path>, _env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    home.map(|h| vec![h.join(".copilot/session-state")])
        .unwrap_or_default()
}
