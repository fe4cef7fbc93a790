//! Hermes Agent: `$HERMES_HOME`, else `~/.hermes`: its `state.db`.

use std::path::{Path, PathBuf};

use super::Client;
use crate::domain::transcript::Format;

pub static HERMES: Client = Client {
    name: "hermes",
    aliases: &["hermes-agent"],
    label: "Hermes Agent",
    format: Format::Hermes,
    roots,
    present: |p| crate::domain::corpus::hermes::database_in(p).is_some(),
    // Its home is its root.
    home: None,
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("HERMES_HOME")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".hermes")))
        .into_iter()
        .collect()
}
