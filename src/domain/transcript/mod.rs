//! Pure transcript parsing: bytes in, values out. No SQL, no file system.
//!
//! `parse_session` turns the files of one Claude Code session (already read by
//! `corpus/`) into the session's facts: its agents, one usage observation per
//! API message id (deduplicated inside the session), compaction boundaries and
//! the lines it could not read. `usage::merge` is the one rule that turns
//! observations of the same message, from anywhere, into one token row.

pub mod edges;
mod ending;
mod format;
mod parse;
mod placed;
pub mod said;
mod scan;
pub(crate) mod spawns;
mod store_row;
mod tail;
pub mod usage;
mod wire;

pub use edges::{Edge, JoinPath, resolve};
pub use ending::Ending;
pub use format::Format;
#[cfg(test)]
pub use parse::parse_session;
pub use parse::{
    FileCursor, Gap, Hole, ScannedLines, SessionParser, SpareCore, SpareCores, long_line_reason,
    scan_later, uuid_like,
};
pub use store_row::{SessionRow, names_stored_session, session_path};

/// What a client's own reader is made of.
pub(crate) mod kit {
    pub(crate) use super::parse::kit::*;
}
pub use placed::place;
pub use spawns::{BackgroundEnd, ProgressRef, QueueOp, Spawn, SpawnResult, background_end};
pub use tail::{assistant_tail, bash_runs, shell_runs, tool_evidence, written_files};
pub use usage::{Billing, Buckets, UsageObservation};

use crate::domain::clock::Millis;

/// Bump when parsing semantics change: it invalidates every ingest checkpoint.
pub const PARSER_REVISION: i64 = 13;

/// The kind of a transcript file inside a session, decided by its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileRole {
    /// `<slug>/<session>.jsonl`.
    Main,
    /// A subagent transcript; `layout` says which of the on-disk layouts held it.
    Agent {
        agent_id: String,
        layout: AgentLayout,
        workflow_id: Option<String>,
    },
}

/// Where an agent's records live.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AgentLayout {
    Main,
    /// Layout 1: an `isSidechain` chain inside the main transcript.
    Inline,
    /// Layout 2: `<slug>/agent-<id>.jsonl`.
    Flat,
    /// Layout 3: `<slug>/<session>/subagents/agent-<id>.jsonl`.
    Nested,
    /// Layout 4: `<slug>/<session>/subagents/workflows/wf_<id>/agent-<id>.jsonl`.
    Workflow,
    /// A subagent with a transcript of its own that names its caller: a
    /// Codex thread's rollout (its `session_meta` names the session's root
    /// thread), a Droid session (its `session_start` names the session
    /// that called it).
    Thread,
    /// A Gemini CLI subagent: `chats/<session>/<agent>.jsonl`.
    Chat,
    /// An OpenCode subagent: a session row of its own naming its parent
    /// session.
    Child,
    /// A Copilot CLI subagent: its events are in the session's own file,
    /// each tagged with its `agentId`.
    Tagged,
}

impl AgentLayout {
    pub fn as_str(self) -> &'static str {
        match self {
            AgentLayout::Main => "main",
            AgentLayout::Inline => "inline",
            AgentLayout::Flat => "flat",
            AgentLayout::Nested => "nested",
            AgentLayout::Workflow => "workflow",
            AgentLayout::Thread => "thread",
            AgentLayout::Chat => "chat",
            AgentLayout::Child => "child",
            AgentLayout::Tagged => "tagged",
        }
    }
}

/// One file of a session, with its bytes.
#[cfg(test)]
#[derive(Debug, Clone)]
pub struct SessionFile {
    /// Path relative to the corpus root, `/`-separated (what reports show).
    pub rel_path: String,
    pub role: FileRole,
    pub bytes: Vec<u8>,
    /// The `.meta.json` sidecar beside an agent file, when there is one.
    pub sidecar: Option<(String, Vec<u8>)>,
}

/// Everything `parse_session` needs: the session's identity and its files,
/// main transcript first.
#[cfg(test)]
#[derive(Debug, Clone)]
pub struct SessionInput {
    pub session_id: String,
    pub files: Vec<SessionFile>,
}

/// A line that could not be read. `line` is 1-based; 0 means the
/// whole file (an unreadable sidecar, say).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BadLine {
    pub file: String,
    pub line: u64,
    pub reason: String,
}

/// The trigger of a compaction whose model calls the harness records
/// nowhere (Gemini CLI's compression): their tokens are in no total.
pub const UNRECORDED_COMPACTION: &str = "compress";

