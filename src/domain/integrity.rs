//! What `check` can find: the kinds of findings and the finding itself
//! (its record is `output::records::FindingRecord`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The kind of a finding. Its name is its JSON value (kebab-case); findings
/// are listed ordered by that name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FindingKind {
    /// A transcript line that could not be read (skipped).
    DegradedLine,
    /// A session whose last ingest failed.
    Failed,
    /// A session that failed three times on the same files (not retried until they change).
    Quarantined,
    /// A session whose files changed since it was ingested.
    Stale,
    /// A session file never ingested.
    NotIngested,
    /// A session whose stored tokens differ from a fresh reading of its files.
    RecountMismatch,
    /// A session file the ingest skipped (unreadable, not a transcript).
    Skipped,
    /// A model with no price: its tokens are unpriced.
    UnpricedModel,
    /// The harness's own cost for a session differs from sessionkit's.
    HarnessCostMismatch,
    /// Report totals that disagree with the token rows.
    RollupMismatch,
    /// Hook events waiting in the spool.
    SpooledEvents,
    /// Spooled lines that could not be read back.
    SpoolRejected,
    /// A file beside the database (spool, its rejected lines, its drop
    /// count) that is not a regular file of the database's owner.
    SpoolUnusable,
    /// Hook events dropped because the spool was full.
    SpoolDropped,
    /// Hook events lost: neither the database nor the spool could be
    /// written.
    EventsLost,
    /// A stored parent that differs from a hand-written label (`--labels`).
    LabelMismatch,
    /// A labelled agent that is not stored (`--labels`).
    LabelMissing,
}

impl FindingKind {
    pub fn as_str(self) -> &'static str {
        match self {
            FindingKind::DegradedLine => "degraded-line",
            FindingKind::Failed => "failed",
            FindingKind::Quarantined => "quarantined",
            FindingKind::Stale => "stale",
            FindingKind::NotIngested => "not-ingested",
            FindingKind::RecountMismatch => "recount-mismatch",
            FindingKind::Skipped => "skipped",
            FindingKind::UnpricedModel => "unpriced-model",
            FindingKind::HarnessCostMismatch => "harness-cost-mismatch",
            FindingKind::RollupMismatch => "rollup-mismatch",
            FindingKind::SpooledEvents => "spooled-events",
            FindingKind::SpoolRejected => "spool-rejected",
            FindingKind::SpoolUnusable => "spool-unusable",
            FindingKind::SpoolDropped => "spool-dropped",
            FindingKind::EventsLost => "events-lost",
            FindingKind::LabelMismatch => "label-mismatch",
            FindingKind::LabelMissing => "label-missing",
        }
    }

    #[cfg(test)]
    pub const ALL: [FindingKind; 17] = [
        FindingKind::DegradedLine,
        FindingKind::Failed,
        FindingKind::Quarantined,
        FindingKind::Stale,
        FindingKind::NotIngested,
        FindingKind::RecountMismatch,
        FindingKind::Skipped,
        FindingKind::UnpricedModel,
        FindingKind::HarnessCostMismatch,
        FindingKind::RollupMismatch,
        FindingKind::SpooledEvents,
        FindingKind::SpoolRejected,
        FindingKind::SpoolUnusable,
        FindingKind::SpoolDropped,
        FindingKind::EventsLost,
        FindingKind::LabelMismatch,
        FindingKind::LabelMissing,
    ];
}

/// One thing `check` found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    pub session_id: String,
    pub file: Option<String>,
    pub line: Option<i64>,
    pub detail: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_names_are_the_listed_names() {
        for k in FindingKind::ALL {
            assert_eq!(serde_json::to_value(k).unwrap(), k.as_str());
        }
    }
}
