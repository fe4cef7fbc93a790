//! The writer's end of the pipeline: each part read, into the store.

use std::collections::BTreeSet;

use anyhow::{Context, Result};

use super::stream::{Event, Failure, Part};
use super::{Job, Options, Root, Summary, unpriced_model};
use crate::domain::clock;
use crate::store::projection::{MessageCounts, Projection, SessionMeta};
use crate::store::{Checkpointer, Store};

/// Where parsed sessions go: the store, and the run's counts.
pub(super) struct Sink<'a> {
    pub store: &'a mut Store,
    pub roots: &'a [Root],
    pub known: &'a BTreeSet<String>,
    pub sum: &'a mut Summary,
    pub counts: Option<MessageCounts>,
    pub ckpt: Option<&'a Checkpointer>,
    pub strict_pricing: bool,
    /// Building the index: the sessions a part of which is written (the
    /// first replaces what the session said before).
    pub begun: BTreeSet<String>,
    /// Building the index: bytes of text written since the last commit,
    /// and when the first of them was.
    pub batched: (u64, Option<std::time::Instant>),
}

impl Sink<'_> {
    /// Writes what a part read for the search index alone says; a session
    /// that fails to read stays not indexed, and is counted failed.
    fn write_said(&mut self, job: &Job, ev: Event) -> Result<Option<Part>> {
        let sid = job.files.session_id.as_str();
        self.sum.bytes_read += ev.bytes;
        self.batched.0 += ev.said_bytes();
        let began = *self.batched.1.get_or_insert_with(std::time::Instant::now);
        let Ok(part) = ev.result else {
            self.sum.failed += 1;
            return Ok(None);
        };
        let first = self.begun.insert(sid.to_string());
        let stamp = part.last.then_some(job.stamp);
        let commit = self.batched.0 >= super::INDEX_BATCH_BYTES
            || began.elapsed() >= super::INDEX_BATCH_TIME;
        if commit {
            self.batched = (0, None);
        }
        self.store
            .write_said_only(&part.parsed, part.packed.as_ref(), first, stamp, commit)?;
        if let Some(c) = self.ckpt {
            c.nudge();
        }
        if part.last {
            self.sum.updated += 1;
        }
        Ok(Some(part))
    }

    /// Writes what `ev` read, and gives its part back once written, for
    /// the thread that read it to free (`process`).
    pub(super) fn write(&mut self, job: &Job, ev: Event, opts: &Options) -> Result<Option<Part>> {
        if opts.said_only {
            return self.write_said(job, ev);
        }
        let (store, roots, known, sum) = (&mut *self.store, self.roots, self.known, &mut *self.sum);
        let sid = job.files.session_id.as_str();
        let meta = SessionMeta {
            harness: crate::domain::clients::of_format(job.files.main.format).name,
            slug: &job.files.slug,
            project: None,
            scope: &roots[job.files.root].scope,
            fingerprint: &job.fingerprint,
        };
        let now = clock::now();
        sum.bytes_read += ev.bytes;
        for s in &ev.skips {
            sum.skip(s, roots);
        }
        // --strict-pricing: an unpriced model halts its session.
        let result = match ev.result {
            Ok(part) if self.strict_pricing => match unpriced_model(store, &part.parsed)? {
                Some(model) => Err(Failure {
                    reason: format!(
                        "--strict-pricing: model {model:?} has no price (sessionkit pricing set)"
                    ),
                    strict: true,
                }),
                None => Ok(part),
            },
            result => result,
        };
        match result {
            Ok(part) => {
                let parsed = &part.parsed;
                let project = match parsed.cwd.as_deref() {
                    Some(cwd) => Some(crate::services::project::project_of(store, cwd)?),
                    None => None,
                };
                let meta = SessionMeta {
                    project: project.as_deref(),
                    ..meta
                };
                let write = Projection {
                    meta: &meta,
                    now,
                    state: &part.state,
                    last: part.last,
                    said: opts.said.is_some(),
                };
                store
                    .project_part(parsed, &write, self.counts.as_mut())
                    .with_context(|| format!("writing session {sid}"))?;
                if let Some(c) = self.ckpt {
                    c.nudge();
                }
                sum.messages_read += parsed.usage.len() as u64;
                if part.last {
                    sum.written(known.contains(sid), parsed);
                }
                Ok(Some(part))
            }
            Err(Failure { reason, strict }) => {
                let reason = crate::domain::text::sanitize_reason(&reason);
                let state = store.record_failure(sid, &meta, &reason, now)?;
                sum.failed_session(sid, reason, &state, strict);
                Ok(None)
            }
        }
    }
}
