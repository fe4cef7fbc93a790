//! Mistral Vibe: `$VIBE_HOME/logs/session/unified`, else
//! `~/.vibe/logs/session/unified`: a folder per session.

mod find;
mod read;
mod said;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Home, Reads};
use crate::domain::transcript::Format;

pub static VIBE: Client = Client {
    name: "vibe",
    aliases: &["mistral-vibe"],
    label: "Mistral Vibe",
    format: Format::Vibe,
    roots,
    home: Some(Home {
        name: ".vibe",
        marker: None,
        sessions: &["logs/session/unified"],
    }),
    finds: Finds::Store(&find::Store),
    reads: Reads::rows(read::is_session),
    hooks: None,
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("VIBE_HOME")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".vibe")))
        .map(|d| vec![d.join("logs/session/unified")])
        .unwrap_or_default()
}
