//! One block of a file, record by record: usage, spans, endings, spawn
//! evidence, compactions, inline sidechains and the harness's own cost.

use std::collections::HashMap;
use std::sync::LazyLock;

use memchr::memmem::Finder;

use super::lines::{Lines, classify_error, complete_body};
use super::{OpenFile, SessionParser, SideRecord, Span, SpareCores, long_line_reason, new_agent};
use crate::domain::clock::{Millis, parse_instant};
use crate::domain::transcript::ending;
use crate::domain::transcript::scan;
use crate::domain::transcript::spawns::{self, ProgressRef, SpawnResult};
use crate::domain::transcript::usage::{self, Billing, Buckets, UsageObservation};
use crate::domain::transcript::wire::{self, KNOWN_TYPES, Record};
use crate::domain::transcript::{AgentLayout, BadLine, Compaction, HarnessCost, HarnessModelCost};

/// The message id, model, token buckets and billing of a record that
/// carries usage.
pub(super) fn usage_parts<'r>(rec: &'r Record<'_>) -> Option<(&'r str, &'r str, Buckets, Billing)> {
    let msg = rec.message.as_ref()?;
    let usage = msg.usage.as_ref()?;
    let id = msg.id.as_deref()?;
    Some((
        id,
        msg.model.as_deref().unwrap_or(""),
        usage::buckets_of(usage),
        usage::billing_of(usage),
    ))
}

