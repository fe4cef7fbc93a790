//! The file system side of ingest: where transcripts are, in every layout,
//! read safely and fingerprinted from `lstat` alone.

mod cline;
mod codex;
mod copilot;
mod discover;
mod droid;
mod gemini;
pub mod hermes;
mod kimi;
pub mod openclaw;
pub mod opencode;
mod pi;
mod read;
mod stores;
pub mod vibe;

pub use codex::thread_of;
pub use discover::{Discovery, PlannedFile, SessionFiles, discover, discover_one};
pub use gemini::session_of;
pub use read::{
    Opened, ReadError, TAIL_CHECK, head_hash, open, read_head, read_into, read_more, tail_hash,
    unreadable,
};

use std::path::Path;

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

/// A stable, path-free label of a root: hex SHA-256 of its canonical path.
pub fn scope_of(root: &Path) -> String {
    use sha2::{Digest, Sha256};
    let h = Sha256::digest(root.as_os_str().as_encoded_bytes());
    h.iter().take(16).map(|b| format!("{b:02x}")).collect()
}

/// The session's fingerprint: every file's path, size and mtime (no content),
/// plus the parser revision. Any change means the session is read again.
pub fn fingerprint(s: &SessionFiles) -> String {
    use crate::domain::transcript::PARSER_REVISION;
    use sha2::{Digest, Sha256};
    let mut parts: Vec<String> = Vec::with_capacity(1 + 2 * s.agents.len());
    let mut push =
        |rel: &str, size: u64, mtime: i128| parts.push(format!("{rel}\t{size}\t{mtime}"));
    for f in std::iter::once(&s.main).chain(&s.agents) {
        push(&f.rel, f.size, f.mtime_ns);
        if let Some((rel, _, size, mtime)) = &f.sidecar {
            push(rel, *size, *mtime);
        }
    }
    parts.sort();
    let mut h = Sha256::new();
    h.update(format!("rev{PARSER_REVISION}\n"));
    for p in &parts {
        h.update(p.as_bytes());
        h.update(b"\n");
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
