//! The result of an ingest or replay run, as printed.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use crate::domain::corpus::{Skip, SkipReason};

/// A session that failed this run, or sits in quarantine.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FailureNote {
    pub session_id: String,
    pub reason: String,
    pub attempt: i64,
    pub quarantined: bool,
}

/// One path a run did not read, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SkippedPath {
    /// Relative to its corpus root.
    pub path: String,
    pub reason: &'static str,
    /// Which `--root` (0-based), when the run had several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub root: Option<usize>,
}

/// The name and version of the summary's contract (`ingest --json`, `replay --json`).
pub const INGEST_SCHEMA: &str = "sessionkit.ingest/1";

/// Counts of one run. Field names are the JSON contract.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Summary {
    /// The contract and its version: `sessionkit.ingest/1`.
    pub schema: &'static str,
    /// Corpus roots read.
    pub roots: u64,
    #[serde(rename = "sessions_new")]
    pub new: u64,
    #[serde(rename = "sessions_updated")]
    pub updated: u64,
    #[serde(rename = "sessions_unchanged")]
    pub unchanged: u64,
    #[serde(rename = "sessions_degraded")]
    pub degraded: u64,
    #[serde(rename = "sessions_failed")]
    pub failed: u64,
    #[serde(rename = "sessions_quarantined")]
    pub quarantined: u64,
    #[serde(rename = "sessions_retained")]
    pub retained: u64,
    pub agents: u64,
    /// Messages (distinct ids per session) read this run.
    pub messages_read: u64,
    /// Token rows in the whole database after the run (one per message id).
    pub token_rows: u64,
    pub skipped: BTreeMap<&'static str, u64>,
    /// Every path counted in `skipped`, with its root and reason.
    pub skipped_paths: Vec<SkippedPath>,
    pub bytes_read: u64,
    pub elapsed_ms: u64,
    pub failures: Vec<FailureNote>,
    #[serde(skip)]
    pub strict_failed: bool,
    /// Bytes left unread because they were over `Options::max_bytes`.
    #[serde(skip)]
    pub deferred_bytes: u64,
}

impl Summary {
    /// A session's last part was written: new or updated, degraded or not.
    pub fn written(&mut self, known: bool, parsed: &crate::domain::transcript::ParsedSession) {
        if known {
            self.updated += 1;
        } else {
            self.new += 1;
        }
        if parsed.degraded() > 0 {
            self.degraded += 1;
        }
        self.agents += parsed.agents.len() as u64;
    }

    /// A session failed (`strict`: by a `--strict-*` rule), in the state
    /// its failure was recorded with.
    pub fn failed_session(
        &mut self,
        sid: &str,
        reason: String,
        state: &crate::store::projection::FailureState,
        strict: bool,
    ) {
        if state.quarantined {
            self.quarantined += 1;
        } else {
            self.failed += 1;
        }
        self.strict_failed |= strict;
        self.failures.push(FailureNote {
            session_id: sid.to_string(),
            reason,
            attempt: state.attempts,
            quarantined: state.quarantined,
        });
    }

    pub fn new(roots: usize) -> Summary {
        Summary {
            schema: INGEST_SCHEMA,
            roots: roots as u64,
            deferred_bytes: 0,
            new: 0,
            updated: 0,
            unchanged: 0,
            degraded: 0,
            failed: 0,
            quarantined: 0,
            retained: 0,
            agents: 0,
            messages_read: 0,
            token_rows: 0,
            skipped: SkipReason::ALL.iter().map(|r| (r.as_str(), 0)).collect(),
            skipped_paths: Vec::new(),
            bytes_read: 0,
            elapsed_ms: 0,
            failures: Vec::new(),
            strict_failed: false,
        }
    }

    /// Counts a skip and names its path (relative to its root, which is
    /// named too when the run has several).
    pub fn skip(&mut self, s: &Skip, roots: &[super::Root]) {
        *self.skipped.entry(s.reason.as_str()).or_default() += 1;
        let root = if roots.len() > 1 { Some(s.root) } else { None };
        self.skipped_paths.push(SkippedPath {
            path: s.path.clone(),
            reason: s.reason.as_str(),
            root,
        });
    }
}
