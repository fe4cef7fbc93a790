//! `sessionkit import`: replay an export, all or nothing.

use std::collections::{HashMap, HashSet};
use std::hash::Hasher;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::sync::mpsc::{SyncSender, sync_channel};

use anyhow::{Context, Result};

use crate::commands::Exit;
use crate::commands::{Ctx, help_fields, stdin_bytes};
use crate::domain::memory::Commitment;
use crate::domain::memory::export::{
    Record, Rejected, may_be_commitment, read_line, redact_imported,
};
use crate::output::memory::{IMPORT_SCHEMA, ImportRecord, ImportResult};
use crate::output::{Column, col};
use crate::store::import::{Imported, Read, Rec};

#[derive(Debug, clap::Args)]
#[command(after_long_help = format!(
    "All or nothing: every record is checked first, and when one is rejected nothing is written. A file is read twice (checked, then written) and never held whole; stdin is held. Exit status 1 when a record was rejected (nothing imported); 2 (nothing imported) when the input is not UTF-8. {}",
    help_fields("import")
))]
pub struct ImportArgs {
    /// An export file, or - for stdin
    pub file: String,
}

const IMPORT_COLUMNS: &[Column] = &[
    col("line", "line"),
    col("type", "type"),
    col("id", "id"),
    col("result", "result"),
    col("reason", "reason"),
];

/// An import creating at least this many memories compacts the search index.
const COMPACT_AFTER: usize = 1000;

/// Records go between a pass's threads in chunks of this many: a hand-over
/// per record cost a wake-up each (a third of a 200,000-memory import's
/// time went to futex calls).
const CHUNK: usize = 256;

/// Chunks parsed ahead of the pass that takes them: bounds the memory the
/// reading threads may run ahead by.
const READ_AHEAD: usize = 4;

/// Where the export comes from: a file is read once per pass; stdin, which
/// cannot be read again, is held.
enum Input {
    File(PathBuf),
    Held(Vec<u8>),
}

impl Input {
    /// Calls `f` with each line's number (from 1) and text, without its
    /// line ending (nor a byte-order mark before the first), until `f`
    /// fails. A line that is not UTF-8 stops it, naming the byte's offset.
    fn each_line(&self, name: &str, mut f: impl FnMut(usize, &str) -> Result<()>) -> Result<()> {
        let mut reader: Box<dyn BufRead + '_> = match self {
            Input::File(p) => Box::new(BufReader::with_capacity(
                1 << 20,
                std::fs::File::open(p).with_context(|| format!("reading {}", p.display()))?,
            )),
            Input::Held(b) => Box::new(&b[..]),
        };
        let (mut buf, mut offset, mut n) = (Vec::new(), 0, 0);
        loop {
            buf.clear();
            let got = reader
                .read_until(b'\n', &mut buf)
                .with_context(|| format!("reading {name}"))?;
            if got == 0 {
                return Ok(());
            }
            n += 1;
            let mut line = &buf[..];
            if let Some(l) = line.strip_suffix(b"\n") {
                line = l.strip_suffix(b"\r").unwrap_or(l);
            }
            let mut at = offset;
            if n == 1
                && let Some(l) = line.strip_prefix("\u{feff}".as_bytes())
            {
                line = l;
                at += 3;
            }
            let text = std::str::from_utf8(line).map_err(|e| {
                anyhow::anyhow!(
                    "{name} is not UTF-8 (invalid byte at offset {}): nothing was imported",
                    at + e.valid_up_to()
                )
            })?;
            f(n, text)?;
            offset += got;
        }
    }
}

/// The commitment lines of the file, read first: a memory is checked and
/// written with its commitment, wherever in the file that is.
#[derive(Default)]
struct Commitments {
    of: HashMap<String, (usize, Commitment)>,
    rejected: Vec<Rejected>,
}

fn read_commitments(input: &Input, name: &str) -> Result<Commitments> {
    let mut c = Commitments::default();
    input.each_line(name, |n, l| {
        if !may_be_commitment(l) {
            return Ok(());
        }
        match read_line(n, l) {
            Ok(Some(Record::Commitment(id, commitment))) => {
                if let std::collections::hash_map::Entry::Vacant(v) = c.of.entry(id.clone()) {
                    v.insert((n, commitment));
                } else {
                    c.rejected.push(Rejected {
                        line: n,
                        kind: "commitment".into(),
                        id,
                        reason: "a second commitment record for this memory".into(),
                    });
                }
            }
            Err(r) if r.kind == "commitment" => c.rejected.push(r),
            _ => {}
        }
        Ok(())
    })?;
    Ok(c)
}

