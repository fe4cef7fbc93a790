//! Kilo (an OpenCode fork): its data folder (`$XDG_DATA_HOME/kilo`, else
//! `~/.local/share/kilo`), where its `kilo.db` holds OpenCode's tables.

use std::path::{Path, PathBuf};

use super::Client;
use crate::domain::transcript::Format;

pub static KILO: Client = Client {
    name: "kilo",
    aliases: &["kilo-code"],
    label: "Kilo",
    format: Format::Kilo,
    roots,
    present: |p| crate::domain::corpus::opencode::database_in(p).is_some(),
    home: None,
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    super::xdg_data(home, env)
        .map(|d| vec![d.join("kilo")])
        .unwrap_or_default()
}
