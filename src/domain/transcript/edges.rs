//! Parent resolution: who spawned each subagent, proven by which evidence.
//!
//! Precedence: the workflow directory; the spawning
//! tool_use id from the sidecar, from the parent's async `toolUseResult`, or
//! from a queue operation; the child's own `<task-notification>`; the legacy
//! Explore progress record; for inline sidechains and the old flat layout,
//! the `Task` call whose prompt equals the child's first message (pairs in
//! time order); an old flat agent file that matches no call, under its
//! session (`session_only`: its records name the session). No evidence: an
//! orphan, never a guess.

use std::collections::{BTreeSet, HashMap};

use super::{AgentLayout, ParsedSession, Spawn};

/// How a parent was proven (its JSON name is its stored name).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum JoinPath {
    Directory,
    ToolUse,
    QueueOperation,
    TaskNotification,
    LegacyExplore,
    PromptMatch,
    /// An old flat-layout agent file (Claude Code 2.0.x) whose first prompt
    /// matches no spawn call (the harness's own warm-up agents): its records
    /// name the session, so it hangs under the session's main agent, with
    /// no spawning call.
    SessionOnly,
    /// The child's own record names its parent (an OpenCode session's
    /// `parent_id`).
    ParentRecord,
    /// No parent could be found: the agent is a root of its own.
    Orphan,
}

impl JoinPath {
    pub const ALL: [JoinPath; 9] = [
        JoinPath::Directory,
        JoinPath::ToolUse,
        JoinPath::QueueOperation,
        JoinPath::TaskNotification,
        JoinPath::LegacyExplore,
        JoinPath::PromptMatch,
        JoinPath::SessionOnly,
        JoinPath::ParentRecord,
        JoinPath::Orphan,
    ];

    /// The join path a stored name names; `None` for a name it never wrote.
    pub fn parse(s: &str) -> Option<JoinPath> {
        JoinPath::ALL.into_iter().find(|j| j.as_str() == s)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            JoinPath::Directory => "directory",
            JoinPath::ToolUse => "tool_use",
            JoinPath::QueueOperation => "queue_operation",
            JoinPath::TaskNotification => "task_notification",
            JoinPath::LegacyExplore => "legacy_explore",
            JoinPath::PromptMatch => "prompt_match",
            JoinPath::SessionOnly => "session_only",
            JoinPath::ParentRecord => "parent_record",
            JoinPath::Orphan => "orphan",
        }
    }
}

/// A subagent's resolved parent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    pub child: String,
    /// `None` for an orphan.
    pub parent: Option<String>,
    pub join_path: JoinPath,
    /// The spawning call, when the evidence names it.
    pub tool_use_id: Option<String>,
}

