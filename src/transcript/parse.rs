//! Reduces the lines of one session's files to a `ParsedSession`, a block
//! of complete lines at a time, so that a file of any size is read in
//! bounded memory and a file that only grew is read from where it stopped.

use std::collections::HashMap;
use std::sync::LazyLock;

use memchr::memmem::Finder;
use serde::{Deserialize, Serialize};

#[cfg(test)]
use super::SessionInput;
use super::ending::{self, Ending};
use super::scan;
use super::spawns::{self, ProgressRef, SpawnResult};
use super::usage::{Billing, Buckets, UsageObservation};
use super::wire::{self, KNOWN_TYPES, Record, Sidecar};
use super::{
    Agent, AgentLayout, BadLine, Compaction, FileRole, HarnessCost, HarnessModelCost, ParsedSession,
};
use crate::clock::{Millis, parse_instant};

/// The first malformed line of a session parsed with `strict` set.
pub type StrictFailure = BadLine;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The part of a block that holds complete lines: after a byte-order mark
/// (at the very start of a file only), up to its last newline (a final
/// segment with no newline is a write in progress, or the rest of the line
/// in the next block); and the byte length through that newline.
fn complete_body(bytes: &[u8], file_start: bool) -> (&[u8], u64) {
    let end = memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1);
    let skip = if file_start && bytes[..end].starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    (&bytes[skip..end], end as u64)
}

/// The complete lines of a block that are not blank: 1-based number, content
/// without the line ending, and the scanner's reading when it had one. A line
/// the scanner reads tells where it ends, so only the others are searched
/// for their newline.
struct Lines<'a> {
    body: &'a [u8],
    at: usize,
    n: u64,
}

impl<'a> Lines<'a> {
    /// The length of the line just returned, its line ending included.
    fn ended_at(&self, line: &[u8]) -> u64 {
        let start = line.as_ptr() as usize - self.body.as_ptr() as usize;
        (self.at - start) as u64
    }

    /// The next line, and when the scanner read it, what it read besides
    /// the record it filled in `rec`.
    fn next_into(
        &mut self,
        rec: &mut Record<'a>,
    ) -> Option<(u64, &'a [u8], Option<scan::Scanned<'a>>)> {
        loop {
            let rest = self.body.get(self.at..).filter(|r| !r.is_empty())?;
            self.n += 1;
            let (end, scanned) = match scan::scan_line(rest, rec) {
                Some((s, end)) => (end, Some(s)),
                None => (memchr::memchr(b'\n', rest).unwrap_or(rest.len()), None),
            };
            self.at += end + 1;
            let line = &rest[..end];
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if scanned.is_none() && line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            return Some((self.n, line, scanned));
        }
    }
}

/// Why a line is unusable, or `None` when it is fine JSON that is not a record
/// (counted as unknown, not as damage).
fn classify_error(line: &[u8], err: &serde_json::Error) -> Option<String> {
    let first = line.iter().find(|b| !b.is_ascii_whitespace()).copied();
    if serde_json::from_slice::<serde::de::IgnoredAny>(line).is_err() {
        return Some(format!("invalid JSON: {err}"));
    }
    if first == Some(b'{') {
        Some(format!("unexpected value: {err}"))
    } else {
        None
    }
}

struct Span {
    first: Option<Millis>,
    last: Option<Millis>,
    records: u64,
}

impl Span {
    fn new() -> Self {
        Span {
            first: None,
            last: None,
            records: 0,
        }
    }
    fn see(&mut self, at: Option<Millis>) {
        self.merge(&Span {
            first: at,
            last: at,
            records: 1,
        });
    }
    fn merge(&mut self, other: &Span) {
        self.records += other.records;
        self.first = match (self.first, other.first) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        // `None` orders below every time, so the latest time wins.
        self.last = self.last.max(other.last);
    }
}

/// A record of an inline sidechain, kept until its chain root is known.
struct SideRecord {
    uuid: Option<String>,
    at: Option<Millis>,
    usage: Option<UsageObservation>,
    compaction: Option<Compaction>,
    /// A chain root's first message: prompt hash and task-notification id.
    first: Option<(Option<u64>, Option<String>)>,
}

