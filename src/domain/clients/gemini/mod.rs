//! Gemini CLI: `$GEMINI_CLI_HOME/.gemini/tmp`, else `~/.gemini/tmp`.

mod find;
pub(super) mod hooks;
mod read;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Home, Reads};
use crate::domain::transcript::Format;

pub static GEMINI: Client = Client {
    name: "gemini",
    aliases: &["gemini-cli"],
    label: "Gemini CLI",
    format: Format::GeminiCli,
    roots,
    home: Some(Home {
        name: ".gemini",
        marker: None,
        sessions: &["tmp"],
    }),
    finds: Finds::Layout(&find::FIND),
    reads: Reads {
        rewritten_whole: read::is_legacy,
        said: Some(read::said),
        ..Reads::lines(read::is_chat, read::parse_block)
    },
    hooks: Some(&hooks::HOOKS),
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("GEMINI_CLI_HOME")
        .map(PathBuf::from)
        .or_else(|| home.map(Path::to_path_buf))
        .map(|h| vec![h.join(".gemini/tmp")])
        .unwrap_or_default()
}
