//! Factory Droid: `~/.factory/sessions`: `<cwd slug>/<uuid>.jsonl` and the
//! `<uuid>.settings.json` holding its token totals.

mod find;
pub(super) mod hooks;
mod read;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Home, Reads};
use crate::domain::transcript::Format;

pub static DROID: Client = Client {
    name: "droid",
    aliases: &["factory-droid"],
    label: "Factory Droid",
    format: Format::Droid,
    roots,
    home: Some(Home {
        name: ".factory",
        marker: None,
        sessions: &["sessions"],
    }),
    finds: Finds::Layout(&find::FIND),
    reads: Reads {
        totals_beside: Some(read::read_settings),
        said: Some(crate::domain::transcript::said::role_message_line),
        ..Reads::lines(|_| false, read::parse_block)
    },
    hooks: Some(&hooks::HOOKS),
};

fn roots(home: Option<&Path>, _env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    home.map(|h| vec![h.join(".factory/sessions")])
        .unwrap_or_default()
}