/// Where the reading of one file stands, between blocks and between runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileCursor {
    pub rel_path: String,
    pub agent_id: String,
    pub main: bool,
    /// Bytes through the last complete line read (a byte-order mark included).
    pub offset: u64,
    /// Lines counted so far, blank ones too: the next line is `line + 1`.
    pub line: u64,
    /// Whether the file's first user record has been read.
    pub first_user_seen: bool,
}

/// What a file being read carries from block to block besides its cursor.
struct OpenFile {
    /// Spawn calls of this file still waiting for their result, by id.
    pending: HashMap<String, usize>,
    /// The agent the file's records belong to (index into `agents`).
    agent: usize,
}

/// Parses one session a block of lines at a time: `begin_main` and
/// `begin_agent` open each file (main transcript first), `block` feeds its
/// lines, `take_part` hands over what was read so far, `finish` the rest.
/// `resume` continues from the state a part left.
pub struct SessionParser {
    out: ParsedSession,
    usage_index: HashMap<String, usize>,
    /// Each agent's span, by agent id.
    spans: HashMap<String, Span>,
    /// Each agent's ending, from its file's last message record.
    endings: HashMap<String, (Ending, Option<Millis>)>,
    /// Parent of each inline sidechain record (by uuid) seen so far.
    side_parent: HashMap<String, Option<String>>,
    open: Vec<Option<OpenFile>>,
    strict: bool,
    /// Lines longer than this (line ending included) are degraded, not read.
    line_cap: u64,
}

/// Why a line over the line cap was not read.
pub fn long_line_reason(len: u64, cap: u64) -> String {
    format!("line of {len} bytes is over the {cap}-byte line cap (ingest.max_line_size); not read")
}

impl SessionParser {
    fn bad(&mut self, file: &str, line: u64, reason: String) -> Result<(), BadLine> {
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

    fn add_usage(&mut self, obs: UsageObservation) {
        if let Some(&i) = self.usage_index.get(&obs.message_id) {
            self.out.usage[i].combine(&obs);
        } else {
            self.usage_index
                .insert(obs.message_id.clone(), self.out.usage.len());
            self.out.usage.push(obs);
        }
    }

    fn span(&mut self, agent: &str) -> &mut Span {
        if !self.spans.contains_key(agent) {
            self.spans.insert(agent.to_string(), Span::new());
        }
        self.spans.get_mut(agent).expect("inserted above")
    }

    /// Folds a record's usage into its message: in place, without allocating,
    /// when the message was already seen (streamed and multi-block responses).
    fn see_usage(&mut self, rec: &Record<'_>, agent: &str, at: Option<Millis>) {
        let Some((id, model, buckets, billing)) = usage_parts(rec) else {
            return;
        };
        if let Some(&i) = self.usage_index.get(id) {
            self.out.usage[i].combine_parts(buckets, model, at, billing);
            return;
        }
        if let Some(obs) = observation(rec, agent, &self.out.session_id, at) {
            self.usage_index
                .insert(obs.message_id.clone(), self.out.usage.len());
            self.out.usage.push(obs);
        }
    }
}

/// The message id, model, token buckets and billing of a record that
/// carries usage.
fn usage_parts<'r>(rec: &'r Record<'_>) -> Option<(&'r str, &'r str, Buckets, Billing)> {
    let msg = rec.message.as_ref()?;
    let usage = msg.usage.as_ref()?;
    let id = msg.id.as_deref()?;
    Some((
        id,
        msg.model.as_deref().unwrap_or(""),
        super::usage::buckets_of(usage),
        super::usage::billing_of(usage),
    ))
}

fn observation(
    rec: &Record<'_>,
    agent: &str,
    session_id: &str,
    at: Option<Millis>,
) -> Option<UsageObservation> {
    let (id, model, buckets, billing) = usage_parts(rec)?;
    Some(UsageObservation {
        message_id: id.to_string(),
        agent_id: agent.to_string(),
        record_session_id: rec.session_id.as_deref().unwrap_or(session_id).to_string(),
        model: model.to_string(),
        at,
        buckets,
        billing,
    })
}

