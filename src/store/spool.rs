//! The spool: where a hook puts its event when it cannot get the database's
//! write lock within its budget. A file beside the database
//! (`<db>.spool`, 0600, append-only, one JSON line per event, fsync'd); the
//! next writer drains it into `events_raw` in file order under the events'
//! own duplicate rules, so a drain that is cut short and repeated stores
//! nothing twice. A line that cannot be read back (a write cut by a crash)
//! is moved to `<db>.spool.rejected`, never dropped.
//!
//! These files sit beside the user's database, where anything may have been
//! put in their place: each is opened without following a link and without
//! blocking (a FIFO), and used only when it is a regular file of the
//! database's owner; otherwise it is reported with its fix and the
//! database path goes on without it. The spool is capped
//! (`spool.max_bytes`); an event past the cap is dropped and counted in
//! `<db>.spool.dropped` (one line per event, no payload), which `status`
//! and `check` report.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::Store;
use super::events::{NewEvent, Recorded};
use crate::domain::harness::Target;

/// The spool beside the database at `db`.
pub fn path_for(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push(".spool");
    PathBuf::from(p)
}

/// Where the events dropped at a full spool are counted.
pub fn dropped_path_for(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push(".spool.dropped");
    PathBuf::from(p)
}

/// The spool's default cap (setting `spool.max_bytes`).
pub const MAX_BYTES: u64 = 64 << 20;

/// The longest spool line read back: a hook's payload is at most 4 MiB,
/// and its line escapes it.
const MAX_LINE: usize = 16 << 20;

/// Opens `path`, a file kept beside the database at `db`: never through a
/// link, never blocking on a FIFO, and only a regular file of the
/// database's owner (when the database exists). `Ok(None)` when it does not
/// exist and `create` is off. The error names the file and the fix.
pub fn open_beside(db: &Path, path: &Path, create: bool) -> Result<Option<File>> {
    use std::os::unix::fs::MetadataExt;
    let opened = OpenOptions::new()
        .read(true)
        .append(true)
        .create(create)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path);
    let fix = |what: &str| {
        anyhow::anyhow!(
            "{} {what}: remove it (sessionkit makes a new one when it needs it)",
            path.display()
        )
    };
    let file = match opened {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !create => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(fix("is a symbolic link, which sessionkit does not follow"));
        }
        Err(e) if e.raw_os_error() == Some(libc::EISDIR) => {
            return Err(fix("is a directory, not a file"));
        }
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
            return Err(fix("is a FIFO or socket, not a file"));
        }
        Err(e) => return Err(e).with_context(|| format!("opening {}", path.display())),
    };
    let meta = file
        .metadata()
        .with_context(|| format!("reading {}", path.display()))?;
    if !meta.is_file() {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        return Err(fix(if t.is_fifo() || t.is_socket() {
            "is a FIFO or socket, not a file"
        } else if t.is_dir() {
            "is a directory, not a file"
        } else {
            "is not a regular file"
        }));
    }
    if let Ok(owner) = std::fs::metadata(db).map(|m| m.uid())
        && meta.uid() != owner
    {
        return Err(fix(&format!(
            "belongs to user {}, not to the database's owner {owner}",
            meta.uid()
        )));
    }
    Ok(Some(file))
}

/// Where lines that could not be read back go.
pub fn rejected_path_for(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push(".spool.rejected");
    PathBuf::from(p)
}

/// Where events lost outright are counted: a hook that could write
/// neither the database nor the spool (a full disk). The file has a fixed
/// size, made while there is room, and is rewritten in place, so counting
/// a loss needs no new block.
pub fn lost_path_for(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push(".spool.lost");
    PathBuf::from(p)
}

/// The lost-event ledger's size: its count on the first line, padding.
const LEDGER_BYTES: usize = 512;

/// Opens the ledger beside `db` for reading and writing in place (never
/// through a link; a regular file only), creating it when `create`.
fn open_ledger(db: &Path, create: bool) -> Result<Option<File>> {
    let path = lost_path_for(db);
    let opened = OpenOptions::new()
        .read(true)
        .write(true)
        .create(create)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(&path);
    let file = match opened {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("opening {}", path.display())),
    };
    anyhow::ensure!(
        file.metadata()?.is_file(),
        "{} is not a regular file: remove it (sessionkit makes a new one)",
        path.display()
    );
    Ok(Some(file))
}

fn ledger_text(count: u64) -> Vec<u8> {
    let mut text = format!("{count}\n").into_bytes();
    text.resize(LEDGER_BYTES - 1, b' ');
    text.push(b'\n');
    text
}

