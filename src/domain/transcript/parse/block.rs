//! One block of a file, record by record: usage, spans, endings, spawn
//! evidence, compactions, inline sidechains and the harness's own cost.

#[cfg(test)]
use super::prescan::SPLITS;
use super::prescan::{HELPER_SHARE, SPLIT_MIN, ScannedLines, scan_lines, split_at};
use super::spawned::{LOCAL_COMMAND, resolve_inline, see_spawn_evidence, wants_content};

use super::cost::harness_cost;
use super::holes::{Gaps, HOLE_MIN, Noting, says_nothing};
use super::lines::{Lines, classify_error, complete_body};
use super::words::{named, said_in};
use super::{OpenFile, SessionParser, SideRecord, Span, SpareCores, long_line_reason};
use crate::domain::clock::{Millis, parse_instant};
use crate::domain::transcript::ending;
use crate::domain::transcript::scan;
use crate::domain::transcript::spawns::{self};
use crate::domain::transcript::usage::{self, Billing, Buckets, UsageObservation};
use crate::domain::transcript::wire::{self, KNOWN_TYPES, Record};
use crate::domain::transcript::{BadLine, Compaction};

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

pub(crate) fn set_first(slot: &mut Option<String>, v: Option<&str>) {
    if slot.is_none()
        && let Some(v) = v.filter(|v| !v.is_empty())
    {
        *slot = Some(v.to_string());
    }
}

/// What reading one block carries from line to line.
pub(super) struct BlockRead<'a> {
    sid: &'a str,
    rel_path: &'a str,
    /// The agent the file's own records belong to.
    pub(super) agent: &'a str,
    pub(super) main: bool,
    open: OpenFile,
    /// Inline sidechain records of the main file, resolved after the block.
    pub(super) side: Vec<SideRecord>,
    first_user_seen: bool,
    /// The block's last own user or assistant record: how the agent ended,
    /// unless a later block has one.
    last_message: Option<(&'a [u8], Option<Millis>)>,
    /// The file's own records all belong to `agent`: their span is kept
    /// here and merged once, not looked up per line.
    span: Span,
    /// Where the block's lines lie, when long lines that say nothing are
    /// noted as holes (`SessionParser::note_holes`).
    holes: Option<Noting>,
}

/// Reads a block's complete lines into the parser. For the main file,
/// records with `isSidechain: true` are inline subagents.
pub(crate) fn parse_block(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
) -> Result<u64, BadLine> {
    let gaps = std::mem::take(&mut b.gaps);
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
    // Where `body` starts in `bytes` (after a byte-order mark), which the
    // gaps' places count from.
    let skip = complete as usize - body.len();
    let to = if later.is_empty() {
        usize::MAX
    } else {
        skip + split
    };
    let (early, late) = (
        Gaps::between(&gaps, skip, to),
        Gaps::between(&gaps, to, usize::MAX),
    );
    let blocks = b.scans_blocks();
    std::thread::scope(|scope| {
        let scanning = (!later.is_empty()).then(|| {
            #[cfg(test)]
            SPLITS.with(|n| n.set(n.get() + 1));
            scope.spawn(move || scan_lines(later, blocks, late))
        });
        let cut = Cut {
            first,
            gaps: early,
            complete,
            skip: skip as u64,
        };
        read_lines(b, file, cut, move || {
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
    let gaps = std::mem::take(&mut b.gaps);
    let (body, complete) = complete_body(first, b.out.files[file].offset == 0);
    debug_assert_eq!(complete, first.len() as u64, "`first` ends with a line");
    let skip = complete as usize - body.len();
    let early = Gaps::between(&gaps, skip, first.len());
    let cut = Cut {
        first: body,
        gaps: early,
        complete: complete + later.bytes,
        skip: skip as u64,
    };
    read_lines(b, file, cut, || Some(later))
}

/// The lines a block's reading thread reads itself: `first`, where
/// `skip` bytes (a byte-order mark) precede them, with the gaps left out
/// of them; and the bytes through the block's last complete line.
struct Cut<'a> {
    first: &'a [u8],
    gaps: Gaps,
    complete: u64,
    skip: u64,
}

/// Reads the lines of `cut`, then the ones `later` gives (already
/// scanned), which end `cut.complete` bytes after the file's cursor.
fn read_lines<'a>(
    b: &mut SessionParser,
    file: usize,
    cut: Cut<'a>,
    later: impl FnOnce() -> Option<ScannedLines<'a>>,
) -> Result<u64, BadLine> {
    let Cut {
        first,
        gaps,
        complete,
        skip,
    } = cut;
    let sid = b.out.session_id.clone();
    let f = &b.out.files[file];
    let (rel_path, agent) = (f.rel_path.clone(), f.agent_id.clone());
    // Bytes left out of `first` and `later` are read around: no hole is
    // noted then (a build, which never notes any).
    let noting = b.holes && gaps.is_empty();
    let mut st = BlockRead {
        sid: &sid,
        rel_path: &rel_path,
        agent: &agent,
        main: f.main,
        open: b.open[file].take().expect("file begun before its blocks"),
        side: Vec::new(),
        first_user_seen: f.first_user_seen,
        last_message: None,
        span: Span::new(),
        holes: noting.then(|| Noting {
            file,
            origin: first.as_ptr() as usize,
            at: f.offset + skip,
        }),
    };
    let mut lines = Lines {
        body: first,
        at: 0,
        n: f.line,
        blocks: b.scans_blocks(),
        gaps,
    };
    let mut skipped = 0;
    let read = || -> Result<(), BadLine> {
        let mut slot = Record::default();
        while let Some((n, line, scanned)) = lines.next_into(&mut slot) {
            let len = lines.ended_at(line);
            read_line(b, &mut st, n, line, len, scanned, &mut slot)?;
        }
        skipped += lines.gaps.skipped;
        if let Some(mut pre) = later() {
            let base = lines.n;
            // Each record is read where it lies (a record is a few hundred
            // bytes: moving each out of the vector was a copy per line).
            for p in &mut pre.lines {
                let scanned = p.scanned.take();
                read_line(b, &mut st, base + p.n, p.line, p.len, scanned, &mut p.rec)?;
            }
            lines.n = base + pre.count;
            skipped += pre.skipped;
        }
        Ok(())
    };
    let result = read();
    b.open[file] = Some(std::mem::take(&mut st.open));
    result?;
    end_block(b, file, st, (complete + skipped, lines.n));
    Ok(complete)
}

/// After a block's lines: what its records carry on is kept, its inline
/// sidechains resolved, and file `file`'s cursor moved on by `bytes` and
/// to line `line`.
fn end_block(b: &mut SessionParser, file: usize, st: BlockRead<'_>, (bytes, line): (u64, u64)) {
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
    f.offset += bytes;
    f.line = line;
    f.first_user_seen = st.first_user_seen;
    b.out.bytes += bytes;
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
    mut scanned: Option<scan::Scanned<'a>>,
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
    let content = scanned.as_ref().and_then(scan::Scanned::message_content);
    let blocks = scanned.as_mut().and_then(scan::Scanned::take_blocks);
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
    let bad = b.out.bad_lines_total;
    take_record(b, st, n, line, slot, local_command)?;
    said_in(b, st, n, line, slot, (content, blocks.as_deref()));
    if let Some(h) = &st.holes
        && len >= HOLE_MIN
        && n > 1
        && b.out.bad_lines_total == bad
        && says_nothing(slot, blocks.as_deref(), st.main)
    {
        h.note(b, line, len);
    }
    if st.main {
        named(b, slot.kind.as_deref(), line);
    }
    Ok(())
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
        said: None,
    }
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
