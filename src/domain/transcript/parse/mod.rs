//! Reduces the lines of one session's files to a `ParsedSession`, a block
//! of complete lines at a time, so that a file of any size is read in
//! bounded memory and a file that only grew is read from where it stopped.

mod agent;
mod block;
mod cost;
mod holes;
mod lines;
mod prescan;
mod spawned;
mod state;
mod tokens;
mod words;
pub use lines::uuid_like;

/// What a client's own reader is made of.
pub(crate) mod kit {
    pub(crate) use super::SessionParser;
    pub(crate) use super::agent::new_agent;
    pub(crate) use super::block::{parse_block as read_claude_code, set_first};
    #[cfg(test)]
    pub(crate) use super::input_cached_output;
    pub(crate) use super::lines::{
        BOM, Owner, json_records, saw, typed_records, uuid_like, whole_document,
    };
}

use agent::{new_agent, read_sidecar};
use block::parse_scanned;
pub use holes::{Gap, Hole};
use lines::BOM;
pub use prescan::{ScannedLines, scan_later};
pub use state::{FileCursor, SpareCore, SpareCores};
use state::{OpenFile, SideRecord, Span};

use std::collections::HashMap;
use std::sync::Arc;

#[cfg(test)]
use super::SessionInput;
use super::ending::Ending;
use super::{Agent, AgentLayout, BadLine, FileRole, ParsedSession, TitleRank};
use crate::domain::clock::Millis;
use crate::domain::transcript::said::{Piece, Said, SaidOptions};

/// The first malformed line of a session parsed with `strict` set.
pub type StrictFailure = BadLine;

/// Parses one session a block of lines at a time: `begin_main` and
/// `begin_agent` open each file (main transcript first), `block` feeds its
/// lines, `take_part` hands over what was read so far, `finish` the rest.
/// `resume` continues from the state a part left.
pub struct SessionParser {
    pub(crate) out: ParsedSession,
    /// Each message's place in `out.usage`, by message id (one lookup a
    /// record: a quicker hash than SipHash).
    usage_index: HashMap<String, usize, foldhash::fast::RandomState>,
    /// Each agent's span, by agent id.
    spans: HashMap<String, Span>,
    /// Each agent's ending, from its file's last message record.
    pub(crate) endings: HashMap<String, (Ending, Option<Millis>)>,
    /// Parent of each inline sidechain record (by uuid) seen so far.
    side_parent: HashMap<String, Option<String>>,
    open: Vec<Option<OpenFile>>,
    strict: bool,
    /// Lines longer than this (line ending included) are degraded, not read.
    line_cap: u64,
    /// Cores a large block may borrow (`SpareCores`).
    spare: Option<Arc<SpareCores>>,
    /// The model an agent's sidecar names, by agent id: what its own lines
    /// ran on when they do not say (Qwen Code's subagents).
    sidecar_models: HashMap<String, String>,
    /// What the records say is read too (`ParsedSession::said`).
    pub(crate) said: Option<SaidOptions>,
    /// Token counts are read (`ParsedSession::usage`); building the
    /// search index reads words alone.
    usage: bool,
    /// Long lines that say nothing are noted (`FileCursor::holes`).
    holes: bool,
    /// The holes left out of the next block's bytes (`read_around`).
    gaps: Vec<Gap>,
}

/// Why a line over the line cap was not read.
pub fn long_line_reason(len: u64, cap: u64) -> String {
    format!("line of {len} bytes is over the {cap}-byte line cap (ingest.max_line_size); not read")
}

impl SessionParser {
    pub(crate) fn bad(&mut self, file: &str, line: u64, reason: String) -> Result<(), BadLine> {
        let mut reason = reason;
        reason.truncate(300);
        let bad = BadLine {
            file: file.to_string(),
            line,
            reason,
        };
        if self.strict {
            return Err(bad);
        }
        if line == 0 {
            self.clear_problem(file);
            self.out.file_problems.push(bad);
        } else {
            self.out.bad_lines.push(bad);
            self.out.bad_lines_total += 1;
        }
        Ok(())
    }

