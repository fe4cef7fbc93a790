//! The ingest pipeline: corpus → parse → project, one transaction per session.
//!
//! Discovery and fingerprints are `lstat` only; unchanged sessions are never
//! opened. Changed sessions are read and parsed on one thread per core and
//! written by this thread, so peak memory is a few sessions, not the corpus.

mod conversation;

#[cfg(test)]
mod ahead_tests;
#[cfg(test)]
mod around_tests;
mod database;
mod flat;
mod index;
pub mod labels;
mod open;
mod recount;
#[cfg(test)]
mod resume_tests;
mod sink;

/// The setting `ingest.part_bytes`'s default: bytes of one session read
/// before what was read is handed to the writer as a part (one
/// transaction), so a session of any size holds at most this much parsed
/// state, and a killed run resumes from the last part.
#[cfg(test)]
const PART_BYTES: u64 = 256 << 20;
mod stream;
mod summary;
mod survey;

pub use conversation::{CatchUp, catch_up};
pub use index::{IndexMode, index_mode, index_options, said_options};
pub use open::{Caught, catch_up_open};
use sink::Sink;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{Context, Result};

pub use recount::{Finding, recount};
pub use summary::{FailureNote, Summary};
pub use survey::survey;

use crate::domain::corpus::{self, Discovery, SessionFiles};
use crate::domain::transcript::said::SaidOptions;
use crate::domain::transcript::{ParsedSession, SpareCores};
use crate::store::Store;
use stream::{Buffers, Event, Failure, Part, ResumeState};

/// What `ingest` and `replay` were asked to do.
#[derive(Debug, Clone)]
pub struct Options {
    pub strict: bool,
    /// Lines longer than this are degraded lines (files have no cap).
    pub max_line_size: u64,
    /// Re-project every session found, ignoring checkpoints and quarantine.
    pub replay: bool,
    /// Only these sessions (by id); empty means all.
    pub only: BTreeSet<String>,
    /// Fail a session with a model the price table does not know.
    pub strict_pricing: bool,
    /// Above this many bytes to read, a run is a bulk run (`Store::begin_bulk`):
    /// share counts are loaded up front instead of one index lookup per message.
    pub bulk_bytes: u64,
    /// Bytes of a session read before a part is written (`PART_BYTES`).
    pub part_bytes: u64,
    /// Read nothing when more than this is to be read (a hook's catch-up
    /// within its budget); the summary's `deferred_bytes` says how much.
    pub max_bytes: Option<u64>,
    /// Only this `(slug, session)` under the first root, found without
    /// walking the rest (a hook's catch-up).
    pub one: Option<(String, String)>,
    /// Only sessions of this harness (the client its format is).
    pub harness: Option<String>,
    /// What the search index keeps of what is read; `None`: no index.
    pub said: Option<SaidOptions>,
    /// Build the search index only: read the stored sessions it does not
    /// hold whole, from their start, and write what they said, nothing
    /// else (`build_index`).
    pub said_only: bool,
}

impl Options {
    /// A build of the index that reads each session around the holes its
    /// last ingest noted (lines that say nothing with tool outputs left
    /// out: only while they are).
    pub(crate) fn reads_around_holes(&self) -> bool {
        self.said_only && self.said.is_some_and(|s| !s.outputs)
    }

    /// A plain ingest's options, with the store's settings: the line cap
    /// (`line_cap` when the command line gives one), the bulk and part
    /// sizes; nothing strict, no replay, every session and harness.
    pub fn from_settings(store: &Store, line_cap: Option<u64>) -> Result<Options> {
        Ok(Options {
            strict: false,
            max_line_size: max_line_size(store, line_cap)?,
            replay: false,
            only: BTreeSet::new(),
            strict_pricing: false,
            bulk_bytes: crate::services::settings::count(store, "ingest.bulk_bytes")?,
            part_bytes: crate::services::settings::count(store, "ingest.part_bytes")?,
            max_bytes: None,
            one: None,
            harness: None,
            said: said_options(store)?,
            said_only: false,
        })
    }
}