pub(super) fn observation(
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

pub(super) fn compaction(
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

pub(super) fn set_first(slot: &mut Option<String>, v: Option<&str>) {
    if slot.is_none()
        && let Some(v) = v.filter(|v| !v.is_empty())
    {
        *slot = Some(v.to_string());
    }
}

/// What reading one block carries from line to line.
struct BlockRead<'a> {
    sid: &'a str,
    rel_path: &'a str,
    /// The agent the file's own records belong to.
    agent: &'a str,
    main: bool,
    open: OpenFile,
    /// Inline sidechain records of the main file, resolved after the block.
    side: Vec<SideRecord>,
    first_user_seen: bool,
    /// The block's last own user or assistant record: how the agent ended,
    /// unless a later block has one.
    last_message: Option<(&'a [u8], Option<Millis>)>,
    /// The file's own records all belong to `agent`: their span is kept
    /// here and merged once, not looked up per line.
    span: Span,
}

/// Reads a block's complete lines into the parser. For the main file,
/// records with `isSidechain: true` are inline subagents.
pub(super) fn parse_block(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
) -> Result<u64, BadLine> {
    let (body, complete) = complete_body(bytes, b.out.files[file].offset == 0);
    // A large block with a spare core: a helper scans the later lines
    // (the costly, stateless part) while this thread reads the earlier
    // ones; their records are then taken in order, as if scanned here.
    let helper = (body.len() >= SPLIT_MIN)
        .then(|| b.spare.as_ref().and_then(SpareCores::take))
        .flatten();
    let split = match &helper {
        Some(_) => split_at(body, 0, HELPER_SHARE),
        None => body.len(),
    };
    let (first, later) = body.split_at(split);
    std::thread::scope(|scope| {
        let scanning = (!later.is_empty()).then(|| {
            #[cfg(test)]
            SPLITS.with(|n| n.set(n.get() + 1));
            scope.spawn(|| scan_lines(later))
        });
        read_lines(b, file, first, complete, move || {
            let scanned = scanning.map(|h| h.join().expect("the scan of a block does not panic"));
            drop(helper);
            scanned
        })
    })
}

/// `parse_block` for a block whose later lines another thread scanned
/// (`scan_later`): `first` holds the complete lines before them.
pub(super) fn parse_scanned(
    b: &mut SessionParser,
    file: usize,
    first: &[u8],
    later: ScannedLines<'_>,
) -> Result<u64, BadLine> {
    let (body, complete) = complete_body(first, b.out.files[file].offset == 0);
    debug_assert_eq!(complete, first.len() as u64, "`first` ends with a line");
    read_lines(b, file, body, complete + later.bytes, || Some(later))
}

/// Reads the lines of `first`, then the ones `later` gives (already
/// scanned), which end `complete` bytes after the file's cursor.
fn read_lines<'a>(
    b: &mut SessionParser,
    file: usize,
    first: &'a [u8],
    complete: u64,
    later: impl FnOnce() -> Option<ScannedLines<'a>>,
) -> Result<u64, BadLine> {
    let sid = b.out.session_id.clone();
    let cursor = b.out.files[file].clone();
    let mut st = BlockRead {
        sid: &sid,
        rel_path: &cursor.rel_path,
        agent: &cursor.agent_id,
        main: cursor.main,
        open: b.open[file].take().expect("file begun before its blocks"),
        side: Vec::new(),
        first_user_seen: cursor.first_user_seen,
        last_message: None,
        span: Span::new(),
    };
    let mut lines = Lines {
        body: first,
        at: 0,
        n: cursor.line,
    };
    let read = || -> Result<(), BadLine> {
        let mut slot = Record::default();
        while let Some((n, line, scanned)) = lines.next_into(&mut slot) {
            let len = lines.ended_at(line);
            read_line(b, &mut st, n, line, len, scanned, &mut slot)?;
        }
        if let Some(mut pre) = later() {
            let base = lines.n;
            // Each record is read where it lies (a record is a few hundred
            // bytes: moving each out of the vector was a copy per line).
            for p in &mut pre.lines {
                let scanned = p.scanned.take();
                read_line(b, &mut st, base + p.n, p.line, p.len, scanned, &mut p.rec)?;
            }
            lines.n = base + pre.count;
        }
        Ok(())
    };
    let result = read();
    b.open[file] = Some(st.open);
    result?;
    if st.span.records > 0 {
        b.span(st.agent).merge(&st.span);
    }
    if let Some((line, at)) = st.last_message {
        match ending::classify(line) {
            Some(e) => b.endings.insert(st.agent.to_string(), (e, at)),
            None => b.endings.remove(st.agent),
        };
    }
    resolve_inline(b, st.side, st.rel_path);
    let f = &mut b.out.files[file];
    f.offset += complete;
    f.line = lines.n;
    f.first_user_seen = st.first_user_seen;
    b.out.bytes += complete;
    Ok(complete)
}

/// Blocks smaller than this are read by one thread (unit tests read
/// blocks of a kilobyte, src/services/ingest/stream.rs).
pub(super) const SPLIT_MIN: usize = if cfg!(test) { 256 } else { 1 << 20 };

#[cfg(test)]
thread_local! {
    /// Blocks a helper has scanned for this thread (the tests' proof that
    /// it did; other tests split blocks on their own threads meanwhile).
    pub(super) static SPLITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The helper's share of a block's lines, in 64ths: the larger, as it
/// only scans, while this thread also takes every record.
const HELPER_SHARE: u32 = 35;

/// Where lines from `from` (a line start) to the end of `body` (a line end)
/// are split to give the later `share` 64ths or so to a helper: the line
/// start at or after that point (`body.len()` when there is none).
fn split_at(body: &[u8], from: usize, share: u32) -> usize {
    let target = body.len() - (body.len() - from) * share as usize / 64;
    if target == from {
        return from;
    }
    memchr::memchr(b'\n', &body[target - 1..]).map_or(body.len(), |i| target + i)
}

/// A line a helper scanned: its number within the helper's lines, its
/// content and length (line ending included), and the scanner's reading.
struct Prescanned<'a> {
    n: u64,
    line: &'a [u8],
    len: u64,
    scanned: Option<scan::Scanned<'a>>,
    rec: Record<'a>,
}

/// The complete lines of part of a block, scanned by a helper: each with
/// its number among them, content, length and the scanner's reading.
pub struct ScannedLines<'a> {
    lines: Vec<Prescanned<'a>>,
    /// Lines counted, blank ones too.
    count: u64,
    /// Bytes of the lines, line endings included.
    bytes: u64,
}