    /// A file read now: whatever kept it from being read before is gone.
    fn clear_problem(&mut self, file: &str) {
        self.out.file_problems.retain(|b| b.file != file);
    }

    pub(crate) fn span(&mut self, agent: &str) -> &mut Span {
        if !self.spans.contains_key(agent) {
            self.spans.insert(agent.to_string(), Span::new());
        }
        self.spans.get_mut(agent).expect("inserted above")
    }
}

impl SessionParser {
    /// A parser for session `session_id`. With `strict`, the first malformed
    /// line is returned as an error; otherwise it is listed in `bad_lines`.
    pub fn new(session_id: &str, strict: bool) -> SessionParser {
        SessionParser {
            out: ParsedSession {
                session_id: session_id.to_string(),
                ..ParsedSession::default()
            },
            usage_index: HashMap::default(),
            spans: HashMap::new(),
            endings: HashMap::new(),
            side_parent: HashMap::new(),
            open: Vec::new(),
            strict,
            line_cap: u64::MAX,
            spare: None,
            sidecar_models: HashMap::new(),
            said: None,
            usage: true,
            holes: false,
            gaps: Vec::new(),
        }
    }

    /// The model `agent`'s sidecar names, if any.
    pub(crate) fn sidecar_model(&self, agent: &str) -> Option<&str> {
        self.sidecar_models.get(agent).map(String::as_str)
    }

    /// Reads what the records say (prompts, answers, tool calls; tool
    /// outputs as `opts` says) into each part's `said`; `None` reads none.
    pub fn read_said(&mut self, opts: Option<SaidOptions>) {
        self.said = opts;
    }

    /// Notes in each file's cursor where its long lines that say nothing
    /// are (`FileCursor::holes`), for a later build of the search index
    /// to read around: a reading whose state is kept does.
    pub fn note_holes(&mut self, on: bool) {
        self.holes = on;
    }

    /// Whether lines are scanned for their content's blocks: to read what
    /// they say, or to know that they say nothing.
    pub fn scans_blocks(&self) -> bool {
        self.said.is_some() || self.holes
    }

    /// The next block's bytes leave out `gaps` (holes a build reads
    /// around, in order): their lines are counted, and the file's cursor
    /// passes them, where they were.
    pub fn read_around(&mut self, gaps: Vec<Gap>) {
        self.gaps = gaps;
    }

    /// Keeps what a record says, for the agent `agent`.
    pub(crate) fn keep_said(
        &mut self,
        agent: &str,
        record: String,
        at: Option<Millis>,
        pieces: Vec<Piece>,
    ) {
        if agent == self.out.session_id && self.wants_prompt_title() {
            self.offer_prompt(&pieces);
        }
        if !pieces.is_empty() {
            self.out.said.push(Said {
                agent_id: agent.to_string(),
                record,
                at,
                pieces,
            });
        }
    }

    /// Lets large blocks borrow the run's spare cores.
    pub fn share_cores(&mut self, spare: Option<Arc<SpareCores>>) {
        self.spare = spare;
    }

    /// Borrows one of the run's spare cores (for a thread that scans ahead:
    /// blocks then borrow none), when one is spare.
    pub fn borrow_core(&self) -> Option<SpareCore> {
        self.spare.as_ref().and_then(SpareCores::take)
    }

    /// Lines longer than `cap` bytes (line ending included) are degraded
    /// lines from now on. A reader holding a block of lines enforces it
    /// for lines longer than the block (`skip_line`).
    pub fn set_line_cap(&mut self, cap: u64) {
        self.line_cap = cap;
    }

    /// An agent's latest message record: whether it ended its turn (an
    /// answer with nothing left to run). Whatever ending an earlier record
    /// stated gives way to it.
    pub(crate) fn turn(
        &mut self,
        agent: &str,
        ended: bool,
        at: Option<crate::domain::clock::Millis>,
    ) {
        if ended {
            self.endings
                .insert(agent.to_string(), (Ending::TurnEnd, at));
        } else {
            self.endings.remove(agent);
        }
    }

