//! A session kept as a row of a client's store (OpenCode's `session`
//! table, Hermes Agent's `sessions`, an OpenClaw agent's session windows,
//! a Mistral Vibe session folder's metadata): the facts every store's
//! reader shares, and how its agent is made.

use crate::domain::clock::Millis;
use crate::domain::transcript::AgentLayout;

/// Whether a stored transcript path names a session of the store called
/// `store`: `<store>#<id>`.
pub fn names_stored_session(rel_path: &str, store: &str) -> bool {
    let name = rel_path.rsplit('/').next().unwrap_or(rel_path);
    name.strip_prefix(store)
        .is_some_and(|rest| rest.starts_with('#'))
}

/// The path reports show for a session of the database at `db_rel`.
pub fn session_path(db_rel: &str, session_id: &str) -> String {
    format!("{db_rel}#{session_id}")
}

/// One `session` row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRow {
    pub id: String,
    pub parent_id: Option<String>,
    pub directory: String,
    pub title: Option<String>,
    pub version: Option<String>,
    pub agent: Option<String>,
    pub time_created: Millis,
    pub time_updated: Millis,
}

#[cfg(test)]
impl SessionRow {
    /// A row of a store's tree for the readers' tests: `id` under `parent`,
    /// created at 1,000 ms, updated at 2,000.
    pub(crate) fn for_test(id: &str, parent: Option<&str>) -> SessionRow {
        SessionRow {
            id: id.into(),
            parent_id: parent.map(str::to_string),
            directory: "/w/proj".into(),
            title: None,
            version: None,
            agent: None,
            time_created: 1_000,
            time_updated: 2_000,
        }
    }
}

impl SessionRow {
    /// Its title as an agent's description: the user's words (or a model's
    /// summary of them), redacted.
    pub fn description(&self) -> Option<String> {
        self.title
            .as_deref()
            .filter(|t| !t.is_empty())
            .map(|t| crate::domain::redact::redact_text(t).into_owned())
    }

    /// The agent this row is in a tree of a store's sessions (`i` its place:
    /// the first is the main agent, the others its subagents), at
    /// `<db_rel>#<id>`: its description, parent and times.
    pub fn agent(&self, db_rel: &str, i: usize) -> crate::domain::transcript::Agent {
        let layout = if i == 0 {
            AgentLayout::Main
        } else {
            AgentLayout::Child
        };
        let mut a = super::kit::new_agent(&self.id, layout, &session_path(db_rel, &self.id), None);
        a.description = self.description();
        a.parent_id = self.parent_id.clone();
        a.first_seen = Some(self.time_created);
        a.last_seen = Some(self.time_updated);
        a
    }
}
