//! The file system side of ingest: where transcripts are, in every layout,
//! read safely and fingerprinted from `lstat` alone.

mod codex;
mod copilot;
mod discover;
mod gemini;
pub mod opencode;
mod pi;
mod read;

pub use codex::thread_of;
pub use discover::{Discovery, PlannedFile, SessionFiles, discover, discover_one, fingerprint};
pub use gemini::session_of;
pub use read::{
    Opened, ReadError, TAIL_CHECK, head_hash, open, read_head, read_into, read_more, tail_hash,
    unreadable,
};

use std::path::{Path, PathBuf};

/// Why an entry of the corpus was not read. Every skip is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipReason {
    Symlink,
    Oversize,
    NotRegularFile,
    Unreadable,
    Empty,
    NonArtifact,
    DuplicateSession,
    BadName,
    /// A subagent transcript whose session has no main transcript under this root.
    OrphanAgent,
}

impl SkipReason {
    pub const ALL: [SkipReason; 9] = [
        SkipReason::Symlink,
        SkipReason::Oversize,
        SkipReason::NotRegularFile,
        SkipReason::Unreadable,
        SkipReason::Empty,
        SkipReason::NonArtifact,
        SkipReason::DuplicateSession,
        SkipReason::BadName,
        SkipReason::OrphanAgent,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::Symlink => "symlink",
            SkipReason::Oversize => "oversize",
            SkipReason::NotRegularFile => "not-regular-file",
            SkipReason::Unreadable => "unreadable",
            SkipReason::Empty => "empty",
            SkipReason::NonArtifact => "non-artifact",
            SkipReason::DuplicateSession => "duplicate-session",
            SkipReason::BadName => "bad-name",
            SkipReason::OrphanAgent => "orphan-agent",
        }
    }
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One skipped entry: why, and where (relative to its root).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip {
    /// Which root of the run (0-based).
    pub root: usize,
    pub reason: SkipReason,
    pub path: String,
}

/// The roots to read when the user gives none: `$CLAUDE_CONFIG_DIR/projects`
/// for each comma-separated entry, else `~/.claude/projects` and
/// `~/.config/claude/projects`; then Codex's `$CODEX_HOME/sessions`, else
/// `~/.codex/sessions`, and `archived_sessions` beside it; then Gemini CLI's `$GEMINI_CLI_HOME/.gemini/tmp`,
/// else `~/.gemini/tmp`; then Copilot CLI's `~/.copilot/session-state`;
/// then Qwen Code's `~/.qwen/projects`; then pi's
/// `$PI_CODING_AGENT_DIR/sessions`, else `~/.pi/agent/sessions`; then
/// OpenCode's `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode`,
/// where its `opencode.db` is; each only where it exists.
pub fn default_roots() -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let codex = match std::env::var_os("CODEX_HOME").filter(|v| !v.is_empty()) {
        Some(v) => Some(PathBuf::from(v).join("sessions")),
        None => home.as_ref().map(|h| h.join(".codex/sessions")),
    };
    let mut candidates: Vec<PathBuf> = match std::env::var("CLAUDE_CONFIG_DIR") {
        Ok(v) if !v.trim().is_empty() => v
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| Path::new(s).join("projects"))
            .collect(),
        _ => match &home {
            Some(home) => vec![
                home.join(".claude/projects"),
                home.join(".config/claude/projects"),
            ],
            None => Vec::new(),
        },
    };
    // Codex's archived rollouts sit beside its date tree.
    let archived = codex
        .as_ref()
        .and_then(|c| c.parent().map(|p| p.join("archived_sessions")));
    candidates.extend(codex);
    candidates.extend(archived);
    let gemini = std::env::var_os("GEMINI_CLI_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or(home.clone())
        .map(|h| h.join(".gemini/tmp"));
    candidates.extend(gemini);
    // Copilot CLI's sessions.
    candidates.extend(home.as_ref().map(|h| h.join(".copilot/session-state")));
    // Qwen Code's projects.
    candidates.extend(home.as_ref().map(|h| h.join(".qwen/projects")));
    // pi's agent folder (its own `PI_CODING_AGENT_DIR`, as pi reads it).
    let pi = match std::env::var_os("PI_CODING_AGENT_DIR").filter(|v| !v.is_empty()) {
        Some(v) => Some(PathBuf::from(v).join("sessions")),
        None => home.map(|h| h.join(".pi/agent/sessions")),
    };
    candidates.extend(pi);
    // OpenCode's data folder (`$XDG_DATA_HOME/opencode`, as OpenCode reads
    // it), where its database is.
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")));
    candidates.extend(
        data.map(|d| d.join("opencode"))
            .filter(|d| opencode::database_in(d).is_some()),
    );
    candidates.into_iter().filter(|p| p.is_dir()).collect()
}

/// The folders of a client's own home given as a root (`~/.codex`, not
/// `~/.codex/sessions`): where that client keeps its sessions, those of
/// them that exist; `None` for any other folder, read as it is.
pub fn client_home_roots(root: &Path) -> Option<Vec<PathBuf>> {
    let name = root.file_name()?.to_str()?;
    let subs: &[&str] = match name {
        ".claude" => &["projects"],
        ".codex" => &["sessions", "archived_sessions"],
        ".gemini" => &["tmp"],
        ".qwen" => &["projects"],
        ".copilot" => &["session-state"],
        ".pi" => &["agent/sessions"],
        // A CODEX_HOME by another name.
        _ if root.join("config.toml").is_file() && root.join("sessions").is_dir() => {
            &["sessions", "archived_sessions"]
        }
        _ => return None,
    };
    let found: Vec<PathBuf> = subs
        .iter()
        .map(|s| root.join(s))
        .filter(|p| p.is_dir())
        .collect();
    (!found.is_empty()).then_some(found)
}

/// A stable, path-free label of a root: hex SHA-256 of its canonical path.
pub fn scope_of(root: &Path) -> String {
    use sha2::{Digest, Sha256};
    let h = Sha256::digest(root.as_os_str().as_encoded_bytes());
    h.iter().take(16).map(|b| format!("{b:02x}")).collect()
}
