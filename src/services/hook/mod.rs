//! A hook's lifecycle, one function per hook verb: store what the harness
//! sent (`receive`: in the database within the hook's budget, or in the
//! spool), then the verb's work: the session start's briefing and run
//! (`session`), a run's close or heartbeat, the turn-end heartbeat and
//! nudge (`stop`), the prompt recall (`prompt`), and the transcript's
//! catch-up ingest. Each returns what the command is to say
//! (`Answer`); none prints.

pub mod prompt;
pub mod receive;
pub mod session;
pub mod stop;

use std::cell::Cell;
use std::path::Path;
use std::time::Instant;

use anyhow::Result;

use crate::domain::clock::Millis;
use crate::domain::harness::{Harness, HookEvent, Kind, detect};
use crate::services::{brief, ingest, project, settings};
use crate::store::{Store, retry_busy};
use receive::{Delivered, deliver};

/// What a hook call knows besides its event.
pub struct Call<'a> {
    /// The database file.
    pub db: &'a Path,
    /// The harness's delivery id, when it gave one.
    pub delivery_id: Option<&'a str>,
    pub now: Millis,
    /// When the hook stops waiting for the database (its budget's end).
    pub by: Instant,
    /// The process environment (`SESSIONKIT_HOOK_ROLE`, the harness's own
    /// variables).
    pub env: &'a dyn Fn(&str) -> Option<String>,
    /// Where a failure the hook goes on past is said (a service never
    /// prints: the command knows where its harness lets it write).
    pub warn: &'a dyn Fn(&str),
}

/// How a hook's lifecycle ended, for the command to say.
#[derive(Debug)]
pub enum Answer {
    /// Nothing to print.
    Quiet,
    /// The harness's envelope, one line on stdout.
    Envelope(String),
    /// The database could not take the event within the budget: it waits
    /// in the spool for the next writer, and nothing more was done. The
    /// error is why.
    Spooled(anyhow::Error),
}

impl Call<'_> {
    /// Records `ev`, with `then` run in the event's own write transaction:
    /// the store when the database took it, else why it was spooled.
    fn store(
        &self,
        ev: &HookEvent,
        then: impl Fn(&rusqlite::Transaction<'_>) -> Result<()>,
    ) -> Result<Result<Store, anyhow::Error>> {
        Ok(
            match deliver(self.db, ev, self.delivery_id, self.now, self.by, then)? {
                Delivered::Stored(store) => Ok(*store),
                Delivered::Spooled(why) => Err(why),
            },
        )
    }

    /// Whether the hook speaks for a subagent or a secondary worktree, where
    /// it only records.
    fn suppressed(&self, ev: Option<&HookEvent>) -> bool {
        let cwd = session::cwd_of(ev, self.env);
        session::suppressed(ev, &cwd, (self.env)("SESSIONKIT_HOOK_ROLE").as_deref())
    }
}

/// `hook event`: record the event and apply its status.
pub fn event(call: &Call<'_>, ev: &HookEvent) -> Result<Answer> {
    Ok(match call.store(ev, |_| Ok(()))? {
        Ok(_) => Answer::Quiet,
        Err(why) => Answer::Spooled(why),
    })
}

/// `hook session-start`: record the event, then (unless a subagent or a
/// secondary worktree) brief and open, reopen or heartbeat the run; the
/// envelope carries the briefing. `ev` is `None` for an empty stdin, and
/// `named` the harness the command line names.
pub fn session_start(
    call: &Call<'_>,
    ev: Option<&HookEvent>,
    named: Option<Harness>,
) -> Result<Answer> {
    let mut stored = match ev.map(|ev| call.store(ev, |_| Ok(()))).transpose()? {
        Some(Err(why)) => return Ok(Answer::Spooled(why)),
        Some(Ok(store)) => Some(store),
        None => None,
    };
    let harness = ev
        .map(|e| e.harness)
        .or(named)
        .unwrap_or_else(|| detect(None, call.env, &serde_json::Map::new()));
    if call.suppressed(ev) {
        return Ok(Answer::Quiet);
    }
    let cwd = session::cwd_of(ev, call.env);
    let started = retry_busy(call.by, |left| {
        let mut store = match stored.take() {
            Some(s) => s,
            None => Store::open_waiting(call.db, left)?,
        };
        let limits = brief::limits(&store, Some(harness), None, None, false)?;
        let lease = settings::hours_ms(&store, "lease.hours")?;
        session::session_start(
            &mut store,
            ev,
            harness,
            &cwd,
            limits,
            (lease, call.now),
            call.warn,
        )
    })?;
    Ok(session::start_envelope(harness, &started.context).map_or(Answer::Quiet, Answer::Envelope))
}

/// Which of the two run-keeping hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// SessionEnd: close the run, then catch up the transcript.
    End,
    /// PreCompact: heartbeat the run.
    Compact,
}

/// `hook session-end` and `hook pre-compact`: record the event, then close
/// or heartbeat the run. Neither opens a run; a run that does not exist is
/// normal.
pub fn keep_run(call: &Call<'_>, ev: &HookEvent, keep: Keep) -> Result<Answer> {
    let mut store = match call.store(ev, |_| Ok(()))? {
        Ok(store) => store,
        Err(why) => return Ok(Answer::Spooled(why)),
    };
    let Some(sid) = ev.session_id.as_deref() else {
        return Ok(Answer::Quiet);
    };
    // Gemini fires PreCompress before every turn: no evidence of a
    // compaction, so it is only recorded.
    if ev.event == "PreCompress" {
        return Ok(Answer::Quiet);
    }
    let agent = ev.harness.as_str();
    match keep {
        Keep::End => {
            // The transcript is caught up even when the close fails.
            let closed = store.close_run(agent, sid, call.now);
            catch_up(&mut store, ev, "ingest.hook_max_bytes", true)?;
            closed?;
        }
        Keep::Compact => {
            let lease = settings::hours_ms(&store, "lease.hours")?;
            let excerpt = ev
                .payload
                .get("last_assistant_message")
                .and_then(serde_json::Value::as_str)
                .map(crate::domain::runs::excerpt);
            store.heartbeat_run(agent, sid, excerpt.as_deref(), false, call.now, lease)?;
        }
    }
    Ok(Answer::Quiet)
}

