//! Gemini CLI: `$GEMINI_CLI_HOME/.gemini/tmp`, else `~/.gemini/tmp`.

use std::path::{Path, PathBuf};

use super::{Client, Home};
use crate::domain::transcript::Format;

pub static GEMINI: Client = Client {
    name: "gemini",
    aliases: &["gemini-cli"],
    label: "Gemini CLI",
    format: Format::GeminiCli,
    roots,
    present: Path::is_dir,
    home: Some(Home {
        name: ".gemini",
        marker: None,
        sessions: &["tmp"],
    }),
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    env("GEMINI_CLI_HOME")
        .map(PathBuf::from)
        .or_else(|| home.map(Path::to_path_buf))
        .map(|h| vec![h.join(".gemini/tmp")])
        .unwrap_or_default()
}
