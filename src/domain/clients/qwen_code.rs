//! Qwen Code: `~/.qwen/projects`.

use std::path::{Path, PathBuf};

use super::{Client, Home};
use crate::domain::transcript::Format;

pub static QWEN_CODE: Client = Client {
    name: "qwen-code",
    aliases: &["qwen"],
    label: "Qwen Code",
    format: Format::QwenCode,
    roots,
    present: Path::is_dir,
    home: Some(Home {
        name: ".qwen",
        marker: None,
        sessions: &["projects"],
    }),
};

fn roots(home: Option<&Path>, _env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    home.map(|h| vec![h.join(".qwen/projects")])
        .unwrap_or_default()
}
