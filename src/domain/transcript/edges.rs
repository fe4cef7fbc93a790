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

use super::{Agent, AgentLayout, ParsedSession, Spawn};

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
    let index = Index::of(p);
    let mut edges = Vec::new();
    let mut prompt_children = Vec::new();
    for a in p.agents.iter().filter(|a| a.layout != AgentLayout::Main) {
        match index.direct(p, a) {
            Some(e) => edges.push(e),
            None if matches!(a.layout, AgentLayout::Inline | AgentLayout::Flat) => {
                prompt_children.push(a);
            }
            None => edges.push(Edge {
                child: a.agent_id.clone(),
                parent: None,
                join_path: JoinPath::Orphan,
                tool_use_id: None,
            }),
        }
    }
    let matched = prompt_match(p, &edges, prompt_children);
    edges.extend(matched);
    edges.sort_by(|x, y| x.child.cmp(&y.child));
    edges
}

/// A session's spawn calls and queue operations, looked up by what an
/// agent may name.
struct Index<'p> {
    main: &'p str,
    by_id: HashMap<&'p str, &'p Spawn>,
    by_child: HashMap<&'p str, &'p Spawn>,
    queue_by_task: HashMap<&'p str, &'p str>,
    queue_owner: HashMap<&'p str, &'p str>,
    dispatcher: HashMap<&'p str, &'p Spawn>,
}

impl<'p> Index<'p> {
    fn of(p: &'p ParsedSession) -> Index<'p> {
        let ops = &p.queue_ops;
        Index {
            main: p.session_id.as_str(),
            by_id: p
                .spawns
                .iter()
                .map(|s| (s.tool_use_id.as_str(), s))
                .collect(),
            by_child: p
                .spawns
                .iter()
                .filter_map(|s| Some((s.result.as_ref()?.child_agent_id.as_deref()?, s)))
                .collect(),
            queue_by_task: ops
                .iter()
                .filter_map(|q| Some((q.task_id.as_deref()?, q.tool_use_id.as_deref()?)))
                .collect(),
            queue_owner: ops
                .iter()
                .filter_map(|q| Some((q.tool_use_id.as_deref()?, q.owner.as_str())))
                .collect(),
            dispatcher: p
                .spawns
                .iter()
                .filter(|s| s.tool == "Workflow")
                .filter_map(|s| Some((s.workflow_id.as_deref()?, s)))
                .collect(),
        }
    }

    /// The edge of agent `a` that its layout or a name it carries decides;
    /// `None` when only matching its prompt can (or nothing).
    fn direct(&self, p: &ParsedSession, a: &Agent) -> Option<Edge> {
        let (id, main) = (a.agent_id.as_str(), self.main);
        let edge = |parent: &str, join_path, tool_use_id: Option<&str>| Edge {
            child: id.to_string(),
            parent: Some(parent.to_string()),
            join_path,
            tool_use_id: tool_use_id.map(str::to_string),
        };
        match a.layout {
            // Its parent is an agent of the session (the tree is built by
            // these links), else the main agent.
            AgentLayout::Child => {
                let parent = a
                    .parent_id
                    .as_deref()
                    .filter(|q| *q != id && p.agents.iter().any(|b| b.agent_id == *q))
                    .unwrap_or(main);
                return Some(edge(parent, JoinPath::ParentRecord, None));
            }
            // Gemini files a subagent's chat in its session's folder.
            AgentLayout::Chat => return Some(edge(main, JoinPath::Directory, None)),
            AgentLayout::Workflow => {
                let wf = a.workflow_id.as_deref().unwrap_or("");
                let key = format!("wf_{wf}");
                let found = self
                    .dispatcher
                    .get(wf)
                    .or_else(|| self.dispatcher.get(key.as_str()));
                return Some(match found {
                    Some(s) => edge(&s.owner, JoinPath::Directory, Some(&s.tool_use_id)),
                    None => edge(main, JoinPath::Directory, None),
                });
            }
            _ => {}
        }
        let anchor = a
            .sidecar_tool_use_id
            .as_deref()
            .or_else(|| self.by_child.get(id).map(|s| s.tool_use_id.as_str()))
            .or_else(|| self.queue_by_task.get(id).copied());
        if let Some(anchor) = anchor {
            return Some(if let Some(s) = self.by_id.get(anchor) {
                edge(&s.owner, JoinPath::ToolUse, Some(anchor))
            } else if let Some(owner) = self.queue_owner.get(anchor) {
                edge(owner, JoinPath::QueueOperation, Some(anchor))
            } else {
                // The block was evicted (compaction): the anchor still names the call.
                edge(main, JoinPath::TaskNotification, Some(anchor))
            });
        }
        if let Some(note) = a.notification_tool_use_id.as_deref() {
            let parent = self.by_id.get(note).map_or(main, |s| s.owner.as_str());
            return Some(edge(parent, JoinPath::TaskNotification, Some(note)));
        }
        let bare_explore = a.agent_type.as_deref() == Some("Explore") && a.spawn_depth.is_none();
        p.progress_refs
            .iter()
            .find(|r| bare_explore && r.agent_id == id)
            .map(|r| edge(&r.owner, JoinPath::LegacyExplore, None))
    }
}

/// prompt_match: pairs `children` with the calls no edge claimed that sent
/// the same prompt, in time order.
fn prompt_match(p: &ParsedSession, edges: &[Edge], mut children: Vec<&Agent>) -> Vec<Edge> {
    let main = p.session_id.as_str();
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
    children.sort_by(|x, y| (x.first_seen, &x.agent_id).cmp(&(y.first_seen, &y.agent_id)));
    let mut used = vec![false; calls.len()];
    let mut out = Vec::new();
    for a in children {
        let pick = calls.iter().enumerate().find(|(i, s)| {
            !used[*i]
                && s.prompt == a.first_prompt
                && a.first_prompt.is_some()
                && s.owner != a.agent_id
        });
        let (parent, join_path, tool_use_id) = match pick {
            Some((i, s)) => {
                used[i] = true;
                (
                    Some(s.owner.clone()),
                    JoinPath::PromptMatch,
                    Some(s.tool_use_id.clone()),
                )
            }
            // An old flat agent file names its session in every record
            // (Claude Code 2.0.x started warm-up agents no call spawned):
            // under the session's main agent, with no call. An inline
            // sidechain with no matching call is an orphan: nothing but its
            // place in the file ties it to the main agent.
            None if a.layout == AgentLayout::Flat => {
                (Some(main.to_string()), JoinPath::SessionOnly, None)
            }
            None => (None, JoinPath::Orphan, None),
        };
        out.push(Edge {
            child: a.agent_id.clone(),
            parent,
            join_path,
            tool_use_id,
        });
    }
    out
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