    /// `turn` for an agent whose own file says how its task stands: a
    /// subagent whose turn ended finished its task (a later prompt goes
    /// on with it); the main agent's turn only ends.
    pub(crate) fn task_turn(
        &mut self,
        agent: &str,
        ended: bool,
        at: Option<crate::domain::clock::Millis>,
    ) {
        self.turn(agent, ended, at);
        if let Some(a) = self
            .out
            .agents
            .iter_mut()
            .find(|a| a.agent_id == agent && a.layout != AgentLayout::Main)
        {
            a.finished = ended;
        }
    }

    /// `agent`'s turn failed at `at`: the model's API refused or failed
    /// its request (a later prompt or answer goes on from there).
    pub(crate) fn failed(&mut self, agent: &str, at: Option<crate::domain::clock::Millis>) {
        self.endings
            .insert(agent.to_string(), (Ending::ApiError, at));
    }

    /// Whether `agent`'s last turn failed (`failed`).
    pub(crate) fn has_failed(&self, agent: &str) -> bool {
        self.endings
            .get(agent)
            .is_some_and(|(e, _)| *e == Ending::ApiError)
    }

    /// The session's working directory as its layout names it (Gemini
    /// CLI's `.project_root`; its chats name none). Set before any block.
    pub fn hint_cwd(&mut self, cwd: Option<&str>) {
        block::set_first(&mut self.out.cwd, cwd);
    }

    /// A parser that goes on from a state an earlier part left (its files'
    /// cursors say where). Its parts add to what is stored. A state with
    /// inline sidechains cannot be resumed (their chains are only known
    /// whole): `None`.
    pub fn resume(state: ParsedSession, strict: bool) -> Option<SessionParser> {
        if state.inline {
            return None;
        }
        let mut p = SessionParser::new(&state.session_id, strict);
        for a in &state.agents {
            p.spans.entry(a.agent_id.clone()).or_insert(Span {
                first: a.first_seen,
                last: a.last_seen,
                records: a.records,
            });
            if let Some(e) = a.ending {
                p.endings.entry(a.agent_id.clone()).or_insert(e);
            }
        }
        p.open = state.files.iter().map(|_| None).collect();
        p.out = ParsedSession {
            bad_lines_total: state.bad_lines_total,
            delta: true,
            ..state
        };
        Some(p)
    }

    /// The cursor of an open file.
    pub fn cursor(&self, file: usize) -> &FileCursor {
        &self.out.files[file]
    }

    /// Opens the file at `rel_path`: the one a resumed state already knows
    /// (reading goes on at its cursor), or a new one. Returns its handle.
    fn begin(&mut self, rel_path: &str, agent: Agent, main: bool) -> usize {
        self.clear_problem(rel_path);
        if let Some(i) = self.out.files.iter().position(|f| f.rel_path == rel_path) {
            let f = &self.out.files[i];
            let agent_at = self
                .out
                .agents
                .iter()
                .position(|a| a.agent_id == f.agent_id && a.transcript_path == rel_path)
                .unwrap_or_else(|| {
                    self.out.agents.push(agent);
                    self.out.agents.len() - 1
                });
            // The calls this file made that are still waiting for a result.
            let owner = f.agent_id.as_str();
            let pending = self
                .out
                .spawns
                .iter()
                .enumerate()
                .filter(|(_, s)| s.owner == owner && s.result.is_none())
                .map(|(i, s)| (s.tool_use_id.clone(), i))
                .collect();
            self.open[i] = Some(OpenFile {
                pending,
                agent: agent_at,
            });
            return i;
        }
        self.out.files.push(FileCursor {
            rel_path: rel_path.to_string(),
            agent_id: agent.agent_id.clone(),
            main,
            offset: 0,
            line: 0,
            first_user_seen: main,
            model: None,
            usage_records: false,
            running_total: None,
            history_of: None,
            replayed_turn: false,
            format: None,
            holes: Vec::new(),
        });
        self.out.agents.push(agent);
        self.open.push(Some(OpenFile {
            pending: HashMap::new(),
            agent: self.out.agents.len() - 1,
        }));
        self.out.files.len() - 1
    }