/// What a pass's reading threads send: a record, a rejected line, or why
/// the file could not be read on.
type Item = Result<Result<Read, Rejected>>;

/// Which memories a pass takes secrets out of.
#[derive(Clone, Copy)]
enum Redaction<'a> {
    Off,
    /// Every one (the first pass).
    All,
    /// Those on these lines: the ones the first pass changed (the second
    /// pass reads the same bytes, so the rest would come out unchanged).
    Lines(&'a HashSet<usize>),
}

/// Starts a pass's reading threads: one reads each memory and event line
/// (a memory with its commitment), or rejects it; commitment lines are
/// skipped (read first, by `read_commitments`). Another takes secrets out
/// of the memories, as `redaction` says, and at the end gives the lines
/// where it took any. What they send comes in file order.
fn reading<'s>(
    s: &'s std::thread::Scope<'s, '_>,
    input: &'s Input,
    name: &'s str,
    commitments: &'s Commitments,
    redaction: Redaction<'s>,
) -> (
    impl Iterator<Item = Item> + 's,
    std::thread::ScopedJoinHandle<'s, HashSet<usize>>,
) {
    let (to, from) = sync_channel::<Vec<Item>>(READ_AHEAD);
    s.spawn(move || read_records(input, name, commitments, &to));
    let (to, redacted) = sync_channel::<Vec<Item>>(READ_AHEAD);
    let changed = s.spawn(move || {
        let mut changed = HashSet::new();
        for mut chunk in from {
            for item in &mut chunk {
                if let Ok(Ok(Read {
                    line,
                    record: Rec::Memory(m),
                    ..
                })) = item
                {
                    let redact = match redaction {
                        Redaction::Off => false,
                        Redaction::All => true,
                        Redaction::Lines(lines) => lines.contains(line),
                    };
                    if redact && redact_imported(m) {
                        changed.insert(*line);
                    }
                }
            }
            if to.send(chunk).is_err() {
                break;
            }
        }
        changed
    });
    (redacted.into_iter().flatten(), changed)
}

/// `reading`'s first thread.
fn read_records(input: &Input, name: &str, commitments: &Commitments, to: &SyncSender<Vec<Item>>) {
    let mut chunk = Vec::with_capacity(CHUNK);
    let done = input.each_line(name, |n, l| {
        let digest = {
            let mut h = std::hash::DefaultHasher::new();
            h.write(l.as_bytes());
            h.finish()
        };
        let item = match read_line(n, l) {
            Ok(None | Some(Record::Commitment(..))) => return Ok(()),
            Err(r) if r.kind == "commitment" => return Ok(()),
            Err(r) => Err(r),
            Ok(Some(Record::Memory(mut m))) => {
                m.commitment = commitments.of.get(&m.memory_id).map(|(_, c)| c.clone());
                Ok(Rec::Memory(m))
            }
            Ok(Some(Record::Event(e))) => Ok(Rec::Event(e)),
        };
        let item = item.map(|record| Read {
            line: n,
            digest,
            record,
        });
        chunk.push(Ok(item));
        if chunk.len() == CHUNK {
            let full = std::mem::replace(&mut chunk, Vec::with_capacity(CHUNK));
            // The taking side stopped: so does the reading.
            to.send(full).map_err(|_| anyhow::anyhow!("stopped"))?;
        }
        Ok(())
    });
    if let Err(e) = done {
        chunk.push(Err(e));
    }
    let _ = to.send(chunk);
}

/// Two runs of rows, each in line order, as one.
fn merge_by_line(
    a: impl Iterator<Item = ImportRecord>,
    b: impl Iterator<Item = ImportRecord>,
) -> impl Iterator<Item = ImportRecord> {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    std::iter::from_fn(move || match (a.peek(), b.peek()) {
        (Some(x), Some(y)) if y.line < x.line => b.next(),
        (Some(_), _) => a.next(),
        (None, _) => b.next(),
    })
}