/// The trigger of the compaction that says a client deleted the records
/// of some of a session's calls (their tokens are in its running totals).
pub const PRUNED_CALLS: &str = "journal-pruned";

/// A compaction: Claude Code's `compact_boundary` record, Gemini CLI's
/// compression (a `$set` of the messages starting from its summary).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Compaction {
    pub agent_id: String,
    pub file: String,
    pub line: u64,
    pub at: Option<Millis>,
    pub trigger: Option<String>,
    pub pre_tokens: Option<i64>,
}

/// One agent of a session: the main agent (id = session id) or a subagent.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Agent {
    pub agent_id: String,
    pub layout: AgentLayout,
    pub transcript_path: String,
    pub agent_type: Option<String>,
    pub description: Option<String>,
    pub spawn_depth: Option<i64>,
    pub sidecar_tool_use_id: Option<String>,
    pub workflow_id: Option<String>,
    pub first_seen: Option<Millis>,
    pub last_seen: Option<Millis>,
    pub records: u64,
    /// Hash of the agent's first user message when it is a plain string (the
    /// prompt of the call that spawned it, for `prompt_match`).
    pub first_prompt: Option<u64>,
    /// `<tool-use-id>` of a `<task-notification>` in the first user message.
    pub notification_tool_use_id: Option<String>,
    /// What the agent's last message record states (a failure, an
    /// interrupt), with that record's time.
    pub ending: Option<(Ending, Option<Millis>)>,
    /// Its sidecar says the agent finished (`finished: true`, background
    /// agents of Claude Code 2.1.3xx).
    #[serde(default)]
    pub finished: bool,
    /// The agent its own record names as its parent (an OpenCode
    /// session's `parent_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
}

/// What one session's files say — or, read in parts (a file too large to
/// hold, or only the bytes appended since the last run), what they say so
/// far: the session-wide facts (agents, spawns, counts) as of the end of the
/// part, and the part's own messages, compactions and bad lines.
///
/// Serialized without the part's own lists, it is the state a later run
/// resumes from (`SessionParser::resume`).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct ParsedSession {
    pub session_id: String,
    pub cwd: Option<String>,
    pub git_branch: Option<String>,
    pub harness_version: Option<String>,
    pub started_at: Option<Millis>,
    pub last_activity_at: Option<Millis>,
    pub agents: Vec<Agent>,
    /// One per message id, in first-seen order (this part's).
    #[serde(skip)]
    pub usage: Vec<UsageObservation>,
    /// This part's.
    #[serde(skip)]
    pub compactions: Vec<Compaction>,
    /// Spawn calls (`Task`, `Agent`, `Workflow`) in any transcript, with results.
    pub spawns: Vec<Spawn>,
    pub queue_ops: Vec<QueueOp>,
    pub progress_refs: Vec<ProgressRef>,
    /// This part's.
    #[serde(skip)]
    pub bad_lines: Vec<BadLine>,
    /// Bad lines of the whole session so far (this part's included).
    pub bad_lines_total: u64,
    /// Files (and sidecars) that could not be read at all, as they stand
    /// now (line 0): kept in the state and replaced, not appended, since a
    /// file unreadable once may be read the next time.
    pub file_problems: Vec<BadLine>,
    pub records: u64,
    pub unknown_records: u64,
    /// Synthetic messages among this part's `usage`.
    #[serde(skip)]
    pub synthetic_messages: u64,
    /// Bytes of complete lines read (a still-being-written final line is not counted).
    pub bytes: u64,
    /// Each file's reading position, in the order the files were begun.
    pub files: Vec<FileCursor>,
    /// The main transcript holds inline sidechains: their chains are only
    /// known whole, so such a session is never resumed, always re-read.
    pub inline: bool,
    /// This part continues the session (its messages add to what is stored)
    /// rather than replacing it.
    #[serde(skip)]
    pub delta: bool,
    /// The harness's own running totals (Claude Code 2.1.3xx `cost-state`
    /// records), the last one: reported, never added to totals.
    #[serde(default)]
    pub harness_cost: Option<HarnessCost>,
    /// What this part's records say, for search (only when the parser
    /// was asked to read it: `SessionParser::read_said`).
    #[serde(skip)]
    pub said: Vec<said::Said>,
    /// The session's title (`TitleRank` says where it came from),
    /// redacted, one line, cut.
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub title_rank: TitleRank,
}

