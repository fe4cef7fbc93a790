//! What reading a session hands on (its parts, its failure, the events
//! for the progress line) and what a later read resumes from (each file's
//! mark, checked before it is trusted).
use crate::domain::corpus::{self, SessionFiles, Skip};
use crate::domain::transcript::{BadLine, ParsedSession, SpareCores};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Where one file was read to, and what identifies it: a later run goes on
/// from `offset` only if the file is the same (device, inode) and the
/// `TAIL_CHECK` bytes before `offset` hash the same.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    pub rel: String,
    pub dev: u64,
    pub ino: u64,
    pub offset: u64,
    /// Hashes of the `TAIL_CHECK` bytes before `offset` and of the file's first ones.
    pub tail: String,
    pub head: String,
    /// Size and mtime the walk saw for the file and its sidecar when it was
    /// read: while they stand, the file is neither checked nor opened.
    pub seen: Seen,
}

/// A file's (and its sidecar's) size and mtime, as the walk saw them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    pub size: u64,
    pub mtime_ns: i128,
    pub sidecar: Option<(u64, i128)>,
}

impl Seen {
    pub(super) fn of(f: &corpus::PlannedFile) -> Seen {
        Seen {
            size: f.size,
            mtime_ns: f.mtime_ns,
            sidecar: f
                .sidecar
                .as_ref()
                .map(|(_, _, size, mtime)| (*size, *mtime)),
        }
    }
}

/// What is kept of a session to read on from where the last run stopped.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ResumeState {
    pub session: ParsedSession,
    pub marks: Vec<Mark>,
}

impl ResumeState {
    /// Bytes a resumed read of `files` would read: what each changed file
    /// holds past its mark (all of a file the state does not know).
    pub fn to_read(&self, files: &SessionFiles) -> u64 {
        std::iter::once(&files.main)
            .chain(files.agents.iter())
            .map(|f| match self.marks.iter().find(|m| m.rel == f.rel) {
                Some(m) if m.seen == Seen::of(f) => 0,
                Some(m) => f.size.saturating_sub(m.offset),
                None => f.size,
            })
            .sum()
    }
}

/// A part of a session, ready for the writer.
pub struct Part {
    pub parsed: Box<ParsedSession>,
    /// The `ResumeState` after this part, serialized.
    pub state: String,
    /// The session's last part: its checkpoint can be written.
    pub last: bool,
    /// Building the index: its texts packed on the thread that read it.
    pub packed: Option<crate::store::said::Prepacked>,
}

/// Why a session could not be ingested; `strict` when `--strict` made it fail.
#[derive(Debug)]
pub struct Failure {
    pub reason: String,
    pub strict: bool,
}

impl Failure {
    pub(super) fn strict(b: &BadLine) -> Failure {
        let reason = if b.line == 0 {
            format!("--strict: {}: {}", b.file, b.reason)
        } else {
            format!("--strict: {}:{}: {}", b.file, b.line, b.reason)
        };
        Failure {
            reason,
            strict: true,
        }
    }
}

/// What reading a session hands on, in order: parts, or one failure that
/// ends it; with the skips and byte counts of the reading so far.
pub struct Event {
    pub result: Result<Part, Failure>,
    pub skips: Vec<Skip>,
    pub bytes: u64,
}

impl Event {
    /// Messages the event carries (what it holds in memory, roughly).
    pub fn messages(&self) -> usize {
        self.result.as_ref().map_or(0, |p| p.parsed.usage.len())
    }

    /// Bytes of what the event's records say (for the search index).
    pub fn said_bytes(&self) -> u64 {
        self.result.as_ref().map_or(0, |p| {
            p.parsed
                .said
                .iter()
                .flat_map(|s| &s.pieces)
                .map(|x| x.text.len() as u64)
                .sum()
        })
    }
}

/// The buffers a worker reuses from file to file: one block of lines and one
/// sidecar in memory at a time.
#[derive(Default)]
pub struct Buffers {
    pub(super) file: Vec<u8>,
    pub(super) meta: Vec<u8>,
    /// The run's spare cores, which a large block may borrow.
    pub(super) spare: Option<Arc<SpareCores>>,
}

impl Buffers {
    /// A worker's buffers, its large blocks helped by the run's spare cores.
    pub fn sharing(spare: Arc<SpareCores>) -> Buffers {
        Buffers {
            spare: Some(spare),
            ..Buffers::default()
        }
    }
}

/// Whether every file a stored state read is still the file it read (same
/// identity, at least as long, same bytes before the offset), so reading can
/// go on from the marks. Any doubt means the session is read again whole.
pub(super) fn still_valid(state: &ResumeState, files: &SessionFiles, bytes: &mut u64) -> bool {
    let all: Vec<&corpus::PlannedFile> = std::iter::once(&files.main)
        .chain(files.agents.iter())
        .collect();
    state.marks.iter().all(|m| {
        let Some(f) = all.iter().find(|f| f.rel == m.rel) else {
            return false;
        };
        if m.seen == Seen::of(f) {
            return true;
        }
        if f.format.rewritten_whole(&f.rel) {
            // Changed at all: read again whole.
            return false;
        }
        let Ok(o) = corpus::open(&f.abs) else {
            return false;
        };
        if o.dev != m.dev || o.ino != m.ino || o.len < m.offset {
            return false;
        }
        *bytes += 2 * m.offset.min(corpus::TAIL_CHECK);
        corpus::tail_hash(&o.file, m.offset).is_ok_and(|h| h == m.tail)
            && corpus::head_hash(&o.file, m.offset).is_ok_and(|h| h == m.head)
    }) && state.marks.len() == state.session.files.len()
        && state
            .session
            .files
            .iter()
            .zip(&state.marks)
            .all(|(c, m)| c.rel_path == m.rel && c.offset == m.offset)
}