/// Makes the lost-event ledger beside `db` when it is not there yet (a
/// writer calls it while the disk has room).
pub fn prepare_ledger(db: &Path) -> Result<()> {
    if lost_path_for(db).symlink_metadata().is_ok() {
        return Ok(());
    }
    let Some(mut f) = open_ledger(db, true)? else {
        return Ok(());
    };
    f.lock()?;
    if f.metadata()?.len() == 0 {
        f.write_all(&ledger_text(0))?;
        f.sync_all()?;
    }
    Ok(())
}

/// Events the ledger beside `db` counts as lost.
pub fn lost(db: &Path) -> Result<u64> {
    let Some(mut f) = open_ledger(db, false)? else {
        return Ok(0);
    };
    let mut head = [0u8; 32];
    let n = f.read(&mut head)?;
    Ok(std::str::from_utf8(&head[..n])
        .ok()
        .and_then(|t| t.split_whitespace().next())
        .and_then(|w| w.parse().ok())
        .unwrap_or(0))
}

/// Counts one more lost event in the ledger beside `db`, in place. Its
/// path, when the count was written.
pub fn count_lost(db: &Path) -> Result<PathBuf> {
    use std::os::unix::fs::FileExt;
    let f = open_ledger(db, true)?.context("the ledger is gone")?;
    f.lock()?;
    let before = lost(db)?;
    f.write_all_at(&ledger_text(before + 1), 0)?;
    f.sync_data()?;
    Ok(lost_path_for(db))
}

/// One spooled event: the `events_raw` row and the status it applies.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
struct Line {
    /// The format; a line of another version is rejected, not guessed at.
    v: u32,
    key: String,
    has_delivery_id: bool,
    harness: String,
    event: String,
    session_id: Option<String>,
    agent_id: Option<String>,
    received_at: i64,
    payload: String,
    /// The agent the event speaks for and the evidence it carries.
    target: Option<LineTarget>,
    /// The client process that sent it (absent in lines written before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sender: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
struct LineTarget {
    agent_id: String,
    status: String,
    at: Option<i64>,
    cause: String,
}

const VERSION: u32 = 1;

impl Line {
    fn of(ev: &NewEvent<'_>) -> Line {
        Line {
            v: VERSION,
            key: ev.key.iter().map(|b| format!("{b:02x}")).collect(),
            has_delivery_id: ev.has_delivery_id,
            harness: ev.harness.to_string(),
            event: ev.event.to_string(),
            session_id: ev.session_id.map(str::to_string),
            agent_id: ev.agent_id.map(str::to_string),
            received_at: ev.received_at,
            payload: ev.payload.to_string(),
            target: match &ev.target {
                Target::Agent { agent_id, evidence } => Some(LineTarget {
                    agent_id: agent_id.clone(),
                    status: evidence.status.as_str().to_string(),
                    at: evidence.at,
                    cause: evidence.cause.as_str().to_string(),
                }),
                // Refused and none both store the event without a status.
                Target::None | Target::Refused => None,
            },
            sender: ev.sender.map(str::to_string),
        }
    }

    fn key(&self) -> Option<[u8; 32]> {
        let bytes = self.key.as_bytes();
        if bytes.len() != 64 {
            return None;
        }
        let mut key = [0u8; 32];
        for (i, pair) in bytes.chunks(2).enumerate() {
            key[i] = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
        }
        Some(key)
    }

    fn event(&self) -> Option<NewEvent<'_>> {
        if self.v != VERSION {
            return None;
        }
        Some(NewEvent {
            key: self.key()?,
            has_delivery_id: self.has_delivery_id,
            harness: &self.harness,
            event: &self.event,
            session_id: self.session_id.as_deref(),
            agent_id: self.agent_id.as_deref(),
            received_at: self.received_at,
            payload: &self.payload,
            target: match &self.target {
                Some(t) => Target::Agent {
                    agent_id: t.agent_id.clone(),
                    evidence: super::events::evidence_of(&t.status, t.at, Some(&t.cause)),
                },
                None => Target::None,
            },
            sender: self.sender.as_deref(),
        })
    }
}

/// Opens (creating, 0600) a file beside `db` for appending, and fsyncs
/// its directory when it was created so the file itself survives a crash.
fn open_append(db: &Path, path: &Path) -> Result<File> {
    let existed = path.symlink_metadata().is_ok();
    let file = open_beside(db, path, true)?.expect("created");
    if !existed && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        File::open(dir)?.sync_all()?;
    }
    Ok(file)
}

