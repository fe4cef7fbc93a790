//! An agent as a session's files place it: its edge in the tree, its
//! spawning call, its type, and the status its files give it.
//! Pure; the store writes what this decides.

use std::collections::HashMap;

use super::{
    Agent, AgentLayout, BackgroundEnd, Edge, Ending, ParsedSession, QueueOp, Spawn, background_end,
};
use crate::domain::status::{Cause, Evidence, Status};

/// One agent of a session, placed.
#[derive(Debug)]
pub struct Placed<'a> {
    pub agent: &'a Agent,
    /// The edge that joins it to its parent (none for the main agent).
    pub edge: Option<&'a Edge>,
    /// The sidecar names the type; an older file's type is on the call.
    pub agent_type: Option<&'a str>,
    /// The sidecar's description, else the spawning call's.
    pub description: Option<&'a str>,
    /// What the files say of its status.
    pub evidence: Evidence,
}

/// Places every agent of a session by its resolved edges (`resolve`).
pub fn place<'a>(p: &'a ParsedSession, edges: &'a [Edge]) -> Vec<Placed<'a>> {
    let edge_of: HashMap<&str, &Edge> = edges.iter().map(|e| (e.child.as_str(), e)).collect();
    let spawn_of: HashMap<&str, &Spawn> = p
        .spawns
        .iter()
        .map(|s| (s.tool_use_id.as_str(), s))
        .collect();
    p.agents
        .iter()
        .map(|a| {
            let edge = edge_of.get(a.agent_id.as_str()).copied();
            let call = edge
                .and_then(|e| e.tool_use_id.as_deref())
                .and_then(|id| spawn_of.get(id).copied());
            Placed {
                agent: a,
                edge,
                agent_type: a
                    .agent_type
                    .as_deref()
                    .or(call.and_then(|c| c.subagent_type.as_deref())),
                description: a
                    .description
                    .as_deref()
                    .or(call.and_then(|c| c.description.as_deref())),
                evidence: transcript_evidence(a, call, a.agent_id == p.session_id, &p.queue_ops),
            }
        })
        .collect()
}

/// What a session's files say about an agent's status: the
/// spawning call's tool_result finishes it, at that record's time; a
/// transcript that ends on an API error ended in error, and a main agent
/// interrupted by its user waits for them; otherwise it was working as of
/// its last record.
///
/// A background agent (its call's result only says it was launched)
/// completes at its `<task-notification>`, or its sidecar's `finished`.
fn transcript_evidence(
    a: &Agent,
    call: Option<&Spawn>,
    main: bool,
    queue_ops: &[QueueOp],
) -> Evidence {
    // A subagent with a transcript (or rows) of its own that its reader
    // saw finish: a Codex thread's task_complete, a Droid pair's completed
    // turn, a closed Hermes row, an OpenClaw or Vibe child's last answer.
    if !main
        && a.finished
        && matches!(
            a.layout,
            AgentLayout::Thread | AgentLayout::Chat | AgentLayout::Tagged | AgentLayout::Child
        )
    {
        return Evidence::new(Status::Completed, a.last_seen, Cause::TaskComplete);
    }
    if let Some(c) = call.filter(|c| c.result.as_ref().is_some_and(|r| r.launched_only)) {
        match background_end(&a.agent_id, c, queue_ops, a.finished, a.last_seen) {
            Some(BackgroundEnd::Completed(at)) => {
                return Evidence::new(Status::Completed, at, Cause::TaskNotification);
            }
            Some(BackgroundEnd::Failed(at)) => {
                return Evidence::new(Status::Error, at, Cause::TaskNotification);
            }
            Some(BackgroundEnd::Finished(at)) => {
                return Evidence::new(Status::Completed, at, Cause::SidecarFinished);
            }
            None => {}
        }
    }
    let result = call
        .and_then(|c| c.result.as_ref())
        .filter(|r| !r.launched_only);
    // A subagent its own sidecar says finished (Qwen Code's `status`),
    // with no result of its call to say more.
    if !main && a.finished && result.is_none() {
        return Evidence::new(Status::Completed, a.last_seen, Cause::SidecarFinished);
    }
    match (result, a.ending) {
        (Some(r), _) if r.is_error => Evidence::new(Status::Error, r.at, Cause::ToolResultError),
        (Some(r), _) => Evidence::new(Status::Completed, r.at, Cause::ToolResult),
        (None, Some((Ending::ApiError, at))) => Evidence::new(Status::Error, at, Cause::ApiError),
        (None, Some((Ending::Interrupt, at))) if main => {
            Evidence::new(Status::Waiting, at, Cause::UserInterrupt)
        }
        (None, Some((Ending::TurnEnd, at))) if main => {
            Evidence::new(Status::Waiting, at, Cause::TurnEnd)
        }
        _ => Evidence::new(Status::Working, a.last_seen, Cause::Transcript),
    }
}
