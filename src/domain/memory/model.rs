//! A memory and what travels with it, as every layer sees them: the memory,
//! its commitment, its audit events, a borrowed view of a stored row, who
//! writes, and what a search or a write gives back. The store fills these;
//! nothing here touches it.

use super::{CommitmentStatus, EventKind, Kind, MemoryStatus};
use crate::domain::clock::Millis;

/// What `recall` found.
#[derive(Debug, Clone)]
pub struct Recalled {
    pub hits: Vec<Hit>,
    /// Set when every word was common: the hits are the best of this many
    /// newest matches.
    pub newest_ranked: Option<i64>,
}

/// What replaces a redacted memory's content (and description).
pub const REDACTED: &str = "[redacted]";

/// Conditions a caller may branch on.
#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    #[error("no memory matches {0:?}: run `sessionkit memories --all` to list them")]
    NotFound(String),
    #[error("{prefix:?} matches {count} memories: give more characters")]
    Ambiguous { prefix: String, count: usize },
    #[error(
        "likely a duplicate of {id} ({why}): supersede it with `sessionkit revise {id}`, or pass --force"
    )]
    LikelyDuplicate {
        id: String,
        why: super::duplicate::Likeness,
    },
    #[error("{id} was superseded by {by}: act on the live version")]
    Superseded { id: String, by: String },
}

/// A memory as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct Memory {
    pub memory_id: String,
    pub kind: Kind,
    pub topic: String,
    pub description: Option<String>,
    pub content: String,
    pub project: String,
    pub scope: String,
    pub tags: Vec<String>,
    pub status: MemoryStatus,
    pub pinned: bool,
    /// None once redacted.
    pub content_hash: Option<String>,
    pub supersedes: Option<String>,
    pub valid_from: Millis,
    pub valid_to: Option<Millis>,
    pub created_at: Millis,
    pub updated_at: Millis,
    pub commitment: Option<Commitment>,
}

impl Memory {
    pub fn is_live(&self) -> bool {
        self.valid_to.is_none() && self.status == MemoryStatus::Active
    }

    /// Live, and not a commitment that is done with (resolved or expired):
    /// what may be put before an agent as something still in force.
    pub fn is_open(&self) -> bool {
        self.is_live()
            && !self.commitment.as_ref().is_some_and(|c| {
                matches!(
                    c.status,
                    CommitmentStatus::Resolved | CommitmentStatus::Expired
                )
            })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Commitment {
    pub status: CommitmentStatus,
    pub due_at: Option<Millis>,
    pub owner: Option<String>,
    pub resolved_at: Option<Millis>,
    pub updated_at: Millis,
}

/// One audit event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryEvent {
    pub event_id: String,
    pub memory_id: String,
    pub kind: EventKind,
    pub actor: String,
    pub session_run_id: Option<String>,
    pub reason: Option<String>,
    pub created_at: Millis,
}

/// Who writes, and when.
#[derive(Debug, Clone, Copy)]
pub struct Actor<'a> {
    pub actor: &'a str,
    /// `--session-run-id`: the run this write belongs to. Without one, the
    /// write joins the project's only live run, if exactly one is live.
    pub run: Option<&'a str>,
    pub now: Millis,
    /// The run lease (setting `lease.hours`).
    pub lease_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Remembered {
    Created(String),
    /// An exact duplicate (same kind, project and content) is live: its id.
    Existing(String),
}

/// Which memories `memories` lists.
#[derive(Debug, Clone, Default)]
pub struct MemoryFilter {
    pub kind: Option<Kind>,
    pub project: Option<String>,
    pub status: Option<StatusFilter>,
    /// Superseded and archived too.
    pub all: bool,
    pub since: Option<Millis>,
    /// Read the content too (a listing shows the index: topic, description, tags...).
    pub full: bool,
}

/// A listing's `--status`: a memory status or a commitment status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StatusFilter {
    Memory(MemoryStatus),
    Commitment(CommitmentStatus),
}