/// Bytes of text the search index takes in one transaction, and the
/// longest a batch is kept open: a hook waiting for the lock waits for one
/// batch (about a quarter second), on a slow machine too.
pub const INDEX_BATCH_BYTES: u64 = 8 << 20;
pub const INDEX_BATCH_TIME: std::time::Duration = std::time::Duration::from_millis(250);

/// The line cap: `given` (the command line's), else the setting
/// `ingest.max_line_size`, else the older `ingest.max_file_size` where only
/// that one is set.
fn max_line_size(store: &Store, given: Option<u64>) -> Result<u64> {
    use crate::services::settings::{Source, effective, lookup};
    if let Some(n) = given {
        anyhow::ensure!(n > 0, "--max-line-size must be a positive number of bytes");
        return Ok(n);
    }
    let (v, source) = effective(store, lookup("ingest.max_line_size")?)?;
    if source == Source::Default {
        let (old, source) = effective(store, lookup("ingest.max_file_size")?)?;
        if source != Source::Default {
            return Ok(old.parse()?);
        }
    }
    Ok(v.parse()?)
}

/// A root as the run uses it.
#[derive(Debug, Clone)]
pub struct Root {
    pub path: PathBuf,
    pub scope: String,
}

/// Resolves roots to canonical directories; a missing root is an error.
pub fn resolve_roots(roots: &[PathBuf]) -> Result<Vec<Root>> {
    let mut out: Vec<Root> = Vec::new();
    for r in roots {
        let path = std::fs::canonicalize(r)
            .with_context(|| format!("corpus root {} cannot be opened", r.display()))?;
        anyhow::ensure!(
            path.is_dir(),
            "corpus root {} is not a directory",
            r.display()
        );
        if out.iter().all(|o| o.path != path) {
            let scope = corpus::scope_of(&path);
            out.push(Root { path, scope });
        }
    }
    Ok(out)
}

/// Walks every root (or, with `one`, just that `(slug, session)` under the
/// first) and assigns flat agent files to their sessions.
pub fn discover(
    store: &mut Store,
    roots: &[Root],
    cap: u64,
    one: Option<(&str, &str)>,
) -> Result<(Discovery, u64)> {
    let mut d = Discovery::default();
    match one {
        Some(target) => corpus::discover_one(0, &roots[0].path, target, cap, &mut d),
        None => {
            for (i, r) in roots.iter().enumerate() {
                corpus::discover(i, &r.path, cap, &mut d);
            }
        }
    }
    let bytes = flat::assign(store, roots, &mut d)?;
    for s in d.sessions.values_mut() {
        s.agents.sort_by(|a, b| a.rel.cmp(&b.rel));
    }
    Ok((d, bytes))
}

/// Parsed messages the queue to the writer may hold before workers wait
/// (about 400 bytes each).
const QUEUED_MESSAGES: usize = 64 * 1024;

/// One unit of work: a session to read and parse, from where the last run
/// stopped when it left a state to resume from.
struct Job {
    files: SessionFiles,
    fingerprint: String,
    size: u64,
    resume: Option<ResumeState>,
    /// Building the index: the session's `Store::said_stamp` when planned.
    stamp: u64,
}

