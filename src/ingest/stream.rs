//! Reading one session's files as a stream of parts: a block of lines at a
//! time, so memory follows the line cap, not the file; a part handed to the
//! writer every `PART_BYTES`; and, for a session read before, only what was
//! appended since (tail resume), after checking that the bytes before it are
//! the ones read then.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::Options;
use crate::corpus::{self, Opened, ReadError, SessionFiles, Skip};
use crate::transcript::{BadLine, ParsedSession, SessionParser, SpareCores};

/// Bytes read per `read` call.
const BLOCK: u64 = 8 << 20;

/// Room kept before each block read ahead (`Reader::read_ahead`): the
/// unfinished line of the block before is copied there, so the two join
/// without moving the block. A longer unfinished line is joined by copying.
const SLACK: usize = 1 << 20;

/// Where one file was read to, and what identifies it: a later run goes on
/// from `offset` only if the file is the same (device, inode) and the
/// `TAIL_CHECK` bytes before `offset` hash the same.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    pub rel: String,
    pub dev: u64,
    pub ino: u64,
    pub offset: u64,
    /// Hashes of the `TAIL_CHECK` bytes before `offset` and of the file's first ones.
    pub tail: String,
    pub head: String,
    /// Size and mtime the walk saw for the file and its sidecar when it was
    /// read: while they stand, the file is neither checked nor opened.
    pub seen: Seen,
}

/// A file's (and its sidecar's) size and mtime, as the walk saw them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seen {
    pub size: u64,
    pub mtime_ns: i128,
    pub sidecar: Option<(u64, i128)>,
}

impl Seen {
    fn of(f: &corpus::PlannedFile) -> Seen {
        Seen {
            size: f.size,
            mtime_ns: f.mtime_ns,
            sidecar: f
                .sidecar
                .as_ref()
                .map(|(_, _, size, mtime)| (*size, *mtime)),
        }
    }
}

/// What is kept of a session to read on from where the last run stopped.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ResumeState {
    pub session: ParsedSession,
    pub marks: Vec<Mark>,
}

impl ResumeState {
    /// Bytes a resumed read of `files` would read: what each changed file
    /// holds past its mark (all of a file the state does not know).
    pub fn to_read(&self, files: &SessionFiles) -> u64 {
        std::iter::once(&files.main)
            .chain(files.agents.iter())
            .map(|f| match self.marks.iter().find(|m| m.rel == f.rel) {
                Some(m) if m.seen == Seen::of(f) => 0,
                Some(m) => f.size.saturating_sub(m.offset),
                None => f.size,
            })
            .sum()
    }
}

/// A part of a session, ready for the writer.
pub struct Part {
    pub parsed: Box<ParsedSession>,
    /// The `ResumeState` after this part, serialized.
    pub state: String,
    /// The session's last part: its checkpoint can be written.
    pub last: bool,
}

/// Why a session could not be ingested; `strict` when `--strict` made it fail.
#[derive(Debug)]
pub struct Failure {
    pub reason: String,
    pub strict: bool,
}

impl Failure {
    fn strict(b: &BadLine) -> Failure {
        let reason = if b.line == 0 {
            format!("--strict: {}: {}", b.file, b.reason)
        } else {
            format!("--strict: {}:{}: {}", b.file, b.line, b.reason)
        };
        Failure {
            reason,
            strict: true,
        }
    }
}

/// What reading a session hands on, in order: parts, or one failure that
/// ends it; with the skips and byte counts of the reading so far.
pub struct Event {
    pub result: Result<Part, Failure>,
    pub skips: Vec<Skip>,
    pub bytes: u64,
}

impl Event {
    /// Messages the event carries (what it holds in memory, roughly).
    pub fn messages(&self) -> usize {
        self.result.as_ref().map_or(0, |p| p.parsed.usage.len())
    }
}

/// The buffers a worker reuses from file to file: one block of lines and one
/// sidecar in memory at a time.
#[derive(Default)]
pub struct Buffers {
    file: Vec<u8>,
    meta: Vec<u8>,
    /// The run's spare cores, which a large block may borrow.
    spare: Option<Arc<SpareCores>>,
}

impl Buffers {
    /// A worker's buffers, its large blocks helped by the run's spare cores.
    pub fn sharing(spare: Arc<SpareCores>) -> Buffers {
        Buffers {
            spare: Some(spare),
            ..Buffers::default()
        }
    }
}