fn compaction(
    rec: &Record<'_>,
    agent: &str,
    file: &str,
    line: u64,
    at: Option<Millis>,
) -> Option<Compaction> {
    if rec.kind.as_deref() != Some("system") || rec.subtype.as_deref() != Some("compact_boundary") {
        return None;
    }
    let meta = rec.compact_metadata.as_ref();
    Some(Compaction {
        agent_id: agent.to_string(),
        file: file.to_string(),
        line,
        at,
        trigger: meta.and_then(|m| m.trigger.as_deref().map(str::to_string)),
        pre_tokens: meta
            .and_then(|m| m.pre_tokens.as_ref())
            .and_then(serde_json::Number::as_i64),
    })
}

fn set_first(slot: &mut Option<String>, v: Option<&str>) {
    if slot.is_none()
        && let Some(v) = v.filter(|v| !v.is_empty())
    {
        *slot = Some(v.to_string());
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
            usage_index: HashMap::new(),
            spans: HashMap::new(),
            endings: HashMap::new(),
            side_parent: HashMap::new(),
            open: Vec::new(),
            strict,
            line_cap: u64::MAX,
        }
    }

    /// Lines longer than `cap` bytes (line ending included) are degraded
    /// lines from now on. A reader holding a block of lines enforces it
    /// for lines longer than the block (`skip_line`).
    pub fn set_line_cap(&mut self, cap: u64) {
        self.line_cap = cap;
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
        parse_block(self, file, bytes)
    }

    /// A line of `len` bytes (its newline included) that was not read: it
    /// counts as a line, degraded with `reason`.
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
        };
        self.out.delta = true;
        part
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

fn new_agent(id: &str, layout: AgentLayout, path: &str, workflow_id: Option<String>) -> Agent {
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
    }
}

fn read_sidecar(
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
                .map(|d| crate::redact::redact_text(&d).into_owned());
            agent.sidecar_tool_use_id = meta.tool_use_id.filter(|s| !s.is_empty());
            agent.spawn_depth = meta.spawn_depth;
            agent.finished = meta.finished == Some(true);
            Ok(())
        }
        Err(e) => b.bad(path, 0, format!("unreadable sidecar: {e}")),
    }
}

