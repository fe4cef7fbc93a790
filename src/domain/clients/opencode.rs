//! OpenCode: its data folder (`$XDG_DATA_HOME/opencode`, else
//! `~/.local/share/opencode`, as OpenCode reads it), where its database
//! is; read only where the database is there.

use std::path::{Path, PathBuf};

use super::Client;
use crate::domain::transcript::Format;

pub static OPENCODE: Client = Client {
    name: "opencode",
    aliases: &[],
    label: "OpenCode",
    format: Format::OpenCode,
    roots,
    present: |p| crate::domain::corpus::opencode::database_in(p).is_some(),
    home: None,
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    super::xdg_data(home, env)
        .map(|d| vec![d.join("opencode")])
        .unwrap_or_default()
}
