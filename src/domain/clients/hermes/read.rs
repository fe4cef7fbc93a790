//! Hermes Agent's sessions, from the running totals its `sessions` rows
//! keep (see `find`): a tree of rows is one session, each row an
//! agent (a subagent's parent the row its `parent_session_id` names), and
//! each row's totals one observation of its agent, keyed by the row's id,
//! dated at its start: a later, larger total replaces it, never adds to
//! it. Input is without the cached part, output with the reasoning in it,
//! reasoning also kept apart, as Hermes records them.

use crate::domain::transcript::SessionRow;
use crate::domain::transcript::usage::{Billing, Buckets, UsageObservation};
use crate::domain::transcript::{Ending, ParsedSession};

/// Hermes's database: its sessions' paths are `state.db#<session id>`.
pub const DATABASE: &str = "state.db";

/// Whether a stored transcript path names a Hermes session.
pub fn is_session(rel_path: &str) -> bool {
    crate::domain::transcript::names_stored_session(rel_path, DATABASE)
}

/// One `sessions` row's running totals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionTotals {
    pub id: String,
    pub model: String,
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
    pub reasoning: u64,
    /// API calls the totals cover.
    pub calls: u64,
    pub messages: u64,
    /// Whether the session was closed (`ended_at` set).
    pub ended: bool,
    pub end_reason: Option<String>,
}

/// The tree of `sessions` (the top one first) with their `totals`.
pub fn parse_tree(
    db_rel: &str,
    sessions: &[SessionRow],
    totals: &[SessionTotals],
) -> ParsedSession {
    let root = &sessions[0];
    let mut out = ParsedSession {
        session_id: root.id.clone(),
        cwd: Some(root.directory.clone()).filter(|d| !d.is_empty()),
        started_at: Some(root.time_created),
        ..ParsedSession::default()
    };
    for (i, s) in sessions.iter().enumerate() {
        let mut a = s.agent(db_rel, i);
        let t = totals.iter().find(|t| t.id == s.id);
        a.records = t.map_or(0, |t| t.messages);
        out.records += a.records;
        // A session Hermes closed ended its turn; a subagent's, its task.
        a.ending = t
            .filter(|t| t.ended)
            .map(|_| (Ending::TurnEnd, Some(s.time_updated)));
        a.finished = i > 0 && a.ending.is_some();
        out.agents.push(a);
        out.last_activity_at = out.last_activity_at.max(Some(s.time_updated));
        let Some(t) = t.filter(|t| t.input + t.output + t.cache_read + t.cache_write > 0) else {
            continue;
        };
        out.usage.push(UsageObservation {
            message_id: format!("{}#totals", s.id),
            agent_id: s.id.clone(),
            record_session_id: root.id.clone(),
            model: t.model.clone(),
            at: Some(s.time_created),
            buckets: Buckets {
                input: t.input,
                output: t.output,
                cache_write_5m: t.cache_write,
                cache_write_1h: 0,
                cache_read: t.cache_read,
                reasoning: t.reasoning,
            },
            billing: Billing::default(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, parent: Option<&str>) -> SessionRow {
        SessionRow::for_test(id, parent)
    }

    fn totals(id: &str, input: u64) -> SessionTotals {
        SessionTotals {
            id: id.into(),
            model: "fake-model".into(),
            input,
            output: 36,
            cache_read: 300,
            reasoning: 3,
            calls: 2,
            messages: 4,
            ended: true,
            ..SessionTotals::default()
        }
    }

    #[test]
    fn each_row_s_totals_are_its_agent_s_one_observation() {
        let sessions = [row("p", None), row("c", Some("p"))];
        let out = parse_tree("state.db", &sessions, &[totals("p", 2714), totals("c", 0)]);
        assert_eq!(out.session_id, "p");
        assert_eq!(out.agents.len(), 2);
        assert_eq!(out.agents[1].parent_id.as_deref(), Some("p"));
        // The child's row holds output but no input: still its own.
        assert_eq!(out.usage.len(), 2);
        let p = &out.usage[0];
        assert_eq!(p.message_id, "p#totals");
        assert_eq!(
            [
                p.buckets.input,
                p.buckets.cache_read,
                p.buckets.output,
                p.buckets.reasoning
            ],
            [2714, 300, 36, 3]
        );
        assert_eq!(out.usage[1].agent_id, "c");
        assert_eq!(out.records, 8);
        assert!(is_session("state.db#p") && !is_session("opencode.db#p"));
    }
}