impl ParsedSession {
    /// A session read whole from a store: its client's own title, when it
    /// has one (`TitleRank::Client`), then what it said, read by `read`
    /// with `said`'s options when asked for search, or without them only
    /// for its first prompt when it has no title yet.
    pub fn title_and_said(
        &mut self,
        client_title: Option<&str>,
        said: Option<said::SaidOptions>,
        read: impl FnOnce(said::SaidOptions) -> Option<Vec<said::Said>>,
    ) {
        if let Some(t) = client_title {
            self.offer_title(t, TitleRank::Client);
        }
        let wants_title = self.title_rank == TitleRank::None;
        let Some(found) = said
            .or(wants_title.then(said::SaidOptions::default))
            .and_then(read)
        else {
            return;
        };
        let main = self.session_id.clone();
        self.offer_prompt(
            found
                .iter()
                .filter(|s| s.agent_id == main)
                .flat_map(|s| &s.pieces),
        );
        if said.is_some() {
            self.said = found;
        }
    }

    /// Offers the first of `pieces` a person said as the title (the
    /// client's injections are no pieces).
    pub fn offer_prompt<'a>(&mut self, pieces: impl IntoIterator<Item = &'a said::Piece>) {
        if let Some(p) = pieces.into_iter().find(|p| p.role == said::Role::User) {
            self.offer_title(&p.text, TitleRank::Prompt);
        }
    }

    /// Offers `text` (redacted here) as the session's title from `rank`:
    /// taken over a weaker source's, and over the same source's when that
    /// source is a latest-wins one (a client's title, a name).
    pub fn offer_title(&mut self, text: &str, rank: TitleRank) {
        let cur = self.title_rank;
        if rank < cur || (rank == cur && rank <= TitleRank::Prompt) {
            return;
        }
        if let Some(t) = title_of(&crate::domain::redact::redact_text(text)) {
            self.title = Some(t);
            self.title_rank = rank;
        }
    }
}

/// Where a session's title came from, weakest first: a title from a
/// stronger source replaces one from a weaker.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
)]
pub enum TitleRank {
    #[default]
    None,
    /// The first prompt the person typed.
    Prompt,
    /// A title the client made (a model's summary of the session): its
    /// latest.
    Client,
    /// A name the person gave the session: its latest.
    Named,
}

/// A session title's longest form, in characters.
pub const TITLE_CHARS: usize = 80;

/// `text` as a title: one line, runs of white space as one space, cut at a
/// word within `TITLE_CHARS` (`…` says it was cut); `None` when nothing is
/// left.
pub fn title_of(text: &str) -> Option<String> {
    let whole = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if whole.is_empty() {
        return None;
    }
    if whole.chars().count() <= TITLE_CHARS {
        return Some(whole);
    }
    // Cut at the last space that leaves room for the `…`, else mid-word.
    let room: String = whole.chars().take(TITLE_CHARS - 1).collect();
    let kept = match room.rfind(' ') {
        Some(i) if i > 0 => &room[..i],
        _ => room.as_str(),
    };
    Some(format!("{kept}…"))
}

/// What the harness itself says a session cost, as its last `cost-state`
/// record states it.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HarnessCost {
    pub at: Option<Millis>,
    /// `totalCostUSD`, to the nano-dollar.
    pub cost_nanousd: i64,
    /// `modelUsage`, by model.
    pub models: Vec<HarnessModelCost>,
    /// Each response the client priced in this read (its message id, the
    /// cost): written as read, never carried in the resume state.
    #[serde(skip)]
    pub responses: Vec<(String, i64)>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HarnessModelCost {
    pub model: String,
    pub tokens: Buckets,
    pub web_searches: u64,
    pub cost_nanousd: i64,
}

impl HarnessCost {
    /// Adds one response the client priced itself (pi and OpenCode write
    /// each message's cost, in dollars): its tokens and cost under its
    /// model. Zero is no figure (both write 0 for a model they have no
    /// price for), nor is a cost that is not a finite positive number.
    pub fn add_response(
        &mut self,
        message_id: &str,
        model: &str,
        at: Option<Millis>,
        tokens: Buckets,
        usd: f64,
    ) {
        if !usd.is_finite() || usd <= 0.0 {
            return;
        }
        let nano = (usd * 1e9).round() as i64;
        self.responses.push((message_id.to_string(), nano));
        self.at = self.at.max(at);
        self.cost_nanousd += nano;
        match self.models.iter_mut().find(|m| m.model == model) {
            Some(m) => {
                m.tokens.add(tokens);
                m.cost_nanousd += nano;
            }
            None => self.models.push(HarnessModelCost {
                model: model.to_string(),
                tokens,
                web_searches: 0,
                cost_nanousd: nano,
            }),
        }
    }
}

impl ParsedSession {
    /// Lines and files of the session that could not be read, in all.
    pub fn degraded(&self) -> u64 {
        self.bad_lines_total + self.file_problems.len() as u64
    }
}
