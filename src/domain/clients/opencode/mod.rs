//! OpenCode: its data folder (`$XDG_DATA_HOME/opencode`, else
//! `~/.local/share/opencode`, as OpenCode reads it), where its database
//! is; read only where the database is there.

mod find;
pub mod hooks;
mod read;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Reads};
use crate::domain::transcript::Format;

pub use find::Store;

pub static OPENCODE: Client = Client {
    name: "opencode",
    aliases: &[],
    label: "OpenCode",
    format: Format::OpenCode,
    roots,
    home: None,
    finds: Finds::Store(&find::STORE),
    reads: Reads::rows(read::is_session),
    hooks: Some(&hooks::HOOKS),
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    super::xdg_data(home, env)
        .map(|d| vec![d.join("opencode")])
        .unwrap_or_default()
}