/// Runs ingest (or replay) over `roots` into `store`.
pub fn run(
    store: &mut Store,
    roots: &[Root],
    opts: &Options,
    progress: Option<&indicatif::ProgressBar>,
) -> Result<Summary> {
    let started = Instant::now();
    let one = opts.one.as_ref().map(|(a, b)| (a.as_str(), b.as_str()));
    let (mut discovery, head_bytes) = discover(store, roots, opts.max_line_size, one)?;
    let databases = std::mem::take(&mut discovery.databases);
    let mut sum = Summary::new(roots.len());
    sum.bytes_read = head_bytes;
    for s in &discovery.skips {
        sum.skip(s, roots);
    }
    // Work a killed bulk run left behind.
    store.finish_pending()?;
    let checkpoints = store.checkpoints()?;
    let failures = store.failures()?;
    let known = store.session_ids()?;
    let mut present: BTreeSet<String> = discovery.sessions.keys().cloned().collect();
    let whole = if opts.said_only {
        store.whole_sessions()?
    } else {
        BTreeSet::new()
    };
    let mut jobs: Vec<Job> = Vec::new();
    for (sid, files) in discovery.sessions {
        if !opts.only.is_empty() && !opts.only.contains(&sid) {
            continue;
        }
        if opts.said_only && (!known.contains(&sid) || whole.contains(&sid)) {
            continue;
        }
        if opts
            .harness
            .as_deref()
            .is_some_and(|h| crate::domain::clients::of_format(files.main.format).name != h)
        {
            continue;
        }
        let fp = corpus::fingerprint(&files);
        if !opts.replay && !opts.said_only {
            if checkpoints.get(&sid) == Some(&fp) {
                sum.unchanged += 1;
                continue;
            }
            if let Some(f) = failures
                .get(&sid)
                .filter(|f| f.quarantined && f.fingerprint == fp)
            {
                sum.quarantined += 1;
                sum.failures.push(FailureNote {
                    session_id: sid.clone(),
                    reason: f.reason.clone(),
                    attempt: f.attempts,
                    quarantined: true,
                });
                continue;
            }
        }
        let stamp = if opts.said_only {
            store.said_stamp(&sid)?
        } else {
            0
        };
        // A build of the index reads each session whole, around the holes
        // its resume state notes.
        let resume = if opts.replay || (opts.said_only && !opts.reads_around_holes()) {
            None
        } else {
            store
                .resume_state(&sid)?
                .and_then(|s| serde_json::from_str::<ResumeState>(&s).ok())
        };
        // What is to be read: past the marks when the session resumes.
        let size = match &resume {
            Some(r) if !opts.said_only => r.to_read(&files),
            _ => files.main.size + files.agents.iter().map(|a| a.size).sum::<u64>(),
        };
        jobs.push(Job {
            files,
            fingerprint: fp,
            size,
            resume,
            stamp,
        });
    }
    // Largest first, so two threads finish together.
    jobs.sort_by(|a, b| {
        b.size
            .cmp(&a.size)
            .then(a.files.session_id.cmp(&b.files.session_id))
    });
    if let Some(pb) = progress {
        pb.set_length(jobs.iter().map(|j| j.size).sum());
    }
    let bytes: u64 = jobs.iter().map(|j| j.size).sum();
    if opts.max_bytes.is_some_and(|max| bytes > max) {
        sum.deferred_bytes = bytes;
        sum.elapsed_ms = started.elapsed().as_millis() as u64;
        return Ok(sum);
    }
    if !jobs.is_empty() {
        // A large run is a bulk run: share counts come from one scan now,
        // the index is rebuilt at the end (`Store::begin_bulk`).
        let bulk = bytes >= opts.bulk_bytes;
        let counts = if bulk && !opts.said_only {
            Some(store.message_counts()?)
        } else {
            None
        };
        let ckpt = if bulk {
            Some(store.begin_bulk(!opts.said_only)?)
        } else {
            None
        };
        let mut sink = Sink {
            store: &mut *store,
            roots,
            known: &known,
            sum: &mut sum,
            counts,
            ckpt: ckpt.as_ref(),
            strict_pricing: opts.strict_pricing,
            begun: BTreeSet::new(),
            batched: (0, None),
        };
        let done = run_jobs(&mut sink, opts, &jobs, progress);
        if let Some(ckpt) = ckpt {
            store.end_bulk(ckpt)?;
        }
        done?;
    }
    let mut seen = database::Seen {
        checkpoints: &checkpoints,
        whole: &whole,
        known: &known,
        present: &mut present,
    };
    for db in &databases {
        database::read_store(store, roots, opts, db, &mut seen, &mut sum)?;
    }
    sum.token_rows = store.token_row_count()?;
    sum.retained = known.iter().filter(|s| !present.contains(*s)).count() as u64;
    if opts.said_only && opts.only.is_empty() {
        // A stored session whose files no root holds any more cannot be
        // read: it is held as saying nothing, so that no later search
        // walks the folders for it again.
        let gone: Vec<&String> = known
            .iter()
            .filter(|s| !present.contains(*s) && !whole.contains(*s))
            .collect();
        store.hold_as_silent(&gone)?;
    }
    sum.elapsed_ms = started.elapsed().as_millis() as u64;
    Ok(sum)
}