/// Replays an export: same ids, kinds, actors and times; no events of its own.
pub fn import(ctx: &Ctx, a: &ImportArgs) -> Result<Exit> {
    let (input, name) = if a.file == "-" {
        (Input::Held(stdin_bytes()?), "stdin")
    } else {
        (Input::File(PathBuf::from(&a.file)), a.file.as_str())
    };
    let commitments = read_commitments(&input, name)?;
    let mut store = ctx.open_writer()?;
    let redact = crate::services::settings::enabled(&store, "memory.redaction")?;
    let mut rejected = commitments.rejected.clone();
    // Pass 1: every record checked.
    let mut joined: HashSet<String> = HashSet::new();
    let (input, commitments) = (&input, &commitments);
    let (checked, redacted) = std::thread::scope(|s| -> Result<_> {
        let redaction = if redact {
            Redaction::All
        } else {
            Redaction::Off
        };
        let (from, changed) = reading(s, input, name, commitments, redaction);
        let mut checker = store.check_import()?;
        for item in from {
            match item? {
                Ok(read) => {
                    if let Rec::Memory(m) = &read.record
                        && m.commitment.is_some()
                    {
                        joined.insert(m.memory_id.clone());
                    }
                    checker.check(&read)?;
                }
                Err(r) => rejected.push(r),
            }
        }
        let checked = checker.finish()?;
        let changed = changed
            .join()
            .map_err(|_| anyhow::anyhow!("the redacting thread failed"))?;
        Ok((checked, changed))
    })?;
    let record = |line, kind: &str, id: String, result, reason| ImportRecord {
        id,
        line,
        reason,
        result,
        schema: IMPORT_SCHEMA,
        record_type: kind.to_string(),
    };
    // A commitment travels with its memory: one whose memory is not in
    // the file is rejected.
    for (id, (line, _)) in &commitments.of {
        if !joined.contains(id) {
            rejected.push(Rejected {
                line: *line,
                kind: "commitment".into(),
                id: id.clone(),
                reason: "its memory is not in the file".into(),
            });
        }
    }
    // All or nothing: one rejected record and nothing is written.
    let refused = !rejected.is_empty() || checked.records.iter().any(|r| r.outcome.is_err());
    let fate = |r: &Imported| match &r.outcome {
        Ok(_) if refused => (
            ImportResult::NotImported,
            Some("another record of the file was rejected: nothing was written".to_string()),
        ),
        Ok(true) => (ImportResult::Created, None),
        Ok(false) => (ImportResult::Present, None),
        Err(why) => (ImportResult::Rejected, Some(why.clone())),
    };
    // The rows besides the checked records' own, in line order: the
    // rejected lines, and each commitment line, which shares its memory's
    // fate.
    let mut extra: Vec<ImportRecord> = rejected
        .into_iter()
        .map(|r| {
            record(
                r.line,
                &r.kind,
                r.id,
                ImportResult::Rejected,
                Some(r.reason),
            )
        })
        .collect();
    let with_commitment: HashMap<&str, &Imported> = checked
        .records
        .iter()
        .filter(|r| r.kind == "memory" && joined.contains(&r.id))
        .map(|r| (r.id.as_str(), r))
        .collect();
    for (id, (line, _)) in &commitments.of {
        if let Some(r) = with_commitment.get(id.as_str()) {
            let (result, reason) = fate(r);
            extra.push(record(*line, "commitment", id.clone(), result, reason));
        }
    }
    extra.sort_by_key(|r| r.line);
    if !refused {
        // Pass 2: the new records read again and written.
        let created = std::thread::scope(|s| {
            let redaction = Redaction::Lines(&redacted);
            let (from, _) = reading(s, input, name, commitments, redaction);
            let reads = from.into_iter().filter_map(|item| match item {
                Ok(Ok(read)) => Some(Ok(read)),
                // A line rejected now that passed before: the write stops
                // at the missing record.
                Ok(Err(_)) => None,
                Err(e) => Some(Err(e)),
            });
            store.write_import(&checked, reads)
        })?;
        if created >= COMPACT_AFTER {
            // A bulk load leaves the search index in many segments, and every
            // word looked up seeks each one (remember's duplicate check looks
            // up a dozen): merge them into one.
            store.compact_search()?;
        }
        store.optimize()?;
    }
    let (mut created, mut present, mut rejected) = (0, 0, 0);
    for result in checked
        .records
        .iter()
        .map(|r| fate(r).0)
        .chain(extra.iter().map(|r| r.result))
    {
        match result {
            ImportResult::Created => created += 1,
            ImportResult::Present => present += 1,
            ImportResult::Rejected => rejected += 1,
            ImportResult::NotImported => {}
        }
    }
    // One row per line, in line order, made as they are printed.
    let own = checked.records.iter().map(|r| {
        let (result, reason) = fate(r);
        record(r.line, r.kind, r.id.clone(), result, reason)
    });
    ctx.out
        .records_iter(IMPORT_COLUMNS, merge_by_line(own, extra.into_iter()))?;
    if rejected > 0 {
        ctx.out.note(&format!(
            "nothing imported: {rejected} record(s) rejected; fix or remove them and import again"
        ));
        Ok(Exit::Found)
    } else {
        ctx.out.note(&format!(
            "imported: {created} created, {present} already present"
        ));
        Ok(Exit::Success)
    }
}