    /// The main transcript (begin it first): the main agent and its inline sidechains.
    pub fn begin_main(&mut self, rel_path: &str) -> usize {
        let sid = self.out.session_id.clone();
        self.begin(
            rel_path,
            new_agent(&sid, AgentLayout::Main, rel_path, None),
            true,
        )
    }

    /// A subagent transcript, with its `.meta.json` sidecar when there is
    /// one (read again on every run: Claude Code rewrites it).
    pub fn begin_agent(
        &mut self,
        rel_path: &str,
        role: &FileRole,
        sidecar: Option<(&str, &[u8])>,
    ) -> Result<usize, StrictFailure> {
        let FileRole::Agent {
            agent_id,
            layout,
            workflow_id,
        } = role
        else {
            return Ok(self.begin_main(rel_path));
        };
        let file = self.begin(
            rel_path,
            new_agent(agent_id, *layout, rel_path, workflow_id.clone()),
            false,
        );
        if let Some((meta_path, meta)) = sidecar {
            self.clear_problem(meta_path);
            let at = self.open[file].as_ref().expect("just opened").agent;
            let mut agent = self.out.agents[at].clone();
            read_sidecar(self, &mut agent, meta_path, meta)?;
            self.out.agents[at] = agent;
        }
        Ok(file)
    }

    /// Reads the complete lines at the start of `bytes`, which begin at the
    /// file's cursor. Returns how many bytes were read (through the last
    /// newline); the rest is an unfinished line to give again, longer.
    pub fn block(&mut self, file: usize, bytes: &[u8]) -> Result<u64, StrictFailure> {
        if let Some(read) = self.out.files[file].format().client().reads.lines {
            let read = read(self, file, bytes);
            // The reader that reads around gaps took them; none is left
            // for the next block.
            self.gaps.clear();
            return read;
        }
        // Read from its store's rows, never as lines.
        let rel = self.out.files[file].rel_path.clone();
        self.out.file_problems.push(BadLine {
            file: rel,
            line: 0,
            reason: "a session kept in a database is read from its rows, not as lines".into(),
        });
        Ok(bytes.len() as u64)
    }

    /// Whether file `file`'s lines can be scanned apart from reading them
    /// (`scan_later`, `block_scanned`): its format's (`Format::scans_apart`).
    pub fn scans_apart(&self, file: usize) -> bool {
        self.out.files[file].format().scans_apart()
    }

    /// `block` for bytes whose later lines were scanned by `scan_later`:
    /// `first` holds the lines before them, from the file's cursor, and
    /// ends with a newline. Only for a file that `scans_apart`.
    pub fn block_scanned(
        &mut self,
        file: usize,
        first: &[u8],
        later: ScannedLines<'_>,
    ) -> Result<u64, StrictFailure> {
        debug_assert!(self.scans_apart(file));
        parse_scanned(self, file, first, later)
    }

    /// A line of `len` bytes (its newline included) that was not read: it
    /// counts as a line, degraded with `reason`.
    /// File `file` ends in `bytes` without a newline, not read: a problem
    /// of the whole file until they end in one (never a strict failure: a
    /// client may be writing the line now).
    pub fn unended(&mut self, file: usize, bytes: u64) {
        let rel = self.out.files[file].rel_path.clone();
        self.clear_problem(&rel);
        self.out.file_problems.push(BadLine {
            file: rel,
            line: 0,
            reason: format!("the last {bytes} bytes have no newline: not read until the line ends"),
        });
    }

    pub fn skip_line(
        &mut self,
        file: usize,
        len: u64,
        reason: String,
    ) -> Result<(), StrictFailure> {
        let f = &mut self.out.files[file];
        f.line += 1;
        f.offset += len;
        let (rel, line) = (f.rel_path.clone(), f.line);
        self.out.bytes += len;
        self.bad(&rel, line, reason)
    }

