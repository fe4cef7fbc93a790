//! What a main transcript says of the agents it spawned: the spawning
//! tool calls (`Task`, `Agent`, `Workflow`) and local commands, and the
//! inline sidechains resolved to their roots.

use super::{SessionParser, SideRecord, new_agent};
use crate::domain::clock::Millis;
use crate::domain::transcript::AgentLayout;
use crate::domain::transcript::spawns::{self, ProgressRef, SpawnResult};
use crate::domain::transcript::wire::Record;
use memchr::memmem::Finder;
use std::collections::HashMap;
use std::sync::LazyLock;

/// Finds a user message that is a local command's output, built once.
pub(super) static LOCAL_COMMAND: LazyLock<Finder<'static>> =
    LazyLock::new(|| Finder::new(b"\"content\":\"<local-command-"));

/// Finds `"name":"` (the name of a content block), built once.
pub(super) static NAME: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"name\":\""));

/// Whether a record's content could matter to the tree, so that the other
/// records skip their content unvalidated: a spawn call, the result of a
/// pending call, a first message, a sidechain root, a queue operation. The
/// record's own fields decide; only assistant records are searched for
/// calls, and only when calls are pending are the others searched for
/// their ids. (A message's own type is "message" and blocks have theirs.)
pub(super) fn wants_content(
    rec: &Record<'_>,
    line: &[u8],
    main: bool,
    first_user_seen: bool,
    pending: &HashMap<String, usize>,
) -> bool {
    if !first_user_seen {
        return true;
    }
    let kind = rec.kind.as_deref();
    if kind == Some("queue-operation") {
        return true;
    }
    if main && rec.is_sidechain == Some(true) && rec.parent_uuid.is_none() {
        return true;
    }
    let assistant = kind == Some("assistant");
    if !pending.is_empty()
        && !assistant
        && pending
            .keys()
            .any(|id| memchr::memmem::find(line, id.as_bytes()).is_some())
    {
        return true;
    }
    if !assistant
        && matches!(
            kind,
            Some("user" | "system" | "progress" | "summary" | "file-history-snapshot")
        )
    {
        return false;
    }
    // One pass over the line: does any `"name":"` name a spawn tool?
    NAME.find_iter(line).any(|at| {
        let rest = &line[at + 8..];
        SPAWN_NAMES.iter().any(|s| rest.starts_with(s))
    })
}

/// Spawn tool names as they follow `"name":"` (with the closing quote).
pub(super) const SPAWN_NAMES: [&[u8]; 3] = [b"Task\"", b"Agent\"", b"Workflow\""];

/// Collects a record's spawn calls, the results of this file's spawn calls,
/// queue operations and progress references.
pub(super) fn see_spawn_evidence(
    b: &mut SessionParser,
    rec: &Record<'_>,
    agent: &str,
    at: Option<Millis>,
    pending: &mut HashMap<String, usize>,
) {
    let content = rec.message.as_ref().and_then(|m| m.content.0);
    match rec.kind.as_deref() {
        Some("assistant") => {
            if let Some(c) = content.filter(|c| spawns::may_spawn(c)) {
                for s in spawns::spawn_calls(c, agent, at) {
                    pending.insert(s.tool_use_id.clone(), b.out.spawns.len());
                    b.out.spawns.push(s);
                }
            }
        }
        Some("user") if !pending.is_empty() => {
            let Some(c) = content.filter(|c| spawns::may_answer(c, pending.keys())) else {
                return;
            };
            for (id, is_error) in spawns::tool_results(c) {
                // A call has one result: once seen, stop looking for it.
                let Some(i) = pending.remove(&id) else {
                    continue;
                };
                if b.out.spawns[i].result.is_none() {
                    let (child_agent_id, reported, launched_only) =
                        spawns::spawn_result(rec.tool_use_result.0);
                    b.out.spawns[i].result = Some(SpawnResult {
                        at,
                        is_error,
                        child_agent_id,
                        reported,
                        launched_only,
                    });
                }
            }
        }
        Some("queue-operation") => {
            if let Some(q) = spawns::queue_op(rec.content.0, agent, at) {
                b.out.queue_ops.push(q);
            }
        }
        Some("progress") => {
            if let Some(a) = rec
                .agent_id
                .as_deref()
                .filter(|a| !a.is_empty() && *a != agent)
            {
                b.out.progress_refs.push(ProgressRef {
                    owner: agent.to_string(),
                    agent_id: a.to_string(),
                });
            }
        }
        _ => {}
    }
}

/// Follows `parentUuid` links to each sidechain's root record: the root's uuid
/// is the inline agent's id.
pub(super) fn root_of(uuid: &str, parents: &HashMap<String, Option<String>>) -> String {
    let mut cur = uuid;
    let mut steps = 0;
    while let Some(Some(p)) = parents.get(cur) {
        if !parents.contains_key(p.as_str()) || steps > parents.len() {
            break;
        }
        cur = p;
        steps += 1;
    }
    cur.to_string()
}

pub(super) fn resolve_inline(b: &mut SessionParser, side: Vec<SideRecord>, path: &str) {
    let mut roots: HashMap<String, String> = HashMap::new();
    for rec in side {
        let agent = match &rec.uuid {
            Some(u) => roots
                .entry(u.clone())
                .or_insert_with(|| root_of(u, &b.side_parent))
                .clone(),
            // A sidechain record without a uuid cannot be placed in a chain.
            None => b.out.session_id.clone(),
        };
        if agent != b.out.session_id && !b.out.agents.iter().any(|a| a.agent_id == agent) {
            b.out
                .agents
                .push(new_agent(&agent, AgentLayout::Inline, path, None));
        }
        if let Some((prompt, note)) = rec.first
            && let Some(a) = b.out.agents.iter_mut().find(|a| {
                a.agent_id == agent && a.layout == AgentLayout::Inline && a.first_prompt.is_none()
            })
        {
            a.first_prompt = prompt;
            a.notification_tool_use_id = note;
        }
        b.span(&agent).see(rec.at);
        if let Some((record, pieces)) = rec.said {
            b.keep_said(&agent, record, rec.at, pieces);
        }
        if let Some(mut obs) = rec.usage {
            obs.agent_id.clone_from(&agent);
            b.add_usage(obs);
        }
        if let Some(mut c) = rec.compaction {
            c.agent_id = agent;
            b.out.compactions.push(c);
        }
    }
}
