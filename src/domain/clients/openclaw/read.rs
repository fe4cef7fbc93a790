//! OpenClaw's sessions, from the rows of its per-agent database
//! (`find`): each session's `transcript_events`, in `seq`
//! order, are entries of pi's session format (version 4), read by pi's
//! reader as the lines of one file (see `pi`). A subagent is a session of
//! its own whose window names its parent's: a tree of sessions is one
//! sessionkit session, each an agent. An event kept compressed
//! (`event_zstd`) is not read: a degraded line of its session.

use crate::domain::transcript::SessionRow;
use crate::domain::transcript::kit::SessionParser;
use crate::domain::transcript::said::SaidOptions;
use crate::domain::transcript::{AgentLayout, BadLine, Ending, FileRole, ParsedSession};

/// OpenClaw's per-agent database: its sessions' paths are
/// `openclaw-agent.sqlite#<session id>`.
pub const DATABASE: &str = "openclaw-agent.sqlite";

/// Whether a stored transcript path names an OpenClaw session.
pub fn is_session(rel_path: &str) -> bool {
    crate::domain::transcript::names_stored_session(rel_path, DATABASE)
}

/// One `transcript_events` row: its entry, when kept as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    pub session_id: String,
    pub seq: i64,
    pub json: Option<String>,
}

/// The tree of `sessions` (the top one first) from their `events`, each
/// session's in order; with `said`, what they say (pi's records).
pub fn parse_tree(
    db_rel: &str,
    sessions: &[SessionRow],
    events: &[EventRow],
    said: Option<SaidOptions>,
) -> ParsedSession {
    let mut p = SessionParser::new(&sessions[0].id, false);
    p.said = said;
    for (i, s) in sessions.iter().enumerate() {
        let rel = format!("{db_rel}#{}", s.id);
        let file = if i == 0 {
            p.begin_main(&rel)
        } else {
            let role = FileRole::Agent {
                agent_id: s.id.clone(),
                layout: AgentLayout::Child,
                workflow_id: None,
            };
            match p.begin_agent(&rel, &role, None) {
                Ok(f) => f,
                Err(_) => continue,
            }
        };
        let mut text = String::new();
        for e in events.iter().filter(|e| e.session_id == s.id) {
            match &e.json {
                // One entry per row: a newline inside it would be JSON's
                // whitespace, and none is written.
                Some(j) => {
                    text.push_str(&j.replace('\n', " "));
                    text.push('\n');
                }
                None => {
                    let _ = p.add_bad_line(BadLine {
                        file: rel.clone(),
                        line: u64::try_from(e.seq + 1).unwrap_or(0),
                        reason: "a compressed event (event_zstd) is not read".into(),
                    });
                }
            }
        }
        let _ = p.block(file, text.as_bytes());
    }
    let mut out = p.finish();
    for a in &mut out.agents {
        if let Some(s) = sessions.iter().skip(1).find(|s| s.id == a.agent_id) {
            a.parent_id = s.parent_id.clone();
            // A subagent whose last answer ended its turn did its task.
            a.finished = a.ending.is_some_and(|(e, _)| e == Ending::TurnEnd);
            a.description = s.description();
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, parent: Option<&str>) -> SessionRow {
        SessionRow::for_test(id, parent)
    }

    fn event(sid: &str, seq: i64, json: &str) -> EventRow {
        EventRow {
            session_id: sid.into(),
            seq,
            json: Some(json.into()),
        }
    }

    fn answer(id: &str, input: u64, stop: &str) -> String {
        format!(
            r#"{{"type":"message","id":"{id}","parentId":null,"timestamp":"2026-12-05T19:00:53.300Z","message":{{"role":"assistant","content":[],"model":"fake-model","usage":{{"input":{input},"output":13,"cacheRead":100,"cacheWrite":0,"reasoningTokens":1,"totalTokens":0}},"stopReason":"{stop}","responseId":"r-{id}"}}}}"#
        )
    }

    #[test]
    fn each_session_s_events_are_its_agent_s_entries() {
        let header = r#"{"type":"session","version":4,"id":"p","timestamp":"2026-12-05T19:00:46.163Z","cwd":"/w/proj"}"#;
        let events = [
            event("p", 0, header),
            event("p", 1, &answer("a1", 907, "toolUse")),
            event("c", 0, &answer("a2", 50, "stop")),
            EventRow {
                session_id: "p".into(),
                seq: 2,
                json: None,
            },
            event("p", 3, &answer("a3", 1807, "error")),
        ];
        let out = parse_tree(
            DATABASE,
            &[row("p", None), row("c", Some("p"))],
            &events,
            None,
        );
        assert_eq!(out.usage.len(), 3);
        let by = |id: &str| out.usage.iter().find(|u| u.message_id == id).unwrap();
        assert_eq!(by("r-a1").buckets.reasoning, 1);
        assert_eq!(by("r-a2").agent_id, "c");
        assert_eq!(out.cwd.as_deref(), Some("/w/proj"));
        let child = out.agents.iter().find(|a| a.agent_id == "c").unwrap();
        assert_eq!(child.parent_id.as_deref(), Some("p"));
        let main = out.agents.iter().find(|a| a.agent_id == "p").unwrap();
        assert_eq!(main.ending.map(|e| e.0), Some(Ending::ApiError));
        assert_eq!(out.bad_lines_total, 1);
        assert!(is_session("openclaw-agent.sqlite#p") && !is_session("state.db#p"));
    }
}