/// Scans the later `share` 64ths of the complete lines of `block` (bytes
/// read on from a file's cursor: its first line may end one begun before)
/// for `SessionParser::block_scanned`: where they start, and their scan.
/// `None` for a block with less than `SPLIT_MIN` of whole lines.
pub fn scan_later(block: &[u8], share: u32) -> Option<(usize, ScannedLines<'_>)> {
    let start = memchr::memchr(b'\n', block)? + 1;
    let end = memchr::memrchr(b'\n', block)? + 1;
    if end - start < SPLIT_MIN {
        return None;
    }
    let split = split_at(&block[..end], start, share);
    (split < end).then(|| (split, scan_lines(&block[split..end])))
}

/// Scans every line of `body`, which begins at a line start and ends with
/// a newline (what `Lines` gives, blank lines counted and passed over).
fn scan_lines(body: &[u8]) -> ScannedLines<'_> {
    let mut lines = Lines { body, at: 0, n: 0 };
    let mut out = Vec::with_capacity(body.len() / 2048);
    loop {
        let mut rec = Record::default();
        let Some((n, line, scanned)) = lines.next_into(&mut rec) else {
            break;
        };
        let len = lines.ended_at(line);
        out.push(Prescanned {
            n,
            line,
            len,
            scanned,
            rec,
        });
    }
    ScannedLines {
        lines: out,
        count: lines.n,
        bytes: body.len() as u64,
    }
}

/// Line `n` of the block (`len` bytes with its ending), with the scanner's
/// reading in `slot` when it had one: over the line cap it is degraded;
/// else read as a record and taken.
fn read_line<'a>(
    b: &mut SessionParser,
    st: &mut BlockRead<'a>,
    n: u64,
    line: &'a [u8],
    len: u64,
    scanned: Option<scan::Scanned<'a>>,
    slot: &mut Record<'a>,
) -> Result<(), BadLine> {
    // `len` holds the line ending: at least one byte more than `line`.
    if len > b.line_cap {
        return b.bad(st.rel_path, n, long_line_reason(len, b.line_cap));
    }
    // A local command's output: told from the content's first bytes when
    // the scanner read the line, else by a search of it.
    let local_command = st.main
        && match &scanned {
            Some(s) => s.message_content_starts_with(b"\"<local-command-"),
            None => LOCAL_COMMAND.find(line).is_some(),
        };
    let wants =
        |rec: &Record<'_>| wants_content(rec, line, st.main, st.first_user_seen, &st.open.pending);
    if let Err(e) = read_record(line, scanned, slot, wants) {
        if let Some(reason) = classify_error(line, &e) {
            b.bad(st.rel_path, n, reason)?;
        } else {
            b.out.records += 1;
            b.out.unknown_records += 1;
        }
        return Ok(());
    }
    b.out.records += 1;
    take_record(b, st, n, line, slot, local_command)
}

