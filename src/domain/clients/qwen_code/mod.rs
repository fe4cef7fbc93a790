//! Qwen Code: `~/.qwen/projects`.

pub(super) mod hooks;
mod read;
use std::path::{Path, PathBuf};

use super::{Client, Finds, Home, Reads};
use crate::domain::transcript::Format;

pub static QWEN_CODE: Client = Client {
    name: "qwen-code",
    aliases: &["qwen"],
    label: "Qwen Code",
    format: Format::QwenCode,
    roots,
    home: Some(Home {
        name: ".qwen",
        marker: None,
        sessions: &["projects"],
    }),
    finds: Finds::Parent(&super::GEMINI),
    reads: Reads {
        // Its lines have Claude Code's shape.
        said: Some(crate::domain::transcript::said::claude_line),
        ..Reads::lines(
            |rel| read::is_session(rel) || read::is_agent(rel),
            read::parse_block,
        )
    },
    hooks: Some(&hooks::HOOKS),
};

fn roots(home: Option<&Path>, _env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    home.map(|h| vec![h.join(".qwen/projects")])
        .unwrap_or_default()
}
