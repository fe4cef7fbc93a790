//! Hermes Agent: `$HERMES_HOME`, else `~/.hermes`: its `state.db`.

mod find;
pub mod hooks;
mod read;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Reads};
use crate::domain::transcript::Format;

pub static HERMES: Client = Client {
    name: "hermes",
    aliases: &["hermes-agent"],
    label: "Hermes Agent",
    format: Format::Hermes,
    roots,
    // Its home is its root.
    home: None,
    finds: Finds::Store(&find::Store),
    reads: Reads::rows(read::is_session),
    hooks: Some(&hooks::HOOKS),
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("HERMES_HOME")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".hermes")))
        .into_iter()
        .collect()
}
