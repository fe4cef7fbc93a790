//! A file as it opens: its agent, the format it is read in, and what lies
//! beside it (the `.meta.json` sidecar Claude Code writes beside a
//! subagent's transcript, the document of running totals Droid keeps).

use super::{BOM, SessionParser, StrictFailure};
use crate::domain::transcript::Format;
use crate::domain::transcript::wire::Sidecar;
use crate::domain::transcript::{Agent, AgentLayout, BadLine};

pub(crate) fn new_agent(
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
            agent.finished =
                meta.finished == Some(true) || meta.status.as_deref() == Some("completed");
            if let Some(model) = meta.model.filter(|m| !m.is_empty()) {
                b.sidecar_models.insert(agent.agent_id.clone(), model);
            }
            Ok(())
        }
        Err(e) => b.bad(path, 0, format!("unreadable sidecar: {e}")),
    }
}

impl SessionParser {
    /// Reads file `file` as `format`, which the walk knew it by (its name
    /// may say another: a Droid transcript's is Claude Code's shape).
    pub fn read_as(&mut self, file: usize, format: Format) {
        let f = &mut self.out.files[file];
        f.format = (format != Format::of_file(&f.rel_path)).then_some(format);
    }

    /// The document of running totals kept beside file `file` (at `rel`),
    /// read whole again at every change, after the file: a Droid
    /// session's `.settings.json`. A format that keeps none has it noted
    /// as a problem of the file.
    pub fn totals_document(
        &mut self,
        file: usize,
        rel: &str,
        bytes: &[u8],
    ) -> Result<(), StrictFailure> {
        self.clear_problem(rel);
        if let Some(read) = self.out.files[file].format().client().reads.totals_beside {
            return read(self, file, rel, bytes);
        }
        self.out.file_problems.push(BadLine {
            file: rel.to_string(),
            line: 0,
            reason: "not read: this format keeps no document of totals".into(),
        });
        Ok(())
    }
}