/// Appends one event to the spool beside `db`: one write under an exclusive
/// lock on the file, then fsync. Returns the spool's path. A spool that
/// would pass `max_bytes` takes nothing: the event is counted in
/// `<db>.spool.dropped` and the error says so.
pub fn append(db: &Path, ev: &NewEvent<'_>, max_bytes: u64) -> Result<PathBuf> {
    let path = path_for(db);
    let mut line = serde_json::to_vec(&Line::of(ev))?;
    line.push(b'\n');
    let mut file = open_append(db, &path)?;
    file.lock()
        .with_context(|| format!("locking the spool {}", path.display()))?;
    let size = file.metadata()?.len();
    if size + line.len() as u64 > max_bytes {
        drop(file);
        let count = serde_json::json!({"at": ev.received_at, "event": ev.event,
                                       "harness": ev.harness, "session_id": ev.session_id});
        let mut out = open_append(db, &dropped_path_for(db))?;
        out.lock()?;
        writeln!(out, "{count}")?;
        out.sync_data()?;
        anyhow::bail!(
            "the spool {} is full ({size} bytes, setting spool.max_bytes {max_bytes}): this event is dropped and counted in {}",
            path.display(),
            dropped_path_for(db).display()
        );
    }
    file.write_all(&line)
        .and_then(|()| file.sync_data())
        .with_context(|| format!("writing the spool {}", path.display()))?;
    Ok(path)
}

/// The spool's cap for the database at `db`: `SESSIONKIT_SPOOL_MAX_BYTES`,
/// else the setting as stored (read without waiting: the database may be
/// busy, which is why the spool is written), else `MAX_BYTES`.
pub fn max_bytes(db: &Path) -> u64 {
    if let Some(n) = std::env::var("SESSIONKIT_SPOOL_MAX_BYTES")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|n| *n > 0)
    {
        return n;
    }
    let stored = rusqlite::Connection::open_with_flags(
        db,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .ok()
    .and_then(|c| {
        super::settings::setting_in(&c, "spool.max_bytes")
            .ok()
            .flatten()
    });
    stored
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(MAX_BYTES)
}

/// What is waiting in the spool.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Waiting {
    /// Events in the spool, not yet in the database.
    pub events: u64,
    pub bytes: u64,
    /// Lines set aside because they could not be read back.
    pub rejected: u64,
    /// Events dropped at a full spool.
    pub dropped: u64,
    /// Events lost outright: neither the database nor the spool could be
    /// written (a full disk).
    pub lost: u64,
    /// Files beside the database that cannot be used, each with its fix.
    pub problems: Vec<String>,
}

/// Lines and bytes of a file beside `db`, read in blocks.
fn count_lines(db: &Path, path: &Path) -> Result<(u64, u64)> {
    let Some(mut f) = open_beside(db, path, false)? else {
        return Ok((0, 0));
    };
    let (mut lines, mut bytes, mut last) = (0u64, 0u64, b'\n');
    let mut buf = vec![0u8; 1 << 16];
    loop {
        let n = f
            .read(&mut buf)
            .with_context(|| format!("reading {}", path.display()))?;
        if n == 0 {
            break;
        }
        lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        bytes += n as u64;
        last = buf[n - 1];
    }
    // An unfinished last line counts as a line.
    Ok((lines + u64::from(last != b'\n'), bytes))
}

/// What waits beside the database at `db` (reads only). A file that cannot
/// be used is a problem listed, not an error.
pub fn waiting(db: &Path) -> Waiting {
    let mut w = Waiting::default();
    let mut count = |path: PathBuf| match count_lines(db, &path) {
        Ok(n) => n,
        Err(e) => {
            w.problems.push(format!("{e:#}"));
            (0, 0)
        }
    };
    let (events, bytes) = count(path_for(db));
    let (rejected, _) = count(rejected_path_for(db));
    let (dropped, _) = count(dropped_path_for(db));
    let lost = lost(db).unwrap_or_else(|e| {
        w.problems.push(format!("{e:#}"));
        0
    });
    Waiting {
        events,
        bytes,
        rejected,
        dropped,
        lost,
        problems: w.problems,
    }
}

/// What a drain did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Drained {
    pub stored: u64,
    pub duplicates: u64,
    pub rejected: u64,
}