/// One record read from line `n`: filtered by type, checked (time, token
/// counts), then counted as what it is.
fn take_record<'a>(
    b: &mut SessionParser,
    st: &mut BlockRead<'a>,
    n: u64,
    line: &'a [u8],
    rec: &Record<'_>,
    local_command: bool,
) -> Result<(), BadLine> {
    match rec.kind.as_deref() {
        Some(k) if KNOWN_TYPES.contains(&k) => {}
        Some("cost-state") if rec.session_id.as_deref().is_none_or(|s| s == st.sid) => {
            match harness_cost(line, rec.timestamp.as_deref()) {
                Ok(c) => b.out.harness_cost = Some(c),
                Err(e) => b.bad(st.rel_path, n, format!("unexpected value: {e}"))?,
            }
            return Ok(());
        }
        _ => {
            b.out.unknown_records += 1;
            return Ok(());
        }
    }
    let at = match rec.timestamp.as_deref() {
        None => None,
        Some(ts) => {
            let Some(t) = parse_instant(ts) else {
                return b.bad(st.rel_path, n, format!("unparsable timestamp {ts:?}"));
            };
            Some(t)
        }
    };
    if let Some(count) = rec
        .message
        .as_ref()
        .and_then(|m| m.usage.as_ref())
        .and_then(usage::implausible)
    {
        return b.bad(
            st.rel_path,
            n,
            format!(
                "token count {count} is over {} (no request carries that many); line not counted",
                usage::MAX_TOKENS
            ),
        );
    }
    let own = rec.session_id.as_deref().is_none_or(|s| s == st.sid);
    // Output of a local command (`/exit`, `/compact`) is not the agent at
    // work: it neither moves the activity span nor ends the agent, so one
    // written after SessionEnd reopens nothing.
    let activity = !(local_command && rec.kind.as_deref() == Some("user"));
    let at_active = if activity { at } else { None };
    see_session_facts(b, rec, st.main, own.then_some(at_active).flatten());
    if st.main && rec.is_sidechain == Some(true) {
        b.out.inline = true;
        st.side
            .push(side_record(b, rec, st.sid, st.rel_path, n, at));
        return Ok(());
    }
    if !st.first_user_seen && rec.kind.as_deref() == Some("user") {
        st.first_user_seen = true;
        if let Some(c) = rec.message.as_ref().and_then(|m| m.content.0) {
            let (prompt, note) = spawns::first_message(c);
            let a = &mut b.out.agents[st.open.agent];
            a.first_prompt = prompt;
            a.notification_tool_use_id = note;
        }
    }
    // A record copied from another session is that session's evidence.
    if own {
        see_spawn_evidence(b, rec, st.agent, at, &mut st.open.pending);
        if activity && matches!(rec.kind.as_deref(), Some("user" | "assistant")) {
            st.last_message = Some((line, at));
        }
    }
    st.span.see(at_active);
    b.see_usage(rec, st.agent, at);
    if let Some(c) = compaction(rec, st.agent, st.rel_path, n, at) {
        b.out.compactions.push(c);
    }
    Ok(())
}

/// The session-wide facts a record carries: the main transcript's working
/// directory and branch (the first ones), the harness version (the main
/// transcript's newest wins; an agent file's only fills a gap), and the
/// session's activity span (`active_at`: an own record's time, when it is
/// activity).
fn see_session_facts(
    b: &mut SessionParser,
    rec: &Record<'_>,
    main: bool,
    active_at: Option<Millis>,
) {
    if main {
        set_first(&mut b.out.cwd, rec.cwd.as_deref());
        set_first(&mut b.out.git_branch, rec.git_branch.as_deref());
    }
    if let Some(v) = rec.version.as_deref().filter(|v| !v.is_empty())
        && (main || b.out.harness_version.is_none())
    {
        b.out.harness_version = Some(v.to_string());
    }
    if let Some(t) = active_at {
        let o = &mut b.out;
        o.started_at = Some(o.started_at.map_or(t, |s| s.min(t)));
        o.last_activity_at = Some(o.last_activity_at.map_or(t, |s| s.max(t)));
    }
}

/// An inline sidechain record of the main file, kept until the block's
/// sidechains are resolved into agents; its parent link is remembered.
fn side_record(
    b: &mut SessionParser,
    rec: &Record<'_>,
    sid: &str,
    rel_path: &str,
    n: u64,
    at: Option<Millis>,
) -> SideRecord {
    let uuid = rec.uuid.as_deref().map(str::to_string);
    if let Some(u) = &uuid {
        b.side_parent
            .insert(u.clone(), rec.parent_uuid.as_deref().map(str::to_string));
    }
    let root = rec.parent_uuid.is_none() && rec.kind.as_deref() == Some("user");
    SideRecord {
        uuid,
        at,
        usage: observation(rec, "", sid, at),
        compaction: compaction(rec, "", rel_path, n, at),
        first: root
            .then(|| rec.message.as_ref().and_then(|m| m.content.0))
            .flatten()
            .map(spawns::first_message),
    }
}

/// Dollars as the harness writes them (a float) to the nano-dollar.
pub(super) fn nano(usd: f64) -> i64 {
    (usd * 1e9).round() as i64
}

/// A `cost-state` record as the harness's reported totals.
pub(super) fn harness_cost(
    line: &[u8],
    ts: Option<&str>,
) -> Result<HarnessCost, serde_json::Error> {
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
                    reasoning: 0,
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
pub(super) fn read_record<'a>(
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