/// Whether every file a stored state read is still the file it read (same
/// identity, at least as long, same bytes before the offset), so reading can
/// go on from the marks. Any doubt means the session is read again whole.
fn still_valid(state: &ResumeState, files: &SessionFiles, bytes: &mut u64) -> bool {
    let all: Vec<&corpus::PlannedFile> = std::iter::once(&files.main)
        .chain(files.agents.iter())
        .collect();
    state.marks.iter().all(|m| {
        let Some(f) = all.iter().find(|f| f.rel == m.rel) else {
            return false;
        };
        if m.seen == Seen::of(f) {
            return true;
        }
        let Ok(o) = corpus::open(&f.abs) else {
            return false;
        };
        if o.dev != m.dev || o.ino != m.ino || o.len < m.offset {
            return false;
        }
        *bytes += 2 * m.offset.min(corpus::TAIL_CHECK);
        corpus::tail_hash(&o.file, m.offset).is_ok_and(|h| h == m.tail)
            && corpus::head_hash(&o.file, m.offset).is_ok_and(|h| h == m.head)
    }) && state.marks.len() == state.session.files.len()
        && state
            .session
            .files
            .iter()
            .zip(&state.marks)
            .all(|(c, m)| c.rel_path == m.rel && c.offset == m.offset)
}

/// Reads a session, calling `emit` with each part (or the failure that
/// stops it). `resume` is the state the last run left, when it left one.
pub fn read_session(
    files: &SessionFiles,
    opts: &Options,
    resume: Option<ResumeState>,
    buf: &mut Buffers,
    emit: &mut dyn FnMut(Event) -> bool,
) {
    let mut r = Reader {
        opts,
        parser: SessionParser::new(&files.session_id, opts.strict),
        marks: Vec::new(),
        root: files.root,
        skips: Vec::new(),
        bytes: 0,
        since_part: 0,
        emit,
        stopped: false,
    };
    let mut checked = 0;
    if let Some(state) = resume.filter(|s| !opts.replay && still_valid(s, files, &mut checked))
        && let Some(p) = SessionParser::resume(state.session, opts.strict)
    {
        r.parser = p;
        r.marks = state.marks;
    }
    r.parser.set_line_cap(opts.max_line_size);
    r.parser.share_cores(buf.spare.clone());
    r.parser.hint_cwd(files.cwd_hint.as_deref());
    r.bytes += checked;
    if let Err(f) = r.read_all(files, buf) {
        r.send(Err(f));
        return;
    }
    if !r.stopped {
        let parser = std::mem::replace(&mut r.parser, SessionParser::new("", false));
        let part = parser.finish();
        r.send_part(part, true);
    }
}

struct Reader<'a> {
    opts: &'a Options,
    parser: SessionParser,
    marks: Vec<Mark>,
    root: usize,
    skips: Vec<Skip>,
    bytes: u64,
    since_part: u64,
    emit: &'a mut dyn FnMut(Event) -> bool,
    /// The writer is gone (an error there): stop reading.
    stopped: bool,
}

