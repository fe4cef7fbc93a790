//! Reading one session's files as a stream of parts: a block of lines at a
//! time, so memory follows the line cap, not the file; a part handed to the
//! writer every `PART_BYTES`; and, for a session read before, only what was
//! appended since (tail resume), after checking that the bytes before it are
//! the ones read then.

mod ahead;
mod around;
mod parts;

use ahead::{Fetched, Later, read_blocks};
use around::Around;
use parts::still_valid;
pub use parts::{Buffers, Event, Failure, Mark, Part, ResumeState, Seen};

use std::sync::mpsc;

use super::Options;
use crate::domain::corpus::{self, Opened, ReadError, SessionFiles, Skip};
use crate::domain::transcript::{BadLine, Gap, Hole, ParsedSession, SessionParser, SpareCore};

/// Bytes read per `read` call. Unit tests read in blocks of a kilobyte,
/// so that their files span many (and are read ahead, src/services/ingest/ahead_tests.rs).
pub(super) const BLOCK: u64 = if cfg!(test) { 1 << 10 } else { 8 << 20 };

#[cfg(test)]
thread_local! {
    /// Blocks this thread took read ahead with their later lines scanned
    /// (the tests' proof).
    pub(super) static AHEAD_SCANS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
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
        holes: Vec::new(),
        root: files.root,
        skips: Vec::new(),
        bytes: 0,
        since_part: 0,
        emit,
        stopped: false,
    };
    let mut checked = 0;
    if let Some(state) = resume.filter(|s| !opts.replay && still_valid(s, files, &mut checked)) {
        if opts.reads_around_holes() {
            // The index reads each session whole, around the holes the
            // last ingest noted (while the files are as it read them).
            r.holes = state
                .session
                .files
                .into_iter()
                .map(|f| (f.rel_path, f.holes))
                .collect();
        } else if !opts.said_only
            && let Some(p) = SessionParser::resume(state.session, opts.strict)
        {
            r.parser = p;
            r.marks = state.marks;
        }
    }
    r.parser.note_holes(!opts.said_only);
    r.parser.set_line_cap(opts.max_line_size);
    r.parser.read_said(opts.said);
    r.parser.read_usage(!opts.said_only);
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
    /// The holes of each file (by path) to read around.
    holes: Vec<(String, Vec<Hole>)>,
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
            packed: None,
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
        self.parser.read_as(idx, files.main.format);
        self.read_file(idx, &files.main, main, &mut buf.file)
            .map_err(|e| match e {
                FileError::Strict(b) => Failure::strict(&b),
                FileError::Read(e) => Failure {
                    reason: format!("main transcript {}: {}", e.reason, e.detail),
                    strict: false,
                },
            })?;
        self.read_totals(idx, &files.main, buf)
    }

    /// The document of running totals beside file `idx` (a Droid
    /// session's settings), when its format keeps one: read whole after
    /// the file.
    fn read_totals(
        &mut self,
        idx: usize,
        f: &corpus::PlannedFile,
        buf: &mut Buffers,
    ) -> Result<(), Failure> {
        let Some((rel, abs, _, _)) = f
            .sidecar
            .as_ref()
            .filter(|_| f.format.keeps_totals_beside())
        else {
            return Ok(());
        };
        match corpus::read_into(abs, self.opts.max_line_size, &mut buf.meta) {
            Ok(()) => {
                self.bytes += buf.meta.len() as u64;
                self.parser
                    .totals_document(idx, rel, &buf.meta)
                    .map_err(|b| Failure::strict(&b))
            }
            Err(e) => self.unread(rel, &e),
        }
    }

    fn read_agent(&mut self, a: &corpus::PlannedFile, buf: &mut Buffers) -> Result<(), Failure> {
        let opened = match corpus::open(&a.abs) {
            Ok(o) => o,
            Err(e) => return self.unread(&a.rel, &e),
        };
        let meta = a
            .sidecar
            .as_ref()
            .filter(|_| !a.format.keeps_totals_beside());
        let sidecar = match meta {
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
        self.parser.read_as(idx, a.format);
        match self.read_file(idx, a, opened, &mut buf.file) {
            Ok(()) => self.read_totals(idx, a, buf),
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
        let mut around = Around::new(self.holes_of(f), start);
        // Reading ahead costs a block or two of memory, worth it only where
        // a core would otherwise idle (a session alone, or the last ones).
        if o.len.saturating_sub(start) > BLOCK
            && let Some(core) = self.parser.borrow_core()
        {
            return self.read_ahead(idx, f, &o, (around, buf), core);
        }
        let mut gaps = Vec::new();
        loop {
            let (n, passed) = around.read(&o.file, BLOCK, buf, &mut gaps)?;
            if n + passed == 0 {
                break; // what is left is a line still being written
            }
            self.bytes += n + passed;
            loop {
                // Every gap follows a line's end: the lines read take them.
                self.parser.read_around(std::mem::take(&mut gaps));
                let used = self.parser.block(idx, buf)?;
                buf.drain(..used as usize);
                self.since_part += used;
                if buf.len() as u64 <= cap {
                    break;
                }
                // The lines read after the overlong one's end are parsed
                // next (they were left unread when the file ended there).
                around.give_up();
                self.skip_long_line(idx, &mut o, buf, cap)?;
            }
            if self.part_due(idx, f, &o)? {
                return Ok(());
            }
        }
        self.finish_file(idx, f, &o)
    }

    /// The holes of file `f` to read around: those the last ingest noted
    /// (only the reader of a format that reads around them notes any).
    fn holes_of(&mut self, f: &corpus::PlannedFile) -> Vec<Hole> {
        match self.holes.iter().position(|(rel, _)| *rel == f.rel) {
            Some(i) => self.holes.swap_remove(i).1,
            None => Vec::new(),
        }
    }

    /// Marks file `idx` read to its end. Bytes after its last newline are
    /// a line still being written, or the end of a damaged file: they are
    /// read once the line ends, and until then the file is a degraded one,
    /// said so rather than a session that quietly holds nothing.
    fn finish_file(
        &mut self,
        idx: usize,
        f: &corpus::PlannedFile,
        o: &Opened,
    ) -> Result<(), FileError> {
        use std::io::Seek;
        self.mark(idx, f, o)?;
        let read_to = (&o.file)
            .stream_position()
            .map_err(|e| FileError::Read(corpus::unreadable(&e)))?;
        let offset = self.parser.cursor(idx).offset;
        if read_to > offset {
            self.parser.unended(idx, read_to - offset);
        }
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

    /// `read_file` for a file of more than one block, with a spare `core`:
    /// a thread reads the next block while this one parses the last, and
    /// scans the block's later lines (the costly, stateless part of reading
    /// them) meanwhile, a share that follows which of the two waits for the
    /// other. Copying a block out of the page cache was a fifth of the
    /// parsing thread's time on a 4 GiB session, and a helper that scanned
    /// part of each block while this thread waited for it left a core idle
    /// a third of the time. The lines parsed, where each ends and what a
    /// part holds are as when reading in turn.
    fn read_ahead(
        &mut self,
        idx: usize,
        f: &corpus::PlannedFile,
        o: &Opened,
        (around, carry): (Around, &mut Vec<u8>),
        core: SpareCore,
    ) -> Result<(), FileError> {
        let scans = self.parser.scans_apart(idx);
        let blocks = self.parser.scans_blocks();
        std::thread::scope(|scope| {
            // One block waits while one is read and one parsed.
            let (tx, rx) = mpsc::sync_channel::<Result<Fetched, ReadError>>(1);
            let (back, spent) = mpsc::channel::<Vec<u8>>();
            let (file, kinds) = (&o.file, (scans, blocks));
            scope.spawn(move || read_blocks(file, around, (tx, spent), kinds, core));
            // Bytes of an overlong line skipped so far, while skipping one.
            let mut skipping: Option<u64> = None;
            for ahead in rx {
                let (mut ahead, gaps, passed) = ahead?;
                let n = ahead.borrow_owner().len() as u64;
                if n + passed == 0 {
                    break; // what is left is a line still being written
                }
                self.bytes += n + passed;
                #[cfg(test)]
                AHEAD_SCANS
                    .with(|n| n.set(n.get() + usize::from(ahead.borrow_dependent().is_some())));
                ahead.with_dependent_mut(|block, later| {
                    self.take_block(idx, (block, gaps), later.take(), carry, &mut skipping)
                })?;
                let _ = back.send(ahead.into_owner());
                if self.part_due(idx, f, o)? {
                    return Ok(());
                }
            }
            self.finish_file(idx, f, o)
        })
    }

    /// Parses a block read ahead (around `gaps`): first the end of the
    /// line `carry` holds (or of the overlong one being skipped), then its
    /// own lines, the later ones from their scan when `later` holds it.
    /// What follows its last newline is left in `carry`.
    fn take_block(
        &mut self,
        idx: usize,
        (block, gaps): (&[u8], Vec<Gap>),
        later: Later<'_>,
        carry: &mut Vec<u8>,
        skipping: &mut Option<u64>,
    ) -> Result<(), FileError> {
        let cap = self.opts.max_line_size;
        let mut from = 0;
        if skipping.is_some() || !carry.is_empty() {
            let Some(i) = memchr::memchr(b'\n', block) else {
                match skipping {
                    Some(len) => *len += block.len() as u64,
                    None => carry.extend_from_slice(block),
                }
                cap_carry(carry, skipping, cap);
                return Ok(());
            };
            from = i + 1;
            if let Some(len) = skipping.take() {
                let len = len + from as u64;
                self.since_part += len;
                let reason = crate::domain::transcript::long_line_reason(len, cap);
                self.parser.skip_line(idx, len, reason)?;
            } else {
                carry.extend_from_slice(&block[..from]);
                self.since_part += self.parser.block(idx, carry)?;
                carry.clear(); // one line, through its newline
            }
        }
        // Every gap follows a line's end, so none is before `from`.
        let gaps = gaps.into_iter().map(|g| Gap {
            pos: g.pos.saturating_sub(from),
            hole: g.hole,
        });
        self.parser.read_around(gaps.collect());
        let used = match later {
            Some((split, lines)) => self.parser.block_scanned(idx, &block[from..split], lines)?,
            None => self.parser.block(idx, &block[from..])?,
        };
        carry.extend_from_slice(&block[from + used as usize..]);
        self.since_part += used;
        cap_carry(carry, skipping, cap);
        Ok(())
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
                let reason = crate::domain::transcript::long_line_reason(len, cap);
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

/// An unfinished line over the line cap is skipped from here on.
fn cap_carry(carry: &mut Vec<u8>, skipping: &mut Option<u64>, cap: u64) {
    if carry.len() as u64 > cap {
        *skipping = Some(carry.len() as u64);
        carry.clear();
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