/// Resolves the parent of every subagent of a parsed session.
pub fn resolve(p: &ParsedSession) -> Vec<Edge> {
    let main = p.session_id.as_str();
    let by_id: HashMap<&str, &Spawn> = p
        .spawns
        .iter()
        .map(|s| (s.tool_use_id.as_str(), s))
        .collect();
    let by_child: HashMap<&str, &Spawn> = p
        .spawns
        .iter()
        .filter_map(|s| Some((s.result.as_ref()?.child_agent_id.as_deref()?, s)))
        .collect();
    let queue_by_task: HashMap<&str, &str> = p
        .queue_ops
        .iter()
        .filter_map(|q| Some((q.task_id.as_deref()?, q.tool_use_id.as_deref()?)))
        .collect();
    let queue_owner: HashMap<&str, &str> = p
        .queue_ops
        .iter()
        .filter_map(|q| Some((q.tool_use_id.as_deref()?, q.owner.as_str())))
        .collect();
    let dispatcher: HashMap<&str, &Spawn> = p
        .spawns
        .iter()
        .filter(|s| s.tool == "Workflow")
        .filter_map(|s| Some((s.workflow_id.as_deref()?, s)))
        .collect();
    let mut edges = Vec::new();
    let mut prompt_children = Vec::new();
    for a in p.agents.iter().filter(|a| a.layout != AgentLayout::Main) {
        let id = a.agent_id.as_str();
        let edge = |parent: &str, join_path, tool_use_id: Option<&str>| Edge {
            child: id.to_string(),
            parent: Some(parent.to_string()),
            join_path,
            tool_use_id: tool_use_id.map(str::to_string),
        };
        if a.layout == AgentLayout::Child {
            // Its parent is an agent of the session (the tree is built
            // by these links), else the main agent.
            let parent = a
                .parent_id
                .as_deref()
                .filter(|q| *q != id && p.agents.iter().any(|b| b.agent_id == *q))
                .unwrap_or(main);
            edges.push(edge(parent, JoinPath::ParentRecord, None));
            continue;
        }
        if a.layout == AgentLayout::Chat {
            // Gemini files a subagent's chat in its session's folder.
            edges.push(edge(main, JoinPath::Directory, None));
            continue;
        }
        if a.layout == AgentLayout::Workflow {
            let wf = a.workflow_id.as_deref().unwrap_or("");
            let key = format!("wf_{wf}");
            let found = dispatcher.get(wf).or_else(|| dispatcher.get(key.as_str()));
            edges.push(match found {
                Some(s) => edge(&s.owner, JoinPath::Directory, Some(&s.tool_use_id)),
                None => edge(main, JoinPath::Directory, None),
            });
            continue;
        }
        let anchor = a
            .sidecar_tool_use_id
            .as_deref()
            .or_else(|| by_child.get(id).map(|s| s.tool_use_id.as_str()))
            .or_else(|| queue_by_task.get(id).copied());
        if let Some(anchor) = anchor {
            edges.push(if let Some(s) = by_id.get(anchor) {
                edge(&s.owner, JoinPath::ToolUse, Some(anchor))
            } else if let Some(owner) = queue_owner.get(anchor) {
                edge(owner, JoinPath::QueueOperation, Some(anchor))
            } else {
                // The block was evicted (compaction): the anchor still names the call.
                edge(main, JoinPath::TaskNotification, Some(anchor))
            });
            continue;
        }
        if let Some(note) = a.notification_tool_use_id.as_deref() {
            let parent = by_id.get(note).map_or(main, |s| s.owner.as_str());
            edges.push(edge(parent, JoinPath::TaskNotification, Some(note)));
            continue;
        }
        let bare_explore = a.agent_type.as_deref() == Some("Explore") && a.spawn_depth.is_none();
        if let Some(r) = p
            .progress_refs
            .iter()
            .find(|r| bare_explore && r.agent_id == id)
        {
            edges.push(edge(&r.owner, JoinPath::LegacyExplore, None));
            continue;
        }
        match a.layout {
            AgentLayout::Inline | AgentLayout::Flat => prompt_children.push(a),
            _ => edges.push(Edge {
                child: id.to_string(),
                parent: None,
                join_path: JoinPath::Orphan,
                tool_use_id: None,
            }),
        }
    }
    // prompt_match: pair children and unclaimed calls with the same prompt in time order.
    let claimed: BTreeSet<&str> = edges
        .iter()
        .filter_map(|e| e.tool_use_id.as_deref())
        .collect();
    let mut calls: Vec<&Spawn> = p
        .spawns
        .iter()
        .filter(|s| s.prompt.is_some() && !claimed.contains(s.tool_use_id.as_str()))
        .collect();
    calls.sort_by(|x, y| (x.at, &x.tool_use_id).cmp(&(y.at, &y.tool_use_id)));
    prompt_children.sort_by(|x, y| (x.first_seen, &x.agent_id).cmp(&(y.first_seen, &y.agent_id)));
    let mut used = vec![false; calls.len()];
    for a in prompt_children {
        let pick = calls.iter().enumerate().find(|(i, s)| {
            !used[*i]
                && s.prompt == a.first_prompt
                && a.first_prompt.is_some()
                && s.owner != a.agent_id
        });
        edges.push(match pick {
            Some((i, s)) => {
                used[i] = true;
                Edge {
                    child: a.agent_id.clone(),
                    parent: Some(s.owner.clone()),
                    join_path: JoinPath::PromptMatch,
                    tool_use_id: Some(s.tool_use_id.clone()),
                }
            }
            // An old flat agent file names its session in every record
            // (Claude Code 2.0.x started warm-up agents no call spawned):
            // under the session's main agent, with no call. An inline
            // sidechain with no matching call is an orphan: nothing but its
            // place in the file ties it to the main agent.
            None if a.layout == AgentLayout::Flat => Edge {
                child: a.agent_id.clone(),
                parent: Some(main.to_string()),
                join_path: JoinPath::SessionOnly,
                tool_use_id: None,
            },
            None => Edge {
                child: a.agent_id.clone(),
                parent: None,
                join_path: JoinPath::Orphan,
                tool_use_id: None,
            },
        });
    }
    edges.sort_by(|x, y| x.child.cmp(&y.child));
    edges
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON names (`tree --json`'s join_path) are the stored names, and
    /// every stored name reads back.
    #[test]
    fn json_names_are_the_stored_names() {
        for j in JoinPath::ALL {
            assert_eq!(serde_json::to_value(j).unwrap(), j.as_str());
            assert_eq!(JoinPath::parse(j.as_str()), Some(j));
        }
        assert_eq!(JoinPath::parse("sidecar"), None);
    }
}