/// Reads one file's lines into the builder. For the main file, records with
/// `isSidechain: true` are inline subagents; their agents are returned.
/// Reads a block's complete lines into the parser. For the main file,
/// records with `isSidechain: true` are inline subagents.
fn parse_block(b: &mut SessionParser, file: usize, bytes: &[u8]) -> Result<u64, BadLine> {
    let sid = b.out.session_id.clone();
    let sid = sid.as_str();
    let cursor = b.out.files[file].clone();
    let (rel_path, agent, main) = (
        cursor.rel_path.as_str(),
        cursor.agent_id.as_str(),
        cursor.main,
    );
    let mut open = b.open[file].take().expect("file begun before its blocks");
    let (body, complete) = complete_body(bytes, cursor.offset == 0);
    let mut lines = Lines {
        body,
        at: 0,
        n: cursor.line,
    };
    let mut side: Vec<SideRecord> = Vec::new();
    let mut first_user_seen = cursor.first_user_seen;
    // The block's last own user or assistant record: how the agent ended,
    // unless a later block has one.
    let mut last_message: Option<(&[u8], Option<Millis>)> = None;
    // The file's own records all belong to `agent`: their span is kept here
    // and merged once, not looked up per line.
    let mut span = Span::new();
    let mut slot = Record::default();
    let result = (|| -> Result<(), BadLine> {
        while let Some((n, line, scanned)) = lines.next_into(&mut slot) {
            if line.len() as u64 >= b.line_cap {
                // With its line ending: at least one byte more than `line`.
                let len = lines.ended_at(line);
                if len > b.line_cap {
                    b.bad(rel_path, n, long_line_reason(len, b.line_cap))?;
                    continue;
                }
            }
            // A local command's output: told from the content's first bytes
            // when the scanner read the line, else by a search of it.
            let local_command = main
                && match &scanned {
                    Some(s) => s.message_content_starts_with(b"\"<local-command-"),
                    None => LOCAL_COMMAND.find(line).is_some(),
                };
            let wants =
                |rec: &Record<'_>| wants_content(rec, line, main, first_user_seen, &open.pending);
            let rec: &Record<'_> = match read_record(line, scanned, &mut slot, wants) {
                Ok(()) => &slot,
                Err(e) => {
                    if let Some(reason) = classify_error(line, &e) {
                        b.bad(rel_path, n, reason)?;
                    } else {
                        b.out.records += 1;
                        b.out.unknown_records += 1;
                    }
                    continue;
                }
            };
            b.out.records += 1;
            match rec.kind.as_deref() {
                Some(k) if KNOWN_TYPES.contains(&k) => {}
                Some("cost-state") if rec.session_id.as_deref().is_none_or(|s| s == sid) => {
                    match harness_cost(line, rec.timestamp.as_deref()) {
                        Ok(c) => b.out.harness_cost = Some(c),
                        Err(e) => b.bad(rel_path, n, format!("unexpected value: {e}"))?,
                    }
                    continue;
                }
                _ => {
                    b.out.unknown_records += 1;
                    continue;
                }
            }
            let at = match rec.timestamp.as_deref() {
                None => None,
                Some(ts) => {
                    if let Some(t) = parse_instant(ts) {
                        Some(t)
                    } else {
                        b.bad(rel_path, n, format!("unparsable timestamp {ts:?}"))?;
                        continue;
                    }
                }
            };
            if let Some(count) = rec
                .message
                .as_ref()
                .and_then(|m| m.usage.as_ref())
                .and_then(super::usage::implausible)
            {
                b.bad(
                    rel_path,
                    n,
                    format!(
                        "token count {count} is over {} (no request carries that many); line not counted",
                        super::usage::MAX_TOKENS
                    ),
                )?;
                continue;
            }
            let own = rec.session_id.as_deref().is_none_or(|s| s == sid);
            if main {
                set_first(&mut b.out.cwd, rec.cwd.as_deref());
                set_first(&mut b.out.git_branch, rec.git_branch.as_deref());
            }
            // The main transcript's newest version wins; an agent file's only fills a gap.
            if let Some(v) = rec.version.as_deref().filter(|v| !v.is_empty())
                && (main || b.out.harness_version.is_none())
            {
                b.out.harness_version = Some(v.to_string());
            }
            // Output of a local command (`/exit`, `/compact`) is not the
            // agent at work: it neither moves the activity span nor ends the
            // agent, so one written after SessionEnd reopens nothing.
            let activity = !(local_command && rec.kind.as_deref() == Some("user"));
            let at_active = if activity { at } else { None };
            if own && let Some(t) = at_active {
                let o = &mut b.out;
                o.started_at = Some(o.started_at.map_or(t, |s| s.min(t)));
                o.last_activity_at = Some(o.last_activity_at.map_or(t, |s| s.max(t)));
            }
            if main && rec.is_sidechain == Some(true) {
                b.out.inline = true;
                let uuid = rec.uuid.as_deref().map(str::to_string);
                if let Some(u) = &uuid {
                    b.side_parent
                        .insert(u.clone(), rec.parent_uuid.as_deref().map(str::to_string));
                }
                let root = rec.parent_uuid.is_none() && rec.kind.as_deref() == Some("user");
                side.push(SideRecord {
                    uuid,
                    at,
                    usage: observation(rec, "", sid, at),
                    compaction: compaction(rec, "", rel_path, n, at),
                    first: root
                        .then(|| rec.message.as_ref().and_then(|m| m.content.0))
                        .flatten()
                        .map(spawns::first_message),
                });
                continue;
            }
            if !first_user_seen && rec.kind.as_deref() == Some("user") {
                first_user_seen = true;
                if let Some(c) = rec.message.as_ref().and_then(|m| m.content.0) {
                    let (prompt, note) = spawns::first_message(c);
                    let a = &mut b.out.agents[open.agent];
                    a.first_prompt = prompt;
                    a.notification_tool_use_id = note;
                }
            }
            // A record copied from another session is that session's evidence.
            if own {
                see_spawn_evidence(b, rec, agent, at, &mut open.pending);
                if activity && matches!(rec.kind.as_deref(), Some("user" | "assistant")) {
                    last_message = Some((line, at));
                }
            }
            span.see(at_active);
            b.see_usage(rec, agent, at);
            if let Some(c) = compaction(rec, agent, rel_path, n, at) {
                b.out.compactions.push(c);
            }
        }
        Ok(())
    })();
    b.open[file] = Some(open);
    result?;
    if span.records > 0 {
        b.span(agent).merge(&span);
    }
    if let Some((line, at)) = last_message {
        match ending::classify(line) {
            Some(e) => b.endings.insert(agent.to_string(), (e, at)),
            None => b.endings.remove(agent),
        };
    }
    resolve_inline(b, side, rel_path);
    let f = &mut b.out.files[file];
    f.offset += complete;
    f.line = lines.n;
    f.first_user_seen = first_user_seen;
    b.out.bytes += complete;
    Ok(complete)
}

