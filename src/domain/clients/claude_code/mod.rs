//! Claude Code: `~/.claude/projects` (each comma-separated entry of
//! `CLAUDE_CONFIG_DIR`, else `~/.claude` and `~/.config/claude`).

pub(super) mod hooks;

use std::path::{Path, PathBuf};

use super::{Client, Finds, Home, Reads};
use crate::domain::transcript::Format;

pub static CLAUDE_CODE: Client = Client {
    name: "claude-code",
    aliases: &["claude"],
    label: "Claude Code",
    format: Format::ClaudeCode,
    roots,
    home: Some(Home {
        name: ".claude",
        marker: None,
        sessions: &["projects"],
    }),
    finds: Finds::Rest,
    reads: Reads {
        names: |_| true,
        lines: Some(crate::domain::transcript::kit::read_claude_code),
        rewritten_whole: |_| false,
        totals_beside: None,
        scans_apart: true,
        said: Some(crate::domain::transcript::said::claude_line),
    },
    hooks: Some(&hooks::HOOKS),
};

fn roots(home: Option<&Path>, env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    match env("CLAUDE_CONFIG_DIR") {
        Some(v) => v
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| Path::new(s).join("projects"))
            .collect(),
        None => home
            .map(|h| {
                vec![
                    h.join(".claude/projects"),
                    h.join(".config/claude/projects"),
                ]
            })
            .unwrap_or_default(),
    }
}
