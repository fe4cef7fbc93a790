//! Mistral Vibe: `$VIBE_HOME/logs/session/unified`, else
//! `~/.vibe/logs/session/unified`: a folder per session.

use std::path::{Path, PathBuf};

use super::{Client, Home};
use crate::domain::transcript::Format;

pub static VIBE: Client = Client {
    name: "vibe",
    aliases: &["mistral-vibe"],
    label: "Mistral Vibe",
    format: Format::Vibe,
    roots,
    present: Path::is_dir,
    home: Some(Home {
        name: ".vibe",
        marker: None,
        sessions: &["logs/session/unified"],
    }),
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("VIBE_HOME")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".vibe")))
        .map(|d| vec![d.join("logs/session/unified")])
        .unwrap_or_default()
}
