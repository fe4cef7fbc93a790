//! An agent as a file opens it, and the `.meta.json` sidecar Claude Code
//! writes beside a subagent's transcript.

use super::{BOM, SessionParser};
use crate::domain::transcript::wire::Sidecar;
use crate::domain::transcript::{Agent, AgentLayout, BadLine};

pub(super) fn new_agent(
    id: &str,
    layout: AgentLayout,
    path: &str,
    workflow_id: Option<String>,
) -> Agent {
    Agent {
        agent_id: id.to_string(),
        layout,
        transcript_path: path.to_string(),
        agent_type: None,
        description: None,
        spawn_depth: None,
        sidecar_tool_use_id: None,
        workflow_id,
        first_seen: None,
        last_seen: None,
        records: 0,
        first_prompt: None,
        notification_tool_use_id: None,
        ending: None,
        finished: false,
        parent_id: None,
    }
}

pub(super) fn read_sidecar(
    b: &mut SessionParser,
    agent: &mut Agent,
    path: &str,
    bytes: &[u8],
) -> Result<(), BadLine> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    match serde_json::from_slice::<Sidecar>(bytes) {
        Ok(meta) => {
            agent.agent_type = meta.agent_type.filter(|s| !s.is_empty());
            agent.description = meta
                .description
                .filter(|s| !s.is_empty())
                .map(|d| crate::domain::redact::redact_text(&d).into_owned());
            agent.sidecar_tool_use_id = meta.tool_use_id.filter(|s| !s.is_empty());
            agent.spawn_depth = meta.spawn_depth;
            agent.finished = meta.finished == Some(true);
            if let Some(model) = meta.model.filter(|m| !m.is_empty()) {
                b.sidecar_models.insert(agent.agent_id.clone(), model);
            }
            Ok(())
        }
        Err(e) => b.bad(path, 0, format!("unreadable sidecar: {e}")),
    }
}
