//! What a parser keeps between blocks and between runs: each file's
//! cursor and open state, a span of times, an inline sidechain's records
//! until their root is known, and the spare cores it may borrow.

use super::super::Compaction;
use super::super::usage::UsageObservation;
use crate::domain::clock::Millis;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub(crate) struct Span {
    pub(crate) first: Option<Millis>,
    pub(crate) last: Option<Millis>,
    pub(crate) records: u64,
}

impl Span {
    pub(super) fn new() -> Self {
        Span {
            first: None,
            last: None,
            records: 0,
        }
    }
    pub(crate) fn see(&mut self, at: Option<Millis>) {
        self.merge(&Span {
            first: at,
            last: at,
            records: 1,
        });
    }
    pub(super) fn merge(&mut self, other: &Span) {
        self.records += other.records;
        self.first = match (self.first, other.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // `None` orders below every time, so the latest time wins.
        self.last = self.last.max(other.last);
    }
}

/// A record of an inline sidechain, kept until its chain root is known.
pub(super) struct SideRecord {
    pub(super) uuid: Option<String>,
    pub(super) at: Option<Millis>,
    pub(super) usage: Option<UsageObservation>,
    pub(super) compaction: Option<Compaction>,
    /// A chain root's first message: prompt hash and task-notification id.
    pub(super) first: Option<(Option<u64>, Option<String>)>,
    /// What it says (its record's id and pieces), when that is read.
    pub(super) said: Option<(String, Vec<crate::domain::transcript::said::Piece>)>,
}

/// Where the reading of one file stands, between blocks and between runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileCursor {
    pub rel_path: String,
    pub agent_id: String,
    pub main: bool,
    /// Bytes through the last complete line read (a byte-order mark included).
    pub offset: u64,
    /// Lines counted so far, blank ones too: the next line is `line + 1`.
    pub line: u64,
    /// Whether the file's first user record has been read.
    pub first_user_seen: bool,
    /// A Codex rollout's current model (its last `turn_context`): the
    /// model of the responses that follow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// A Codex rollout has shown a `token_usage_record`: its `token_count`
    /// events repeat those records and are not read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub usage_records: bool,
    /// A Codex rollout's last running total (`token_count`'s
    /// `total_token_usage`): input, cached input, output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub running_total: Option<[u64; 3]>,
    /// A Codex rollout that copies another thread's history (a fork, or a
    /// subagent started from its parent's context): the thread whose
    /// `session_meta` came last, which the `token_count` events that follow
    /// are named by. `None`: the file's own thread.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_of: Option<String>,
    /// A Codex rollout is replaying a turn of another thread's history (its
    /// `task_started` began long before the line was written): the usage
    /// that follows, until a turn of its own starts, is not the file's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub replayed_turn: bool,
    /// The file's format when the walk knew it otherwise than by its name
    /// (`None`: `Format::of_file` of its path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<crate::domain::transcript::Format>,
    /// Runs of long lines read so far that say nothing to the search
    /// index (`SessionParser::note_holes`), in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<super::Hole>,
}

impl FileCursor {
    /// The format the file is read in.
    pub fn format(&self) -> crate::domain::transcript::Format {
        self.format
            .unwrap_or_else(|| crate::domain::transcript::Format::of_file(&self.rel_path))
    }
}

/// What a file being read carries from block to block besides its cursor.
#[derive(Default)]
pub(super) struct OpenFile {
    /// Spawn calls of this file still waiting for their result, by id.
    pub(super) pending: HashMap<String, usize>,
    /// The agent the file's records belong to (index into `agents`).
    pub(super) agent: usize,
}

/// Cores no worker is using, which a parser may borrow to scan part of a
/// large block (`block.rs`). The run that owns the workers says how many
/// there are, and gives one back when a worker runs out of sessions.
#[derive(Debug, Default)]
pub struct SpareCores(pub(crate) AtomicUsize);

/// A borrowed core, given back when dropped.
pub struct SpareCore(Arc<SpareCores>);

impl SpareCores {
    pub fn new(n: usize) -> Arc<SpareCores> {
        Arc::new(SpareCores(AtomicUsize::new(n)))
    }

    /// One more core is spare.
    pub fn give(&self) {
        self.0.fetch_add(1, Ordering::AcqRel);
    }

    /// Borrows a spare core, when there is one.
    pub fn take(cores: &Arc<SpareCores>) -> Option<SpareCore> {
        cores
            .0
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1))
            .ok()
            .map(|_| SpareCore(Arc::clone(cores)))
    }
}

impl Drop for SpareCore {
    fn drop(&mut self) {
        self.0.give();
    }
}
