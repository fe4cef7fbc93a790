//! Cline (its CLI): `$CLINE_DATA_DIR/sessions`, else
//! `~/.cline/data/sessions`: `<id>/<id>.messages.json` and its subagents'.

mod find;
pub mod hooks;
mod read;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Home, Reads};
use crate::domain::transcript::Format;

pub static CLINE: Client = Client {
    name: "cline",
    aliases: &[],
    label: "Cline",
    format: Format::Cline,
    roots,
    home: Some(Home {
        name: ".cline",
        marker: None,
        sessions: &["data/sessions"],
    }),
    finds: Finds::Layout(&find::FIND),
    reads: Reads {
        rewritten_whole: |_| true,
        ..Reads::lines(read::is_document, read::parse_block)
    },
    hooks: Some(&hooks::HOOKS),
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("CLINE_DATA_DIR")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".cline/data")))
        .map(|d| vec![d.join("sessions")])
        .unwrap_or_default()
}
