//! The file system side of ingest: where transcripts are, in every layout,
//! read safely and fingerprinted from `lstat` alone.

mod discover;
mod read;
mod stores;

pub use discover::{Discovery, PlannedFile, SessionFiles, discover, discover_one};
pub use read::{
    Opened, ReadError, TAIL_CHECK, head_hash, open, read_head, read_into, read_more, tail_hash,
    unreadable,
};
pub use stores::{Database, SessionStore};

/// What a client's own walk and store are made of.
pub(crate) mod kit {
    pub(crate) use super::discover::{
        Discovery, Entry, PlannedFile, SessionFiles, admit, is_session_uuid, list, mtime_ns,
        walk_agents,
    };
    pub(crate) use super::read::read_head;
    pub(crate) use super::stores::{
        OpenStore, SessionStore, Tree, file_at, group_trees, open_database, tree_rows,
    };
    pub(crate) use super::{Folders, places_none};
    pub(crate) use super::{Skip, SkipReason};
}

/// Where a transcript's session is: the root to walk, the folder in it
/// (a project's slug, a Codex day), the session's id.
pub type Placed = (std::path::PathBuf, String, String);

/// Where a hook's transcript puts its session, by the layout of the
/// client it is in; `None` when it is in none but Claude Code's.
pub fn place(transcript: &Path) -> Option<Option<Placed>> {
    crate::domain::clients::ALL
        .iter()
        .find_map(|c| match c.finds {
            crate::domain::clients::Finds::Layout(l) => l.place(transcript),
            _ => None,
        })
}

/// A layout whose every session (or project of sessions) is one folder at
/// the top of a root: the test that a folder is one, its walk (with
/// `only`, that session), and where a hook's transcript puts its session
/// (`Layout::place`).
#[derive(Debug)]
pub struct Folders {
    pub is: fn(&discover::Entry) -> bool,
    pub walk: fn(usize, &Path, &discover::Entry, Option<&str>, &mut Discovery),
    pub place: fn(&Path) -> Option<Option<Placed>>,
}

/// A layout that places no transcript of its own (Claude Code's places it).
pub fn places_none(_: &Path) -> Option<Option<Placed>> {
    None
}

impl Layout for Folders {
    fn is(&self, dir: &discover::Entry) -> bool {
        (self.is)(dir)
    }

    fn walk(
        &self,
        root_idx: usize,
        root: &Path,
        dir: &discover::Entry,
        only: Option<&str>,
        into: &mut Discovery,
    ) {
        (self.walk)(root_idx, root, dir, only, into);
    }

    fn place(&self, transcript: &Path) -> Option<Option<Placed>> {
        (self.place)(transcript)
    }
}

/// How a client's sessions lie at the top of a root, in a layout of its
/// own (neither Claude Code's, nor a store).
pub trait Layout: Sync + std::fmt::Debug {
    /// Whether a folder at the top of a root is one of this client's.
    fn is(&self, dir: &discover::Entry) -> bool;

    /// Walks such a folder: every session in it; with `only`, just that
    /// one (the rest neither read nor counted as skipped).
    fn walk(
        &self,
        root_idx: usize,
        root: &Path,
        dir: &discover::Entry,
        only: Option<&str>,
        into: &mut Discovery,
    );

    /// Takes, from the entries at the top of a root, those of its own that
    /// are not one folder each (Codex's rollouts and its year folders), and
    /// walks them; the others are left to the other clients.
    fn claim(
        &self,
        _root_idx: usize,
        entries: Vec<discover::Entry>,
        _into: &mut Discovery,
    ) -> Vec<discover::Entry> {
        entries
    }

    /// Where a hook's transcript (a file of this client's layout) puts its
    /// session: the root to walk, the folder in it, the session's id.
    /// `None` when the file is not in this layout; `Some(None)` when it is
    /// and names no session.
    fn place(&self, _transcript: &Path) -> Option<Option<Placed>> {
        None
    }

    /// One session where a hook's transcript path puts it (`slug`, a
    /// folder relative to the root, and the session's id): `false` when
    /// the place is not this client's.
    fn walk_one(
        &self,
        root_idx: usize,
        root: &Path,
        (slug, sid): (&str, &str),
        into: &mut Discovery,
    ) -> bool {
        let Some(dir) = discover::Entry::dir_at(root, slug) else {
            return false;
        };
        if !self.is(&dir) {
            return false;
        }
        self.walk(root_idx, root, &dir, Some(sid), into);
        true
    }
}

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

impl Skip {
    /// A skip found by a walk (its root is set after the walk).
    pub fn new(reason: SkipReason, path: String) -> Skip {
        Skip {
            root: 0,
            reason,
            path,
        }
    }
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
