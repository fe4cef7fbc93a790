//! Kimi CLI: `$KIMI_SHARE_DIR/sessions`, else `~/.kimi/sessions` (as Kimi
//! reads its own variable): `<md5 of the work dir>/<session>/wire.jsonl`.

mod find;
pub mod hooks;
mod read;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Home, Reads};
use crate::domain::transcript::Format;

pub static KIMI: Client = Client {
    name: "kimi",
    aliases: &["kimi-cli"],
    label: "Kimi CLI",
    format: Format::KimiCli,
    roots,
    home: Some(Home {
        name: ".kimi",
        marker: None,
        sessions: &["sessions"],
    }),
    finds: Finds::Layout(&find::FIND),
    reads: Reads {
        said: Some(read::said),
        ..Reads::lines(read::is_wire, read::parse_block)
    },
    hooks: Some(&hooks::HOOKS),
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("KIMI_SHARE_DIR")
        .map(PathBuf::from)
        .or_else(|| home.map(|h| h.join(".kimi")))
        .map(|d| vec![d.join("sessions")])
        .unwrap_or_default()
}
