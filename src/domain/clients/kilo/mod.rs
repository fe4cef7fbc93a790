//! Kilo (an OpenCode fork): its data folder (`$XDG_DATA_HOME/kilo`, else
//! `~/.local/share/kilo`), where its `kilo.db` holds OpenCode's tables.

use std::path::{Path, PathBuf};

use super::{Client, Finds, Reads};
use crate::domain::transcript::Format;

pub static KILO: Client = Client {
    name: "kilo",
    aliases: &["kilo-code"],
    label: "Kilo",
    format: Format::Kilo,
    roots,
    home: None,
    finds: Finds::Store(&STORE),
    reads: Reads::rows(is_session),
    hooks: Some(&HOOKS),
};

/// OpenCode's plugin, in `$XDG_CONFIG_HOME/kilo/plugin` (a project's
/// `.kilo/plugin`).
static HOOKS: crate::domain::harness::Hooks = super::opencode::hooks::plugin_hooks(
    ("kilo", &["kilo-code"], "Kilo", "kl"),
    |home, env| super::opencode::hooks::config_home(home, env).join("kilo"),
    ".kilo/plugin",
    &["kilo"],
    |handlers| super::opencode::hooks::plugin("Kilo", handlers),
    crate::domain::harness::McpServers {
        file: |home, env| super::opencode::hooks::config_home(home, env).join("kilo/kilo.json"),
        key: "mcp",
        form: crate::domain::harness::McpForm::Json,
        entry: super::opencode::hooks::local_server,
    },
);

/// Its database: OpenCode's tables in a file of its own name.
static STORE: super::opencode::Store = super::opencode::Store {
    database: DATABASE,
    storage: None,
};

/// Its database's name: its sessions are `kilo.db#<id>`.
const DATABASE: &str = "kilo.db";

fn is_session(rel: &str) -> bool {
    crate::domain::transcript::names_stored_session(rel, DATABASE)
}

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    super::xdg_data(home, env)
        .map(|d| vec![d.join("kilo")])
        .unwrap_or_default()
}