/// Dollars as the harness writes them (a float) to the nano-dollar.
fn nano(usd: f64) -> i64 {
    (usd * 1e9).round() as i64
}

/// A `cost-state` record as the harness's reported totals.
fn harness_cost(line: &[u8], ts: Option<&str>) -> Result<HarnessCost, serde_json::Error> {
    let w: wire::CostState = serde_json::from_slice(line)?;
    let models = w
        .model_usage
        .into_iter()
        .map(|(model, u)| {
            // The 5m/1h split when given, else all cache writes as 5m.
            let (w5, w1) = match (u.cache_creation_5m, u.cache_creation_1h) {
                (None, None) => (u.cache_creation_input_tokens, 0),
                (a, b) => (a.unwrap_or(0), b.unwrap_or(0)),
            };
            HarnessModelCost {
                model,
                tokens: Buckets {
                    input: u.input_tokens,
                    output: u.output_tokens,
                    cache_write_5m: w5,
                    cache_write_1h: w1,
                    cache_read: u.cache_read_input_tokens,
                },
                web_searches: u.web_search_requests,
                cost_nanousd: nano(u.cost_usd),
            }
        })
        .collect();
    Ok(HarnessCost {
        at: ts.and_then(parse_instant),
        cost_nanousd: nano(w.total_cost_usd.unwrap_or(0.0)),
        models,
    })
}

/// Reads a line into `rec`, its lazy values (`wire::Lazy`) kept when
/// `wants` says so. The scanner has read most lines (`Lines`); serde reads
/// the rest, first without the lazy values (which it then does not check)
/// and again with them when they are wanted, so that either path keeps and
/// refuses exactly what the other does.
fn read_record<'a>(
    line: &'a [u8],
    scanned: Option<scan::Scanned<'a>>,
    rec: &mut Record<'a>,
    wants: impl Fn(&Record<'_>) -> bool,
) -> Result<(), serde_json::Error> {
    if let Some(s) = scanned {
        let capture = wants(rec);
        if s.keep(rec, capture) {
            return Ok(());
        }
    }
    *rec = wire::read(line, false)?;
    if !wants(rec) {
        return Ok(());
    }
    *rec = wire::read(line, true)?;
    Ok(())
}

/// Finds a user message that is a local command's output, built once.
static LOCAL_COMMAND: LazyLock<Finder<'static>> =
    LazyLock::new(|| Finder::new(b"\"content\":\"<local-command-"));

/// Finds `"name":"` (the name of a content block), built once.
static NAME: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"\"name\":\""));