impl Store {
    /// Moves the spooled events into `events_raw`, in order, in one
    /// transaction, then empties the spool. Cheap when there is no spool
    /// (one `stat`). Holding the spool's file lock from the read to the
    /// truncation keeps hooks from appending in between.
    pub fn drain_spool(&mut self) -> Result<Drained> {
        let path = path_for(&self.path);
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_file() && m.len() == 0 => return Ok(Drained::default()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Drained::default());
            }
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        }
        // What is there must be a spool to read (not a link, a FIFO, a
        // folder, another user's file) before anything else is touched.
        let Some(mut file) = open_beside(&self.path, &path, false)? else {
            return Ok(Drained::default());
        };
        // The database's lock first: an appender never holds it, so waiting
        // for it here never keeps a hook from spooling.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        file.lock()
            .with_context(|| format!("locking the spool {}", path.display()))?;
        file.seek(SeekFrom::Start(0))?;
        // Line by line: memory is one line, whatever the spool holds.
        let mut reader = std::io::BufReader::with_capacity(1 << 16, &mut file);
        let mut drained = Drained::default();
        let mut bad: Option<File> = None;
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = (&mut reader)
                .take(MAX_LINE as u64 + 1)
                .read_until(b'\n', &mut line)
                .with_context(|| format!("reading the spool {}", path.display()))?;
            if n == 0 {
                break;
            }
            let complete = line.last() == Some(&b'\n');
            if complete {
                line.pop();
            } else if line.len() > MAX_LINE {
                // Longer than any line a hook writes: skip to its end.
                let mut rest = Vec::new();
                while !rest.ends_with(b"\n") {
                    rest.clear();
                    if (&mut reader).take(1 << 20).read_until(b'\n', &mut rest)? == 0 {
                        break;
                    }
                }
            }
            if line.is_empty() {
                continue;
            }
            // A line with no newline was cut by a crash mid-write (appends
            // hold the lock we hold now).
            let parsed = serde_json::from_slice::<Line>(&line).ok();
            if let Some(ev) = parsed.as_ref().filter(|_| complete).and_then(Line::event) {
                match super::events::record_in(&tx, &ev)? {
                    Recorded::Stored(_) => drained.stored += 1,
                    Recorded::Duplicate => drained.duplicates += 1,
                }
            } else {
                if bad.is_none() {
                    bad = Some(open_append(&self.path, &rejected_path_for(&self.path))?);
                }
                let out = bad.as_mut().expect("opened above");
                out.write_all(&line[..line.len().min(MAX_LINE)])?;
                out.write_all(b"\n")?;
                drained.rejected += 1;
            }
        }
        drop(reader);
        if let Some(out) = &bad {
            out.sync_data()?;
        }
        tx.commit()?;
        // Committed: the spool is empty now. A crash before this line leaves
        // lines that the next drain finds to be duplicates.
        file.set_len(0)?;
        file.sync_data()?;
        Ok(drained)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::status::{Cause, Evidence, Status};

    fn event(key: u8, target: Target) -> (Vec<u8>, NewEvent<'static>) {
        let ev = NewEvent {
            key: [key; 32],
            has_delivery_id: key.is_multiple_of(2),
            harness: "claude-code",
            event: "Stop",
            session_id: Some("s1"),
            agent_id: None,
            received_at: 1_700_000_000_000 + i64::from(key),
            payload: "{\"hook_event_name\":\"Stop\"}",
            target,
            sender: key.is_multiple_of(3).then_some("b00t/40@900"),
        };
        (serde_json::to_vec(&Line::of(&ev)).unwrap(), ev)
    }

    #[test]
    fn a_line_reads_back_as_the_event_it_was_written_from() {
        let target = Target::Agent {
            agent_id: "s1".into(),
            evidence: Evidence::new(Status::Waiting, Some(5), Cause::StopHook),
        };
        let (bytes, ev) = event(7, target);
        let line: Line = serde_json::from_slice(&bytes).unwrap();
        let back = line.event().unwrap();
        assert_eq!(back.key, ev.key);
        assert_eq!(back.has_delivery_id, ev.has_delivery_id);
        assert_eq!(back.received_at, ev.received_at);
        assert_eq!(back.payload, ev.payload);
        assert_eq!(back.target, ev.target);
    }

    #[test]
    fn a_line_of_another_version_or_a_bad_key_is_not_an_event() {
        let (bytes, _) = event(1, Target::None);
        let mut line: Line = serde_json::from_slice(&bytes).unwrap();
        line.key.pop();
        assert!(line.event().is_none());
        let mut line: Line = serde_json::from_slice(&bytes).unwrap();
        line.v = 2;
        assert!(line.event().is_none());
    }
}
