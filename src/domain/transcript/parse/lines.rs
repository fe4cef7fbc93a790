//! Lines of a block: complete lines only, a byte-order mark and carriage
//! returns dropped, and why a line that is not JSON is damage.

use super::holes::Gaps;
use super::{SessionParser, Span, long_line_reason};
use crate::domain::transcript::BadLine;
use crate::domain::transcript::said::{self, SaidOptions};
use crate::domain::transcript::scan;
use crate::domain::transcript::wire::Record;

pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The part of a block that holds complete lines: after a byte-order mark
/// (at the very start of a file only), up to its last newline (a final
/// segment with no newline is a write in progress, or the rest of the line
/// in the next block); and the byte length through that newline.
pub(super) fn complete_body(bytes: &[u8], file_start: bool) -> (&[u8], u64) {
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
/// for their newline. The lines of the gaps left out of `body` are counted
/// where they were.
pub(super) struct Lines<'a> {
    pub(super) body: &'a [u8],
    pub(super) at: usize,
    pub(super) n: u64,
    /// Whether the scanner finds each message's content blocks (for what
    /// the records say).
    pub(super) blocks: bool,
    pub(super) gaps: Gaps,
}

impl<'a> Lines<'a> {
    /// The length of the line just returned, its line ending included.
    pub(super) fn ended_at(&self, line: &[u8]) -> u64 {
        let start = line.as_ptr() as usize - self.body.as_ptr() as usize;
        (self.at - start) as u64
    }