/// Reads `jobs` into `sink`, committing what a build wrote last (or
/// rolling it back on failure); a build's batches begin and end around it.
fn run_jobs(
    sink: &mut Sink<'_>,
    opts: &Options,
    jobs: &[Job],
    progress: Option<&indicatif::ProgressBar>,
) -> Result<()> {
    if opts.said_only {
        sink.store.begin_said_batches()?;
    }
    let done = process(sink, opts, jobs, progress).and_then(|()| sink.store.commit_said());
    if done.is_err() {
        sink.store.abandon_said();
    }
    let ended = if opts.said_only {
        sink.store.end_said_batches()
    } else {
        Ok(())
    };
    done.and(ended)
}

fn process(
    sink: &mut Sink<'_>,
    opts: &Options,
    jobs: &[Job],
    progress: Option<&indicatif::ProgressBar>,
) -> Result<()> {
    if jobs.is_empty() {
        return Ok(());
    }
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    // Building the index, the writer has as much to do as the readers: it
    // keeps a core of its own, unless the readers can yield theirs to it.
    let writer = usize::from(opts.said_only && cores > 1 && !index::READERS_YIELD);
    let workers = (cores - writer).min(jobs.len());
    // Cores no worker holds (fewer sessions than cores, or workers that ran
    // out of sessions) help parse large blocks of the sessions still read.
    let spare = SpareCores::new(cores - writer - workers);
    let next = AtomicUsize::new(0);
    // Parts are small (at most `PART_BYTES` read each); a deep queue lets
    // parsing run ahead of writing. Building the index, the writer is the
    // slower end: a deeper queue would only hold more texts in memory.
    let depth = if opts.said_only { 2 } else { 8 };
    let (tx, rx) = mpsc::sync_channel::<(usize, usize, Event)>(workers * depth);
    let jobs_ref = jobs;
    // Messages parsed and not yet written: a worker waits while the queue
    // holds more than `QUEUED_MESSAGES`, so sessions of any size queue a
    // bounded amount of memory (the channel alone bounds parts, not bytes).
    let queued = AtomicUsize::new(0);
    let queued_ref = &queued;
    // The writer hands each part back to the worker that read it, to be
    // freed there: glibc frees a block fastest on the thread whose arena
    // it came from, and building the index, the writer is the slower end.
    let mut spent_to = Vec::with_capacity(workers);
    std::thread::scope(|scope| -> Result<()> {
        for w in 0..workers {
            let tx = tx.clone();
            let next = &next;
            let spare = Arc::clone(&spare);
            let (spent_tx, spent) = mpsc::channel::<Part>();
            spent_to.push(spent_tx);
            scope.spawn(move || {
                if opts.said_only {
                    index::yield_to_writer();
                }
                let mut buf = Buffers::sharing(Arc::clone(&spare));
                let free_spent = || spent.try_iter().for_each(drop);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs_ref.get(i) else {
                        spare.give();
                        free_spent();
                        break;
                    };
                    let mut alive = true;
                    let resume = job.resume.clone();
                    stream::read_session(&job.files, opts, resume, &mut buf, &mut |mut ev| {
                        // Building the index, the writer is the slower end:
                        // a part's texts are packed here.
                        if opts.said_only
                            && let Ok(part) = &mut ev.result
                        {
                            part.packed = Some(crate::store::said::prepack(&part.parsed));
                        }
                        let n = ev.messages();
                        while queued_ref.load(Ordering::Acquire) > QUEUED_MESSAGES
                            && next.load(Ordering::Relaxed) < usize::MAX / 4
                        {
                            std::thread::sleep(std::time::Duration::from_millis(1));
                        }
                        queued_ref.fetch_add(n, Ordering::AcqRel);
                        free_spent();
                        alive = tx.send((i, w, ev)).is_ok();
                        alive
                    });
                    if !alive {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Bytes read of each job: the bar moves by what was read, and a
        // job's end settles it to the job's planned size (less was read:
        // a failure; more: the file grew, and the total grows with it).
        let mut read = vec![0u64; jobs_ref.len()];
        let result = (|| -> Result<()> {
            while let Ok((i, w, ev)) = rx.recv() {
                let (bytes, n) = (ev.bytes, ev.messages());
                let ends = ev.result.as_ref().map_or(true, |p| p.last);
                if let Some(spent) = sink.write(&jobs_ref[i], ev, opts)? {
                    // A worker that has stopped takes nothing: freed here.
                    let _ = spent_to[w].send(spent);
                }
                queued.fetch_sub(n, Ordering::AcqRel);
                if let Some(pb) = progress {
                    let planned = jobs_ref[i].size;
                    let before = read[i];
                    read[i] += bytes;
                    if read[i] > planned {
                        pb.inc_length(read[i] - before.max(planned));
                    }
                    pb.inc(bytes);
                    if ends && read[i] < planned {
                        pb.inc(planned - read[i]);
                    }
                }
            }
            Ok(())
        })();
        if result.is_err() {
            // Stop the workers: they see the closed channel and exit.
            next.store(usize::MAX / 2, Ordering::Relaxed);
            drop(rx);
        }
        result
    })
}

/// The first model of a session the price table cannot price.
fn unpriced_model(store: &Store, p: &ParsedSession) -> Result<Option<String>> {
    let prices = store.prices()?;
    Ok(p.usage
        .iter()
        .map(|u| u.model.as_str())
        .find(|m| !crate::domain::pricing::PriceTable::is_free(m) && prices.lookup(m).is_none())
        .map(str::to_string))
}

/// Reads and parses a whole session in one go (for `check`'s recount):
/// the parts' messages folded into one, the last part's facts.
pub(crate) fn read_whole(
    files: &SessionFiles,
    opts: &Options,
    buf: &mut Buffers,
) -> Result<ParsedSession, Failure> {
    let mut whole: Option<ParsedSession> = None;
    let mut failure = None;
    stream::read_session(files, opts, None, buf, &mut |ev| match ev.result {
        Ok(part) => {
            let mut part = *part.parsed;
            if let Some(mut w) = whole.take() {
                let mut at: std::collections::HashMap<String, usize> = w
                    .usage
                    .iter()
                    .enumerate()
                    .map(|(i, u)| (u.message_id.clone(), i))
                    .collect();
                for u in std::mem::take(&mut part.usage) {
                    if let Some(&i) = at.get(&u.message_id) {
                        w.usage[i].combine(&u);
                    } else {
                        at.insert(u.message_id.clone(), w.usage.len());
                        w.usage.push(u);
                    }
                }
                part.usage = w.usage;
            }
            whole = Some(part);
            true
        }
        Err(f) => {
            failure = Some(f);
            false
        }
    });
    match failure {
        Some(f) => Err(f),
        None => Ok(whole.unwrap_or_default()),
    }
}

#[cfg(test)]
mod tests;