/// The end of a Claude Code, Codex or Gemini CLI conversation (SessionEnd) or of its
/// turn (Stop): its transcript is ingested by tail resume within the setting
/// `budget`'s bytes, so the reports and the next briefing include it without
/// a cron job. What SessionEnd cannot catch up is noted for `status`; a
/// Stop over its (smaller) budget leaves it to the SessionEnd. Gemini CLI's
/// chats are caught up the same way; Cursor and Copilot CLI transcripts
/// have no reader.
fn catch_up(store: &mut Store, ev: &HookEvent, budget: &str, at_end: bool) -> Result<()> {
    if !ev.harness.answers.catch_up {
        return Ok(());
    }
    let Some(path) = ev.transcript_path.as_deref() else {
        return Ok(());
    };
    let max = settings::count(store, budget)?;
    ingest::catch_up(store, Path::new(path), max, at_end)?;
    Ok(())
}

/// `hook stop`: record and heartbeat (counting the turn) in one write
/// transaction, then the nudge's handshake when it is on, then the turn's
/// transcript, after the answer is decided.
pub fn stop(call: &Call<'_>, ev: &HookEvent) -> Result<Answer> {
    // A failed turn is recorded (its status is `error`) and nothing more;
    // a subagent's or a secondary worktree's Stop is only recorded.
    let sid = ev
        .session_id
        .as_deref()
        .filter(|_| ev.kind != Kind::StopFailure && !call.suppressed(Some(ev)));
    let agent = ev.harness.as_str();
    let excerpt = ["last_assistant_message", "prompt_response"]
        .iter()
        .find_map(|k| ev.payload.get(*k).and_then(serde_json::Value::as_str))
        .map(crate::domain::runs::excerpt);
    let beat = Cell::new(None);
    let heartbeat = |tx: &rusqlite::Transaction<'_>| -> Result<()> {
        let Some(sid) = sid else {
            return Ok(());
        };
        let lease = settings::hours_ms_in(tx, "lease.hours")?;
        // Stop never opens a run: no run, no beat.
        let done = crate::store::runs::heartbeat_in(
            tx,
            agent,
            sid,
            excerpt.as_deref(),
            true,
            call.now,
            lease,
        )?;
        beat.set(done.map(|_| lease));
        Ok(())
    };
    let mut store = match call.store(ev, heartbeat)? {
        Ok(store) => store,
        Err(why) => return Ok(Answer::Spooled(why)),
    };
    let answer = match (sid, beat.get()) {
        (Some(sid), Some(lease)) => nudge(&mut store, ev, sid, lease, call.now)?,
        _ => Answer::Quiet,
    };
    // The turn's transcript, after the answer is decided; a failed turn's too.
    if ev.session_id.is_some() {
        catch_up(&mut store, ev, "ingest.stop_max_bytes", false)?;
    }
    Ok(answer)
}

/// With the nudge on: the handshake, and the continue envelope when an
/// attempt arms.
fn nudge(store: &mut Store, ev: &HookEvent, sid: &str, lease: i64, now: Millis) -> Result<Answer> {
    if !ev.harness.takes_stop()
        || !settings::enabled(store, "nudge.enabled")?
        || crate::domain::triage::quiet_turn(store.turn_start_source(sid)?.as_deref())
    {
        return Ok(Answer::Quiet);
    }
    let max_bytes = brief::limits(store, Some(ev.harness), None, None, false)?.max_bytes;
    let continuing = stop::continuing(&ev.payload);
    let agent = ev.harness.as_str();
    Ok(
        match stop::handshake(store, agent, sid, continuing, max_bytes, now, lease)? {
            stop::Handshake::Inject(prompt) => {
                Answer::Envelope(stop::stop_envelope(ev.harness, &prompt))
            }
            _ => Answer::Quiet,
        },
    )
}

/// `hook user-prompt-submit`: record, then recall the memories the
/// prompt's words find (not those already briefed to this run).
pub fn prompt_submit(call: &Call<'_>, ev: &HookEvent) -> Result<Answer> {
    let mut store = match call.store(ev, |_| Ok(()))? {
        Ok(store) => store,
        Err(why) => return Ok(Answer::Spooled(why)),
    };
    if call.suppressed(Some(ev)) {
        return Ok(Answer::Quiet);
    }
    let Some(text) = ev.payload.get("prompt").and_then(serde_json::Value::as_str) else {
        return Ok(Answer::Quiet);
    };
    let cwd = session::cwd_of(Some(ev), call.env);
    let project = project::project_of(&store, &cwd.to_string_lossy())?;
    let run = match ev.session_id.as_deref() {
        Some(sid) => store.run_by_key(ev.harness.as_str(), sid)?,
        None => None,
    };
    let briefed = run
        .as_ref()
        .map(crate::store::runs::Run::briefed_ids)
        .unwrap_or_default();
    let context = prompt::recall_context(
        &mut store,
        text,
        &project,
        run.as_ref().map(|r| r.run_id.as_str()),
        &briefed,
        prompt::BUDGET,
        call.now,
    )?;
    Ok(context
        .and_then(|c| prompt::prompt_envelope(ev.harness, &c))
        .map_or(Answer::Quiet, Answer::Envelope))
}