/// Whether a record's content could matter to the tree, so that the other
/// records skip their content unvalidated: a spawn call, the result of a
/// pending call, a first message, a sidechain root, a queue operation. The
/// record's own fields decide; only assistant records are searched for
/// calls, and only when calls are pending are the others searched for
/// their ids. (A message's own type is "message" and blocks have theirs.)
fn wants_content(
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
const SPAWN_NAMES: [&[u8]; 3] = [b"Task\"", b"Agent\"", b"Workflow\""];

/// Collects a record's spawn calls, the results of this file's spawn calls,
/// queue operations and progress references.
fn see_spawn_evidence(
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
/// is the inline agent's id (reference/claude-transcript-layouts.md, layout 1).
fn root_of(uuid: &str, parents: &HashMap<String, Option<String>>) -> String {
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

fn resolve_inline(b: &mut SessionParser, side: Vec<SideRecord>, path: &str) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::SessionFile;

    fn main_file(text: &str) -> SessionInput {
        SessionInput {
            session_id: "S".into(),
            files: vec![SessionFile {
                rel_path: "p/S.jsonl".into(),
                role: FileRole::Main,
                bytes: text.as_bytes().to_vec(),
                sidecar: None,
            }],
        }
    }

    const A1: &str = r#"{"type":"assistant","sessionId":"S","timestamp":"2026-01-15T10:00:00.000Z","message":{"id":"m1","model":"x","usage":{"input_tokens":1,"output_tokens":2,"cache_read_input_tokens":3,"cache_creation_input_tokens":9,"cache_creation":{"ephemeral_5m_input_tokens":4,"ephemeral_1h_input_tokens":5}}}}"#;

    /// The lines a file is read as: the same numbers and contents as a plain
    /// split on newlines (blank lines and a final segment without a newline
    /// left out, a byte-order mark and one carriage return per line dropped),
    /// whether or not the scanner read each line.
    #[test]
    fn lines_equal_a_plain_split() {
        use proptest::prelude::*;
        let piece = prop::sample::select(vec![
            r#"{"type":"user","uuid":"a"}"#,
            r#"  {"type":"assistant" , "message":{"id":"m","usage":{"input_tokens":1}}} "#,
            "",
            "   ",
            "\t",
            "{\"type\":\"user\",\"bad\":}",
            "not json",
            "{\"a\":\"tab\there\"}",
            "[1,2]",
            "{\"t\\u0079pe\":\"user\"}",
        ]);
        let file = (
            any::<bool>(),
            proptest::collection::vec((piece, any::<bool>()), 0..8),
            prop::sample::select(vec!["", "{\"type\":\"us", "{}"]),
        );
        let mut runner = proptest::test_runner::TestRunner::default();
        runner
            .run(&file, |(bom, lines, tail)| {
                let mut bytes = Vec::new();
                if bom {
                    bytes.extend_from_slice(BOM);
                }
                for (l, crlf) in &lines {
                    bytes.extend_from_slice(l.as_bytes());
                    bytes.extend_from_slice(if *crlf { b"\r\n" } else { b"\n" });
                }
                bytes.extend_from_slice(tail.as_bytes());
                let (body, complete) = complete_body(&bytes, true);
                let through_last_newline =
                    bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
                prop_assert_eq!(complete as usize, through_last_newline);
                let mut got: Vec<(u64, Vec<u8>)> = Vec::new();
                let mut reader = Lines { body, at: 0, n: 0 };
                let mut rec = Record::default();
                while let Some((n, l, scanned)) = reader.next_into(&mut rec) {
                    // The two well-formed records are the scanner's to read.
                    let record = l.starts_with(br#"{"type":"user","uuid""#)
                        || l.starts_with(br#"  {"type":"assistant""#);
                    prop_assert_eq!(
                        scanned.is_some(),
                        record,
                        "{:?}",
                        String::from_utf8_lossy(l)
                    );
                    got.push((n, l.to_vec()));
                }
                let want: Vec<(u64, Vec<u8>)> = lines
                    .iter()
                    .enumerate()
                    .filter(|(_, (l, _))| !l.bytes().all(|b| b.is_ascii_whitespace()))
                    .map(|(i, (l, _))| (i as u64 + 1, l.as_bytes().to_vec()))
                    .collect();
                prop_assert_eq!(got, want);
                Ok(())
            })
            .unwrap();
    }

    /// Content is kept for the records that want it whichever path reads
    /// the line: the scanner (line 1), serde for a key the scanner leaves to
    /// it (line 2). Content nobody wants is not checked (line 3: invalid
    /// UTF-8 in a user message); wanted content is (line 4).
    #[test]
    fn wanted_content_is_kept_and_checked_on_either_path() {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(br#"{"type":"queue-operation","sessionId":"S","content":"<task-id>c1</task-id><tool-use-id>toolu_Q</tool-use-id>"}"#);
        bytes.extend_from_slice(b"\n");
        bytes.extend_from_slice(
            br#"{"t\u0079pe":"queue-operation","sessionId":"S","content":"<task-id>c2</task-id>"}"#,
        );
        bytes.extend_from_slice(
            b"\n{\"type\":\"user\",\"sessionId\":\"S\",\"message\":{\"content\":\"a\xffb\"}}\n",
        );
        bytes.extend_from_slice(b"{\"type\":\"queue-operation\",\"content\":\"\xff\"}\n");
        let input = SessionInput {
            session_id: "S".into(),
            files: vec![SessionFile {
                rel_path: "p/S.jsonl".into(),
                role: FileRole::Main,
                bytes,
                sidecar: None,
            }],
        };
        let p = parse_session(&input, false).unwrap();
        let ops: Vec<_> = p
            .queue_ops
            .iter()
            .map(|q| (q.task_id.as_deref(), q.tool_use_id.as_deref()))
            .collect();
        assert_eq!(ops, [(Some("c1"), Some("toolu_Q")), (Some("c2"), None)]);
        let bad: Vec<u64> = p.bad_lines.iter().map(|b| b.line).collect();
        assert_eq!(bad, [4]);
        assert!(
            p.bad_lines[0].reason.starts_with("unexpected value"),
            "{}",
            p.bad_lines[0].reason
        );
    }

    /// Local command output is not activity on either reading path: the
    /// scanner's (line 2) and serde's (line 3, an escaped key).
    #[test]
    fn local_command_output_is_not_activity() {
        let text = [
            r#"{"type":"user","sessionId":"S","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"go"}}"#,
            r#"{"type":"user","sessionId":"S","timestamp":"2026-01-15T11:00:00Z","message":{"role":"user","content":"<local-command-stdout>Bye!</local-command-stdout>"}}"#,
            r#"{"t\u0079pe":"user","sessionId":"S","timestamp":"2026-01-15T12:00:00Z","message":{"role":"user","content":"<local-command-stdout>again</local-command-stdout>"}}"#,
        ]
        .join("\n")
            + "\n";
        let p = parse_session(&main_file(&text), false).unwrap();
        let at = parse_instant("2026-01-15T10:00:00Z");
        assert_eq!((p.agents[0].last_seen, p.last_activity_at), (at, at));
        assert_eq!((p.records, p.agents[0].records), (3, 3));
    }

    #[test]
    fn cache_creation_object_wins_over_flat_count() {
        let p = parse_session(&main_file(&format!("{A1}\n")), false).unwrap();
        let u = &p.usage[0];
        assert_eq!(
            u.buckets,
            Buckets {
                input: 1,
                output: 2,
                cache_write_5m: 4,
                cache_write_1h: 5,
                cache_read: 3
            }
        );
    }

    #[test]
    fn flat_cache_creation_counts_as_5m() {
        let line = r#"{"type":"assistant","message":{"id":"m","usage":{"cache_creation_input_tokens":7}}}"#;
        let p = parse_session(&main_file(&format!("{line}\n")), false).unwrap();
        assert_eq!(p.usage[0].buckets.cache_write_5m, 7);
        assert_eq!(p.usage[0].buckets.cache_write_1h, 0);
    }

    #[test]
    fn truncated_final_line_is_ignored_and_middle_damage_is_recorded() {
        let text = format!("{A1}\n{{not json\n{A1}\n{{\"type\":\"assist");
        let p = parse_session(&main_file(&text), false).unwrap();
        assert_eq!(p.bad_lines.len(), 1);
        assert_eq!(p.bad_lines[0].line, 2);
        assert!(
            p.bad_lines[0].reason.starts_with("invalid JSON"),
            "{}",
            p.bad_lines[0].reason
        );
        assert_eq!(p.records, 2);
        assert_eq!(p.usage.len(), 1);
        let strict = parse_session(&main_file(&text), true).unwrap_err();
        assert_eq!(strict.line, 2);
    }

    #[test]
    fn unknown_types_and_non_objects_are_counted_not_damage() {
        let text = "{\"type\":\"brand-new\"}\n[1,2]\n{\"no_type\":1}\n";
        let p = parse_session(&main_file(text), false).unwrap();
        assert_eq!((p.records, p.unknown_records, p.bad_lines.len()), (3, 3, 0));
    }

    #[test]
    fn negative_token_count_is_a_bad_line() {
        let text =
            "{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":-1}}}\n";
        let p = parse_session(&main_file(text), false).unwrap();
        assert_eq!(p.usage.len(), 0);
        assert!(p.bad_lines[0].reason.starts_with("unexpected value"));
    }

    #[test]
    fn inline_sidechains_are_agents_with_their_own_tokens() {
        let text = [
            r#"{"type":"user","sessionId":"S","uuid":"u0","parentUuid":null,"isSidechain":false,"timestamp":"2026-01-15T10:00:00Z"}"#,
            r#"{"type":"user","sessionId":"S","uuid":"r1","parentUuid":null,"isSidechain":true,"timestamp":"2026-01-15T10:00:01Z"}"#,
            r#"{"type":"user","sessionId":"S","uuid":"r2","parentUuid":null,"isSidechain":true,"timestamp":"2026-01-15T10:00:02Z"}"#,
            r#"{"type":"assistant","sessionId":"S","uuid":"c2","parentUuid":"r2","isSidechain":true,"timestamp":"2026-01-15T10:00:04Z","message":{"id":"m2","usage":{"output_tokens":20}}}"#,
            r#"{"type":"assistant","sessionId":"S","uuid":"c1","parentUuid":"r1","isSidechain":true,"timestamp":"2026-01-15T10:00:03Z","message":{"id":"m1","usage":{"output_tokens":10}}}"#,
            r#"{"type":"assistant","sessionId":"S","uuid":"c1b","parentUuid":"c1","isSidechain":true,"timestamp":"2026-01-15T10:00:05Z","message":{"id":"m3","usage":{"output_tokens":30}}}"#,
        ]
        .join("\n")
            + "\n";
        let p = parse_session(&main_file(&text), false).unwrap();
        let ids: Vec<_> = p
            .agents
            .iter()
            .map(|a| (a.agent_id.as_str(), a.layout, a.records))
            .collect();
        assert_eq!(
            ids,
            vec![
                ("S", AgentLayout::Main, 1),
                ("r1", AgentLayout::Inline, 3),
                ("r2", AgentLayout::Inline, 2)
            ]
        );
        let owners: Vec<_> = p
            .usage
            .iter()
            .map(|u| (u.message_id.as_str(), u.agent_id.as_str()))
            .collect();
        assert_eq!(owners, vec![("m2", "r2"), ("m1", "r1"), ("m3", "r1")]);
    }

    #[test]
    fn copied_records_keep_their_session_and_do_not_move_the_span() {
        let text = [
            r#"{"type":"assistant","sessionId":"OLD","timestamp":"2026-01-01T00:00:00Z","message":{"id":"m0","usage":{"output_tokens":1}}}"#,
            r#"{"type":"user","sessionId":"S","timestamp":"2026-01-15T10:00:00Z"}"#,
        ]
        .join("\n")
            + "\n";
        let p = parse_session(&main_file(&text), false).unwrap();
        assert_eq!(p.usage[0].record_session_id, "OLD");
        assert_eq!(p.started_at, parse_instant("2026-01-15T10:00:00Z"));
    }
}