    /// Lines that could not be read at all (an unreadable file) join the rest.
    pub fn add_bad_line(&mut self, bad: BadLine) -> Result<(), StrictFailure> {
        self.bad(&bad.file, bad.line, bad.reason)
    }

    /// What was read since the last part: the session's facts as of now and
    /// this part's messages, compactions and bad lines. Later parts continue it.
    pub fn take_part(&mut self) -> ParsedSession {
        let mut agents = self.out.agents.clone();
        for a in &mut agents {
            if let Some(span) = self.spans.get(&a.agent_id) {
                a.first_seen = span.first;
                a.last_seen = span.last;
                a.records = span.records;
            }
            a.ending = self.endings.get(&a.agent_id).copied();
        }
        let usage = std::mem::take(&mut self.out.usage);
        self.usage_index.clear();
        let part = ParsedSession {
            session_id: self.out.session_id.clone(),
            cwd: self.out.cwd.clone(),
            git_branch: self.out.git_branch.clone(),
            harness_version: self.out.harness_version.clone(),
            started_at: self.out.started_at,
            last_activity_at: self.out.last_activity_at,
            agents,
            synthetic_messages: usage.iter().filter(|u| u.model == "<synthetic>").count() as u64,
            usage,
            compactions: std::mem::take(&mut self.out.compactions),
            spawns: self.out.spawns.clone(),
            queue_ops: self.out.queue_ops.clone(),
            progress_refs: self.out.progress_refs.clone(),
            bad_lines: std::mem::take(&mut self.out.bad_lines),
            bad_lines_total: self.out.bad_lines_total,
            file_problems: self.out.file_problems.clone(),
            records: self.out.records,
            unknown_records: self.out.unknown_records,
            bytes: self.out.bytes,
            files: self.out.files.clone(),
            inline: self.out.inline,
            delta: self.out.delta,
            harness_cost: self.out.harness_cost.clone(),
            said: std::mem::take(&mut self.out.said),
            title: self.out.title.clone(),
            title_rank: self.out.title_rank,
        };
        self.out.delta = true;
        part
    }

    /// Whether the session has no title from its first prompt or better.
    pub(crate) fn wants_prompt_title(&self) -> bool {
        self.out.title_rank == TitleRank::None
    }

    /// Offers `text` as the session's title (`ParsedSession::offer_title`).
    pub(crate) fn offer_title(&mut self, text: &str, rank: TitleRank) {
        self.out.offer_title(text, rank);
    }

    /// Offers the first of `pieces` a person said as the title (the
    /// client's injections are no pieces).
    pub(crate) fn offer_prompt(&mut self, pieces: &[Piece]) {
        self.out.offer_prompt(pieces);
    }

    /// The session's facts: the last part.
    pub fn finish(mut self) -> ParsedSession {
        self.take_part()
    }
}

/// Parses a whole session held in memory (main transcript first): the
/// tests' way in; ingest streams files through `SessionParser`.
#[cfg(test)]
pub fn parse_session(input: &SessionInput, strict: bool) -> Result<ParsedSession, StrictFailure> {
    let mut p = SessionParser::new(&input.session_id, strict);
    for f in &input.files {
        let file = match &f.role {
            FileRole::Main => p.begin_main(&f.rel_path),
            role @ FileRole::Agent { .. } => p.begin_agent(
                &f.rel_path,
                role,
                f.sidecar.as_ref().map(|(r, b)| (r.as_str(), b.as_slice())),
            )?,
        };
        p.block(file, &f.bytes)?;
    }
    Ok(p.finish())
}

/// A parsed session's input, cache-read and output tokens, summed over
/// its messages (what the readers' tests compare with what was served).
#[cfg(test)]
pub(crate) fn input_cached_output(p: &ParsedSession) -> (u64, u64, u64) {
    p.usage.iter().fold((0, 0, 0), |(i, c, o), u| {
        (
            i + u.buckets.input,
            c + u.buckets.cache_read,
            o + u.buckets.output,
        )
    })
}

#[cfg(test)]
mod tests;
