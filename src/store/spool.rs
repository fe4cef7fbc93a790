//! The spool: where a hook puts its event when it cannot get the database's
//! write lock within its budget (issue 16). A file beside the database
//! (`<db>.spool`, 0600, append-only, one JSON line per event, fsync'd); the
//! next writer drains it into `events_raw` in file order under the events'
//! own duplicate rules, so a drain that is cut short and repeated stores
//! nothing twice. A line that cannot be read back (a write cut by a crash)
//! is moved to `<db>.spool.rejected`, never dropped.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

use super::Store;
use super::events::{NewEvent, Recorded};
use crate::hooks::Target;

/// The spool beside the database at `db`.
pub fn path_for(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push(".spool");
    PathBuf::from(p)
}

/// Where lines that could not be read back go.
pub fn rejected_path_for(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push(".spool.rejected");
    PathBuf::from(p)
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
        })
    }
}

/// Opens (creating, 0600) a spool file for appending, and fsyncs its
/// directory when it was created so the file itself survives a crash.
fn open_append(path: &Path) -> Result<File> {
    let existed = path.exists();
    let file = OpenOptions::new()
        .append(true)
        .read(true)
        .create(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("opening the spool {}", path.display()))?;
    if !existed && let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        File::open(dir)?.sync_all()?;
    }
    Ok(file)
}

/// Appends one event to the spool beside `db`: one write under an exclusive
/// lock on the file, then fsync. Returns the spool's path.
pub fn append(db: &Path, ev: &NewEvent<'_>) -> Result<PathBuf> {
    let path = path_for(db);
    let mut line = serde_json::to_vec(&Line::of(ev))?;
    line.push(b'\n');
    let mut file = open_append(&path)?;
    file.lock()
        .with_context(|| format!("locking the spool {}", path.display()))?;
    file.write_all(&line)
        .and_then(|()| file.sync_data())
        .with_context(|| format!("writing the spool {}", path.display()))?;
    Ok(path)
}

/// What is waiting in the spool.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Waiting {
    /// Events in the spool, not yet in the database.
    pub events: u64,
    pub bytes: u64,
    /// Lines set aside because they could not be read back.
    pub rejected: u64,
}

fn count_lines(path: &Path) -> Result<(u64, u64)> {
    match File::open(path) {
        Ok(mut f) => {
            let mut bytes = Vec::new();
            f.read_to_end(&mut bytes)?;
            let lines = bytes
                .split(|b| *b == b'\n')
                .filter(|l| !l.is_empty())
                .count();
            Ok((lines as u64, bytes.len() as u64))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok((0, 0)),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// What waits beside the database at `db` (reads only).
pub fn waiting(db: &Path) -> Result<Waiting> {
    let (events, bytes) = count_lines(&path_for(db))?;
    let (rejected, _) = count_lines(&rejected_path_for(db))?;
    Ok(Waiting {
        events,
        bytes,
        rejected,
    })
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
        match std::fs::metadata(&path) {
            Ok(m) if m.len() > 0 => {}
            Ok(_) => return Ok(Drained::default()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Drained::default());
            }
            Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
        }
        // The database's lock first: an appender never holds it, so waiting
        // for it here never keeps a hook from spooling.
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .with_context(|| format!("opening the spool {}", path.display()))?;
        file.lock()
            .with_context(|| format!("locking the spool {}", path.display()))?;
        let mut bytes = Vec::new();
        file.seek(SeekFrom::Start(0))?;
        file.read_to_end(&mut bytes)?;
        if bytes.is_empty() {
            return Ok(Drained::default());
        }
        let mut lines = Vec::new();
        let mut bad: Vec<&[u8]> = Vec::new();
        let mut rest = &bytes[..];
        while !rest.is_empty() {
            let (line, complete) = match memchr::memchr(b'\n', rest) {
                Some(i) => {
                    let line = &rest[..i];
                    rest = &rest[i + 1..];
                    (line, true)
                }
                None => (std::mem::take(&mut rest), false),
            };
            if line.is_empty() {
                continue;
            }
            // A line with no newline was cut by a crash mid-write (appends
            // hold the lock we hold now).
            match serde_json::from_slice::<Line>(line) {
                Ok(l) if complete && l.event().is_some() => lines.push(l),
                _ => bad.push(line),
            }
        }
        let mut drained = Drained::default();
        for line in &lines {
            let ev = line.event().expect("checked above");
            match super::events::record_in(&tx, &ev)? {
                Recorded::Stored(_) => drained.stored += 1,
                Recorded::Duplicate => drained.duplicates += 1,
            }
        }
        if !bad.is_empty() {
            let rejected = rejected_path_for(&self.path);
            let mut out = open_append(&rejected)?;
            for line in &bad {
                out.write_all(line)?;
                out.write_all(b"\n")?;
            }
            out.sync_data()?;
            drained.rejected = bad.len() as u64;
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
    use crate::status::{Cause, Evidence, Status};

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