    /// The next line, and when the scanner read it, what it read besides
    /// the record it filled in `rec`.
    pub(super) fn next_into(
        &mut self,
        rec: &mut Record<'a>,
    ) -> Option<(u64, &'a [u8], Option<scan::Scanned<'a>>)> {
        loop {
            self.n += self.gaps.pass(self.at);
            let Some(rest) = self.body.get(self.at..).filter(|r| !r.is_empty()) else {
                self.n += self.gaps.pass(usize::MAX);
                return None;
            };
            self.n += 1;
            let (end, scanned) = match scan::scan_line(rest, rec, self.blocks) {
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
pub(super) fn classify_error(line: &[u8], err: &serde_json::Error) -> Option<String> {
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

/// The file a block belongs to: its agent, whether it is the main
/// transcript, and the span its records stretch the agent's by (merged once
/// after the block).
pub(crate) struct Owner<'s> {
    pub(crate) agent: &'s str,
    pub(crate) main: bool,
    pub(crate) span: &'s mut Span,
}

/// Reads a block of a transcript whose lines are plain JSON records (Codex
/// rollouts, Gemini CLI chats) one line at a time: complete lines only, a
/// byte-order mark at the file's start dropped, blank lines counted and
/// passed over, a line over the line cap degraded. `each` reads one line
/// (with its 1-based number and the file's `Owner`); a line it cannot read as its record type is
/// degraded when it is not JSON, counted unknown when it is. The file's
/// cursor and the bytes read advance by the lines read, even when a strict
/// run stops at a bad one. Returns the bytes read (through the last newline).
pub(crate) fn json_records(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
    mut each: impl FnMut(
        &mut SessionParser,
        &[u8],
        u64,
        &mut Owner<'_>,
    ) -> Result<(), serde_json::Error>,
) -> Result<u64, BadLine> {
    let c = &b.out.files[file];
    let (rel, first_line, file_start, agent, main) = (
        c.rel_path.clone(),
        c.line,
        c.offset == 0,
        c.agent_id.clone(),
        c.main,
    );
    let reads_said = c.format().client().reads.said;
    let mut span = Span::new();
    let mut owner = Owner {
        agent: &agent,
        main,
        span: &mut span,
    };
    let (body, read) = complete_body(bytes, file_start);
    let skip = read as usize - body.len();
    let mut n = first_line;
    let mut at = 0;
    let result = (|| -> Result<(), BadLine> {
        while at < body.len() {
            let rest = &body[at..];
            let len = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
            at += len;
            n += 1;
            let line = rest[..len].strip_suffix(b"\n").unwrap_or(&rest[..len]);
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if len as u64 > b.line_cap {
                b.bad(&rel, n, long_line_reason(len as u64, b.line_cap))?;
                continue;
            }
            match each(b, line, n, &mut owner) {
                Ok(()) => {
                    b.out.records += 1;
                    words(b, (owner.agent, main), (line, n), reads_said);
                }
                Err(e) => match classify_error(line, &e) {
                    Some(reason) => b.bad(&rel, n, reason)?,
                    None => b.out.unknown_records += 1,
                },
            }
        }
        Ok(())
    })();
    b.span(&agent).merge(&span);
    let done = (skip + at) as u64;
    let f = &mut b.out.files[file];
    f.offset += done;
    f.line = n;
    b.out.bytes += done;
    result.map(|()| done)
}

/// How far into a main file its first prompt is looked for (a session
/// that starts without one, a subagent's run, costs no more).
const TITLE_LINES: u64 = 64;

/// What line `n` of `agent`'s file says, read by its client's `read`:
/// kept for search when the parser reads words, else only looked at for
/// the session's title near the start of its main file.
fn words(
    b: &mut SessionParser,
    (agent, main): (&str, bool),
    (line, n): (&[u8], u64),
    read: Option<said::LineSaid>,
) {
    let Some(read) = read else {
        return;
    };
    if let Some(opts) = b.said {
        keep_said(b, agent, (line, n), (opts, read));
    } else if main && n <= TITLE_LINES && b.wants_prompt_title() {
        title_from(b, line, n, read);
    }
}

/// Offers the prompt line `n` holds, if any, as the session's title.
fn title_from(b: &mut SessionParser, line: &[u8], n: u64, read: said::LineSaid) {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else {
        return;
    };
    for (_, _, pieces) in read(&v, n, SaidOptions::default()) {
        b.offer_prompt(&pieces);
    }
}

/// Keeps what line `n` of a client's lines says, read by its client's
/// `said`.
fn keep_said(
    b: &mut SessionParser,
    agent: &str,
    (line, n): (&[u8], u64),
    (opts, read): (SaidOptions, said::LineSaid),
) {
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else {
        return;
    };
    for (record, at, pieces) in read(&v, n, opts) {
        // A subagent's own file numbers its lines from 1 too: its line
        // names it apart from the main file's.
        let record = match record.strip_prefix("line:") {
            Some(_) if agent != b.out.session_id => format!("{agent}/{record}"),
            _ => record,
        };
        b.keep_said(agent, record, at, pieces);
    }
}

/// `json_records` for a format whose every line is one serde record `T`,
/// read by `read` (a line that is not a `T` is degraded or unknown, as there).
pub(crate) fn typed_records<T: serde::de::DeserializeOwned>(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
    read: fn(&mut SessionParser, T, &mut Owner<'_>),
) -> Result<u64, BadLine> {
    json_records(b, file, bytes, |b, line, _, owner| {
        let rec: T = serde_json::from_slice(line)?;
        read(b, rec, owner);
        Ok(())
    })
}

/// Reads a file that is one JSON document written whole at every change
/// (Gemini CLI's older chats, Cline's sessions): read whole or not at all
/// (a changed one is read again from its start, so a block that does not
/// begin the file reads nothing), a document cut short (being written) is
/// left for the next read, one that is not JSON is one degraded line.
/// `read` gets the document, the file's `Owner` and the bytes it was read
/// from. Returns the bytes read.
pub(crate) fn whole_document<T: serde::de::DeserializeOwned + Default>(
    b: &mut SessionParser,
    file: usize,
    bytes: &[u8],
    read: impl FnOnce(&mut SessionParser, T, &mut Owner<'_>, &[u8]),
) -> Result<u64, BadLine> {
    let (rel, agent, main, start) = {
        let c = &b.out.files[file];
        (c.rel_path.clone(), c.agent_id.clone(), c.main, c.offset)
    };
    if start != 0 {
        return Ok(0);
    }
    let body = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let doc: T = match serde_json::from_slice(body) {
        Ok(d) => d,
        Err(e) if e.is_eof() => return Ok(0),
        Err(e) => {
            b.bad(&rel, 1, format!("invalid JSON: {e}"))?;
            T::default()
        }
    };
    let mut span = Span::new();
    let mut owner = Owner {
        agent: &agent,
        main,
        span: &mut span,
    };
    read(b, doc, &mut owner, body);
    b.span(&agent).merge(&span);
    let f = &mut b.out.files[file];
    f.offset = bytes.len() as u64;
    f.line = bytes.iter().filter(|&&c| c == b'\n').count() as u64 + 1;
    b.out.bytes += bytes.len() as u64;
    Ok(bytes.len() as u64)
}

/// A record of `owner`'s at `at` was read: its agent's span sees it, the
/// main agent's first record starts the session, and the session's last
/// activity moves on.
pub(crate) fn saw(
    b: &mut SessionParser,
    owner: &mut Owner<'_>,
    at: Option<crate::domain::clock::Millis>,
) {
    owner.span.see(at);
    if owner.main && b.out.started_at.is_none() {
        b.out.started_at = at;
    }
    if let Some(at) = at {
        b.out.last_activity_at = b.out.last_activity_at.max(Some(at));
    }
}

/// A UUID in its 36-character lowercase text form (a session's id in a
/// file or folder name).
pub fn uuid_like(s: &str) -> bool {
    s.len() == 36
        && s.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_digit() || ('a'..='f').contains(&c),
        })
}