impl StatusFilter {
    pub fn parse(s: &str) -> anyhow::Result<StatusFilter> {
        if let Ok(m) = MemoryStatus::parse(s) {
            return Ok(StatusFilter::Memory(m));
        }
        match CommitmentStatus::parse(s) {
            Ok(c) => Ok(StatusFilter::Commitment(c)),
            Err(_) => anyhow::bail!(
                "unknown status {s:?}; memory statuses: active, archived; commitment statuses: open, waiting, resolved, expired"
            ),
        }
    }
}

/// A recall hit.
#[derive(Debug, Clone)]
pub struct Hit {
    pub memory: Memory,
    pub rank: f64,
    pub snippet: String,
}

/// A memory borrowed from a row (or from a `Memory`): what a listing prints,
/// without copying a string.
#[derive(Debug, Clone, Copy)]
pub struct MemoryView<'a> {
    pub memory_id: &'a str,
    pub kind: Kind,
    pub topic: &'a str,
    pub description: Option<&'a str>,
    pub content: &'a str,
    pub project: &'a str,
    pub scope: &'a str,
    pub tags: Tags<'a>,
    pub status: MemoryStatus,
    pub pinned: bool,
    pub content_hash: Option<&'a str>,
    pub supersedes: Option<&'a str>,
    pub valid_from: Millis,
    pub valid_to: Option<Millis>,
    pub created_at: Millis,
    pub updated_at: Millis,
    pub commitment: Option<CommitmentView<'a>>,
}

#[derive(Debug, Clone, Copy)]
pub struct CommitmentView<'a> {
    pub status: CommitmentStatus,
    pub due_at: Option<Millis>,
    pub owner: Option<&'a str>,
    pub resolved_at: Option<Millis>,
    pub updated_at: Millis,
}

/// A memory's tags: a list, or the JSON array the row stores.
#[derive(Debug, Clone, Copy)]
pub enum Tags<'a> {
    List(&'a [String]),
    Json(&'a str),
}

impl Tags<'_> {
    pub fn to_vec(self) -> Vec<String> {
        match self {
            Tags::List(l) => l.to_vec(),
            Tags::Json(j) => serde_json::from_str(j).unwrap_or_default(),
        }
    }
}

impl MemoryView<'_> {
    pub fn to_memory(self) -> Memory {
        Memory {
            memory_id: self.memory_id.to_string(),
            kind: self.kind,
            topic: self.topic.to_string(),
            description: self.description.map(str::to_string),
            content: self.content.to_string(),
            project: self.project.to_string(),
            scope: self.scope.to_string(),
            tags: self.tags.to_vec(),
            status: self.status,
            pinned: self.pinned,
            content_hash: self.content_hash.map(str::to_string),
            supersedes: self.supersedes.map(str::to_string),
            valid_from: self.valid_from,
            valid_to: self.valid_to,
            created_at: self.created_at,
            updated_at: self.updated_at,
            commitment: self.commitment.map(|c| Commitment {
                status: c.status,
                due_at: c.due_at,
                owner: c.owner.map(str::to_string),
                resolved_at: c.resolved_at,
                updated_at: c.updated_at,
            }),
        }
    }
}

impl Memory {
    pub fn view(&self) -> MemoryView<'_> {
        MemoryView {
            memory_id: &self.memory_id,
            kind: self.kind,
            topic: &self.topic,
            description: self.description.as_deref(),
            content: &self.content,
            project: &self.project,
            scope: &self.scope,
            tags: Tags::List(&self.tags),
            status: self.status,
            pinned: self.pinned,
            content_hash: self.content_hash.as_deref(),
            supersedes: self.supersedes.as_deref(),
            valid_from: self.valid_from,
            valid_to: self.valid_to,
            created_at: self.created_at,
            updated_at: self.updated_at,
            commitment: self.commitment.as_ref().map(|c| CommitmentView {
                status: c.status,
                due_at: c.due_at,
                owner: c.owner.as_deref(),
                resolved_at: c.resolved_at,
                updated_at: c.updated_at,
            }),
        }
    }
}