impl Reader<'_> {
    fn send(&mut self, result: Result<Part, Failure>) {
        let ev = Event {
            result,
            skips: std::mem::take(&mut self.skips),
            bytes: std::mem::take(&mut self.bytes),
        };
        if !(self.emit)(ev) {
            self.stopped = true;
        }
    }

    fn send_part(&mut self, parsed: ParsedSession, last: bool) {
        let state = ResumeState {
            session: parsed,
            marks: self.marks.clone(),
        };
        let json = serde_json::to_string(&state).expect("a parsed session serializes");
        self.since_part = 0;
        self.send(Ok(Part {
            parsed: Box::new(state.session),
            state: json,
            last,
        }));
    }

    /// Records where file `idx` stands now.
    fn mark(&mut self, idx: usize, f: &corpus::PlannedFile, o: &Opened) -> Result<(), ReadError> {
        let rel = f.rel.as_str();
        let offset = self.parser.cursor(idx).offset;
        self.bytes += 2 * offset.min(corpus::TAIL_CHECK);
        let m = Mark {
            seen: Seen::of(f),
            rel: rel.to_string(),
            dev: o.dev,
            ino: o.ino,
            offset,
            tail: corpus::tail_hash(&o.file, offset)?,
            head: corpus::head_hash(&o.file, offset)?,
        };
        match self.marks.iter_mut().find(|x| x.rel == rel) {
            Some(x) => *x = m,
            None => self.marks.push(m),
        }
        Ok(())
    }

    /// Whether a resumed file is as the last run left it (nothing to read).
    fn unchanged(&self, f: &corpus::PlannedFile) -> bool {
        self.marks
            .iter()
            .any(|m| m.rel == f.rel && m.seen == Seen::of(f))
    }

    fn read_all(&mut self, files: &SessionFiles, buf: &mut Buffers) -> Result<(), Failure> {
        if !self.unchanged(&files.main) {
            self.read_main(files, buf)?;
        }
        for a in &files.agents {
            if self.stopped {
                return Ok(());
            }
            if !self.unchanged(a) {
                self.read_agent(a, buf)?;
            }
        }
        Ok(())
    }

    fn read_main(&mut self, files: &SessionFiles, buf: &mut Buffers) -> Result<(), Failure> {
        let main = match corpus::open(&files.main.abs) {
            Ok(o) => o,
            Err(e) => {
                self.skips.push(Skip {
                    root: self.root,
                    reason: e.reason,
                    path: files.main.rel.clone(),
                });
                return Err(Failure {
                    reason: format!("main transcript {}: {}", e.reason, e.detail),
                    strict: false,
                });
            }
        };
        let idx = self.parser.begin_main(&files.main.rel);
        self.read_file(idx, &files.main, main, &mut buf.file)
            .map_err(|e| match e {
                FileError::Strict(b) => Failure::strict(&b),
                FileError::Read(e) => Failure {
                    reason: format!("main transcript {}: {}", e.reason, e.detail),
                    strict: false,
                },
            })
    }

    fn read_agent(&mut self, a: &corpus::PlannedFile, buf: &mut Buffers) -> Result<(), Failure> {
        let opened = match corpus::open(&a.abs) {
            Ok(o) => o,
            Err(e) => return self.unread(&a.rel, &e),
        };
        let sidecar = match &a.sidecar {
            None => None,
            Some((rel, abs, _, _)) => {
                match corpus::read_into(abs, self.opts.max_line_size, &mut buf.meta) {
                    Ok(()) => {
                        self.bytes += buf.meta.len() as u64;
                        Some((rel.as_str(), buf.meta.as_slice()))
                    }
                    Err(e) => {
                        self.unread(rel, &e)?;
                        None
                    }
                }
            }
        };
        let idx = self
            .parser
            .begin_agent(&a.rel, &a.role, sidecar)
            .map_err(|b| Failure::strict(&b))?;
        match self.read_file(idx, a, opened, &mut buf.file) {
            Ok(()) => Ok(()),
            Err(FileError::Strict(b)) => Err(Failure::strict(&b)),
            Err(FileError::Read(e)) => self.unread(&a.rel, &e),
        }
    }

    /// A file that could not be read: counted as skipped, and a bad line of
    /// its session (which is still ingested).
    fn unread(&mut self, rel: &str, e: &ReadError) -> Result<(), Failure> {
        self.skips.push(Skip {
            root: self.root,
            reason: e.reason,
            path: rel.to_string(),
        });
        self.parser
            .add_bad_line(BadLine {
                file: rel.to_string(),
                line: 0,
                reason: format!("not read: {}: {}", e.reason, e.detail),
            })
            .map_err(|b| Failure::strict(&b))
    }

    /// Reads file `idx` from its cursor to its last complete line, a block
    /// at a time; a line over the line cap is skipped as a degraded line.
    fn read_file(
        &mut self,
        idx: usize,
        f: &corpus::PlannedFile,
        mut o: Opened,
        buf: &mut Vec<u8>,
    ) -> Result<(), FileError> {
        use std::io::{Seek, SeekFrom};
        let cap = self.opts.max_line_size;
        let start = self.parser.cursor(idx).offset;
        o.file
            .seek(SeekFrom::Start(start))
            .map_err(|e| FileError::Read(corpus::unreadable(&e)))?;
        buf.clear();
        // Reading ahead costs a block or two of memory, worth it only where
        // a core would otherwise idle (a session alone, or the last ones).
        if o.len.saturating_sub(start) > BLOCK && self.parser.core_spare() {
            return self.read_ahead(idx, f, &o, buf);
        }
        loop {
            let n = corpus::read_more(&mut o.file, BLOCK, buf)?;
            if n == 0 {
                break; // what is left is a line still being written
            }
            self.bytes += n as u64;
            let used = self.parser.block(idx, buf)?;
            buf.drain(..used as usize);
            self.since_part += used;
            if buf.len() as u64 > cap {
                self.skip_long_line(idx, &mut o, buf, cap)?;
            }
            if self.part_due(idx, f, &o)? {
                return Ok(());
            }
        }
        self.mark(idx, f, &o)?;
        Ok(())
    }

    /// Hands the writer a part when `PART_BYTES` were read since the last:
    /// whether reading must stop (the writer is gone).
    fn part_due(
        &mut self,
        idx: usize,
        f: &corpus::PlannedFile,
        o: &Opened,
    ) -> Result<bool, FileError> {
        if self.since_part >= self.opts.part_bytes {
            self.mark(idx, f, o)?;
            let part = self.parser.take_part();
            self.send_part(part, false);
        }
        Ok(self.stopped)
    }

    /// `read_file` for a file of more than one block: a thread reads the
    /// next block while this one parses the last (copying a block out of
    /// the page cache was a fifth of the parsing thread's time on a 4 GiB
    /// session). The lines parsed, where each ends and what a part holds
    /// are as when reading in turn: `carry` holds the unfinished line
    /// between blocks, an overlong line is skipped to its newline, and
    /// what follows the last newline is left for later.
    fn read_ahead(
        &mut self,
        idx: usize,
        f: &corpus::PlannedFile,
        o: &Opened,
        carry: &mut Vec<u8>,
    ) -> Result<(), FileError> {
        use std::sync::mpsc;
        let cap = self.opts.max_line_size;
        std::thread::scope(|scope| {
            // One block waits while one is read and one parsed.
            let (tx, rx) = mpsc::sync_channel::<Result<Vec<u8>, ReadError>>(1);
            let (back, spent) = mpsc::channel::<Vec<u8>>();
            let file = &o.file;
            scope.spawn(move || {
                loop {
                    let mut b = spent.try_recv().unwrap_or_else(|_| vec![0; SLACK]);
                    b.truncate(SLACK);
                    let read = corpus::read_more(file, BLOCK, &mut b);
                    let end = !matches!(read, Ok(n) if n > 0);
                    if tx.send(read.map(|_| b)).is_err() || end {
                        return;
                    }
                }
            });
            // Bytes of an overlong line skipped so far, while skipping one.
            let mut skipping: Option<u64> = None;
            for block in rx {
                let mut block = block?;
                let n = block.len() - SLACK;
                if n == 0 {
                    break; // what is left is a line still being written
                }
                self.bytes += n as u64;
                let mut from = SLACK;
                if let Some(len) = skipping {
                    let Some(i) = memchr::memchr(b'\n', &block[from..]) else {
                        skipping = Some(len + n as u64);
                        let _ = back.send(block);
                        continue;
                    };
                    let len = len + i as u64 + 1;
                    self.since_part += len;
                    let reason = crate::transcript::long_line_reason(len, cap);
                    self.parser.skip_line(idx, len, reason)?;
                    skipping = None;
                    from += i + 1;
                }
                if from == SLACK && !carry.is_empty() && carry.len() <= SLACK {
                    // Join the unfinished line and the block in place.
                    from = SLACK - carry.len();
                    block[from..SLACK].copy_from_slice(carry);
                    carry.clear();
                }
                let used = if carry.is_empty() {
                    let used = self.parser.block(idx, &block[from..])?;
                    carry.extend_from_slice(&block[from + used as usize..]);
                    used
                } else {
                    carry.extend_from_slice(&block[from..]);
                    let used = self.parser.block(idx, carry)?;
                    carry.drain(..used as usize);
                    used
                };
                let _ = back.send(block);
                self.since_part += used;
                if carry.len() as u64 > cap {
                    skipping = Some(carry.len() as u64);
                    carry.clear();
                }
                if self.part_due(idx, f, o)? {
                    return Ok(());
                }
            }
            self.mark(idx, f, o)?;
            Ok(())
        })
    }

    /// `buf` holds the start of a line longer than `cap`: reads on to its
    /// newline without keeping it, and records it as a degraded line. A
    /// long line with no newline yet is a write in progress: left for later.
    fn skip_long_line(
        &mut self,
        idx: usize,
        o: &mut Opened,
        buf: &mut Vec<u8>,
        cap: u64,
    ) -> Result<(), FileError> {
        let mut len = 0u64;
        loop {
            if let Some(i) = memchr::memchr(b'\n', buf) {
                len += i as u64 + 1;
                buf.drain(..=i);
                let reason = crate::transcript::long_line_reason(len, cap);
                self.since_part += len;
                self.parser.skip_line(idx, len, reason)?;
                return Ok(());
            }
            len += buf.len() as u64;
            buf.clear();
            let n = corpus::read_more(&mut o.file, BLOCK, buf)?;
            if n == 0 {
                return Ok(());
            }
            self.bytes += n as u64;
        }
    }
}

enum FileError {
    Read(ReadError),
    Strict(BadLine),
}

impl From<ReadError> for FileError {
    fn from(e: ReadError) -> Self {
        FileError::Read(e)
    }
}

impl From<BadLine> for FileError {
    fn from(b: BadLine) -> Self {
        FileError::Strict(b)
    }
}
