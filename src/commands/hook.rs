//! `sessionkit hook <event>`: what a harness runs. A hook never disturbs the
//! agent: it exits 0 whatever happens, prints nothing on stdout (for `event`),
//! and reports a failure as one sanitized line on stderr.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::commands::Exit;
use crate::domain::clock::Millis;
use crate::domain::harness::{Harness, HookEvent, InputError, MAX_INPUT, report};
use crate::services::hook::receive::{Delivered, Delivery, deliver, event_of};
use crate::services::hook::session;
use crate::store::{Store, retry_busy};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: HookCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum HookCommand {
    /// Record one lifecycle event from stdin and apply its status (any harness, any event)
    ///
    /// Reads the harness's JSON payload from stdin, redacts secrets, stores it
    /// once in events_raw (a repeated delivery id, or an identical payload for
    /// the same event and session from the same client process within 5
    /// seconds, stores nothing), and
    /// applies its status: Stop -> the main agent is waiting; SubagentStop ->
    /// that subagent is completed; UserPromptSubmit -> working; SessionEnd ->
    /// completed; StopFailure -> error. Always exits 0 and prints nothing on
    /// stdout.
    Event(EventArgs),
    /// SessionStart: inject the briefing and open this conversation's run
    ///
    /// Records the event like `hook event`, then (unless a subagent or a
    /// secondary git worktree) builds the briefing for the payload's cwd and,
    /// by `source`: startup opens the run stamping what the briefing showed;
    /// resume reopens it; compact heartbeats it; clear reuses a live run or
    /// opens one. Prints the harness's JSON envelope with the briefing and the
    /// run id to pass on memory writes; nothing for harnesses without
    /// injection. Always exits 0.
    SessionStart(EventArgs),
    /// SessionEnd: close this conversation's run (fast; no output)
    SessionEnd(EventArgs),
    /// Stop (and StopFailure): end the turn; with the nudge on, ask once for a debrief
    ///
    /// Always records the event like `hook event` and heartbeats this
    /// conversation's run with the last message's redacted excerpt, counting
    /// the turn (Stop never opens a run; StopFailure only ends the turn as
    /// `error`). With the nudge on (setting nudge.enabled, or
    /// SESSIONKIT_STOP_NUDGE=1): begins a triage attempt and, when one arms,
    /// prints the harness's continue envelope with the debrief prompt, at most
    /// once per attempt; a continuation Stop (stop_hook_active, Cursor's
    /// loop_count) only finalizes the attempt. Silent for subagents and
    /// secondary worktrees. Prints nothing otherwise; under Gemini nothing on
    /// stderr either (errors go to <db>.hook-errors.log). Always exits 0.
    Stop(EventArgs),
    /// UserPromptSubmit: recall the memories the prompt's words find, as context
    ///
    /// Records the event like `hook event`, then searches the project's
    /// memories for the prompt's words and hands the few that match (not
    /// already briefed to this run; at most 1,500 bytes) to the agent in
    /// the harness's envelope (Claude Code and Codex UserPromptSubmit, Gemini
    /// BeforeAgent; nothing for Cursor and Copilot), recording them as
    /// demand. Prints nothing when nothing matches. Always exits 0.
    UserPromptSubmit(EventArgs),
    /// PreCompact: heartbeat this conversation's run (never opens one; no output)
    PreCompact(EventArgs),
}

#[derive(Debug, clap::Args)]
pub struct EventArgs {
    /// The harness that runs the hook: claude-code (or claude), codex, gemini, cursor, copilot [default: detected]
    #[arg(long, value_name = "NAME")]
    pub harness: Option<String>,

    /// A unique id for this delivery: the same id twice stores one event
    #[arg(long, value_name = "ID", env = "SESSIONKIT_DELIVERY_ID")]
    pub delivery_id: Option<String>,
}

impl HookCommand {
    /// The verb as the command line names it, and its arguments.
    fn parts(&self) -> (&'static str, &EventArgs) {
        match self {
            HookCommand::Event(a) => ("event", a),
            HookCommand::SessionStart(a) => ("session-start", a),
            HookCommand::SessionEnd(a) => ("session-end", a),
            HookCommand::PreCompact(a) => ("pre-compact", a),
            HookCommand::Stop(a) => ("stop", a),
            HookCommand::UserPromptSubmit(a) => ("user-prompt-submit", a),
        }
    }
}

/// While alive, a panic prints one stderr line instead of the default
/// report; the hook that was in force is put back on drop, so nothing
/// outside the hook run sees the change.
struct QuietPanics(Option<PanicHook>);

type PanicHook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static>;

impl QuietPanics {
    fn install(log: Option<PathBuf>) -> QuietPanics {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            say(
                log.as_deref(),
                &format!("internal error{at} (please report it)"),
            );
        }));
        QuietPanics(Some(previous))
    }
}

/// Where a hook's failure goes: one stderr line, or, under Gemini, a line appended to `log`.
fn say(log: Option<&Path>, msg: &str) {
    match log {
        None => report(msg),
        Some(path) => {
            use std::os::unix::fs::OpenOptionsExt;
            // On disk: secrets out, and readable by the owner only, as the
            // database is.
            let line = crate::domain::text::sanitize_reason(&crate::domain::text::sanitize(msg));
            let line = crate::domain::redact::redact_text(&line);
            let stamp = crate::domain::clock::format_instant(crate::domain::clock::now());
            let _ = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .mode(0o600)
                .open(path)
                .and_then(|mut f| writeln!(f, "{stamp} sessionkit hook: {line}"));
        }
    }
}

/// The file a hook under Gemini writes its failures to: beside the
/// database, `<db>.hook-errors.log`; `None` for every other harness.
fn gemini_log(db: Option<&Path>, args: &Args) -> Option<PathBuf> {
    let (_, a) = args.command.parts();
    let named = a.harness.as_deref().map(str::to_ascii_lowercase);
    let gemini = match named.as_deref() {
        Some(h) => h == "gemini",
        // Gemini sets these for its hooks; Claude Code sets CLAUDECODE.
        None => {
            std::env::var_os("CLAUDECODE").is_none()
                && (std::env::var_os("GEMINI_SESSION_ID").is_some()
                    || std::env::var_os("GEMINI_PROJECT_DIR").is_some())
        }
    };
    let db = db?;
    gemini.then(|| {
        let mut name = db.as_os_str().to_owned();
        name.push(".hook-errors.log");
        PathBuf::from(name)
    })
}

impl Drop for QuietPanics {
    fn drop(&mut self) {
        if let Some(previous) = self.0.take() {
            std::panic::set_hook(previous);
        }
    }
}

/// A client may end its hooks with a signal as it shuts down (Claude Code
/// 2.1.332 sends one to its StopFailure hook about 10 ms after starting
/// it): a hook finishes its short work instead, which its database budget
/// bounds, so the event it was handed is not lost.
fn outlive_shutdown() {
    let seen = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for signal in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGHUP,
    ] {
        let _ = signal_hook::flag::register(signal, std::sync::Arc::clone(&seen));
    }
}

/// Runs a hook command; errors become one stderr line, never an exit status.
pub fn run(db: Result<PathBuf>, args: &Args) -> Exit {
    outlive_shutdown();
    let log = gemini_log(db.as_deref().ok(), args);
    let db_path = db.as_ref().ok().cloned();
    // Even a bug must not break the agent: a panic becomes one stderr line.
    let _quiet = QuietPanics::install(log.clone());
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &args.command {
        HookCommand::Event(a) => event(db, a, log.as_deref()),
        HookCommand::SessionStart(a) => session_start(db, a, log.as_deref()),
        HookCommand::SessionEnd(a) => session_end(db, a, "SessionEnd", log.as_deref()),
        HookCommand::Stop(a) => stop(db, a, log.as_deref()),
        HookCommand::UserPromptSubmit(a) => prompt_submit(db, a, log.as_deref()),
        HookCommand::PreCompact(a) => session_end(db, a, "PreCompact", log.as_deref()),
    }));
    if let Ok(Err(e)) = result {
        let msg = format!("{e:#}");
        say(log.as_deref(), &msg);
        if let Some(db) = &db_path {
            remember_failure(db, args, &msg);
        }
    }
    Exit::Success
}

/// Records a hook's failure in the database for `hooks doctor`, best
/// effort and briefly: a database that is missing, busy or broken is
/// left alone (the failure was said already).
fn remember_failure(db: &Path, args: &Args, msg: &str) {
    if !db.exists() {
        return;
    }
    let (verb, a) = args.command.parts();
    let clean = crate::domain::text::sanitize_reason(&crate::domain::text::sanitize(msg));
    let line = crate::domain::redact::redact_text(&clean);
    if let Ok(store) = Store::open_waiting(db, Duration::from_millis(200)) {
        let _ = store.record_hook_failure(
            a.harness.as_deref().unwrap_or("unknown"),
            verb,
            &line,
            crate::domain::clock::now(),
        );
    }
}

/// Reads all of stdin, at most `MAX_INPUT` bytes kept; the rest is drained so
/// the harness never sees a closed pipe.
fn read_stdin() -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    let mut stdin = std::io::stdin().lock();
    (&mut stdin)
        .take(MAX_INPUT as u64 + 1)
        .read_to_end(&mut buf)
        .context("reading stdin")?;
    if buf.len() > MAX_INPUT {
        std::io::copy(&mut stdin, &mut std::io::sink()).context("reading stdin")?;
        return Err(InputError::TooLarge { limit: MAX_INPUT }.into());
    }
    Ok(buf)
}

/// What every hook does first: read stdin, fix the clock, parse, and name
/// the harness. `Ok(None)` for empty stdin.
fn receive(
    a: &EventArgs,
    fallback_event: Option<&str>,
    log: Option<&Path>,
) -> Result<(Option<HookEvent>, Option<Harness>)> {
    let bytes = read_stdin()?;
    crate::domain::clock::init_from_env()?;
    let harness = match a.harness.as_deref() {
        None => None,
        Some(name) => {
            if let Ok(h) = <Harness as clap::ValueEnum>::from_str(name, true) {
                Some(h)
            } else {
                say(
                    log,
                    &format!("unknown harness {name:?}: detecting it from the payload"),
                );
                None
            }
        }
    };
    let delivery = Delivery {
        harness,
        fallback_event,
    };
    let ev = event_of(&bytes, &delivery, |k| std::env::var(k).ok())?;
    Ok((ev, harness))
}

/// A hook's one answer to its harness: a line on stdout.
fn answer(envelope: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(envelope.as_bytes())?;
    stdout.write_all(b"\n")?;
    stdout.flush()?;
    Ok(())
}

/// How long a hook may wait for the database before it spools its event:
/// well under the 5 s Claude Code gives the registration sessionkit writes.
/// `SESSIONKIT_HOOK_BUDGET_MS` sets another.
const BUDGET: Duration = Duration::from_millis(2000);

fn deadline() -> Instant {
    let budget = std::env::var("SESSIONKIT_HOOK_BUDGET_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(BUDGET, Duration::from_millis);
    Instant::now() + budget
}

/// Records `ev` (or spools it), returning the store when the database took
/// it. A spooled event is said on stderr: it is safe, and `status` shows it.
fn store_event(
    db: &Path,
    ev: &HookEvent,
    a: &EventArgs,
    now: Millis,
    by: Instant,
    log: Option<&Path>,
) -> Result<Option<Store>> {
    store_event_then(db, ev, a, (now, by), log, |_| Ok(()))
}

/// `store_event`, with `then` run in the event's own write transaction.
fn store_event_then(
    db: &Path,
    ev: &HookEvent,
    a: &EventArgs,
    (now, by): (Millis, Instant),
    log: Option<&Path>,
    then: impl Fn(&rusqlite::Transaction<'_>) -> Result<()>,
) -> Result<Option<Store>> {
    match deliver(db, ev, a.delivery_id.as_deref(), now, by, then)? {
        Delivered::Stored(store) => Ok(Some(*store)),
        Delivered::Spooled(why) => {
            say(
                log,
                &format!(
                    "the database is busy ({why:#}): the event waits in the spool for the next writer"
                ),
            );
            Ok(None)
        }
    }
}

fn event(db: Result<PathBuf>, a: &EventArgs, log: Option<&Path>) -> Result<()> {
    let by = deadline();
    let (Some(ev), _) = receive(a, None, log)? else {
        return Ok(());
    };
    store_event(&db?, &ev, a, crate::domain::clock::now(), by, log)?;
    Ok(())
}

fn session_start(db: Result<PathBuf>, a: &EventArgs, log: Option<&Path>) -> Result<()> {
    let by = deadline();
    let (ev, flag) = receive(a, Some("SessionStart"), log)?;
    let now = crate::domain::clock::now();
    let db = db?;
    let stored = match &ev {
        Some(ev) => store_event(&db, ev, a, now, by, log)?,
        None => None,
    };
    let env = |k: &str| std::env::var(k).ok();
    let harness = ev
        .as_ref()
        .map(|e| e.harness)
        .or(flag)
        .unwrap_or_else(|| crate::domain::harness::detect(None, env, &Default::default()));
    let cwd = session::cwd_of(ev.as_ref(), env);
    if session::suppressed(ev.as_ref(), &cwd, env("SESSIONKIT_HOOK_ROLE").as_deref()) {
        return Ok(());
    }
    let mut stored = stored;
    let started = retry_busy(by, |left| {
        let mut store = match stored.take() {
            Some(s) => s,
            None => Store::open_waiting(&db, left)?,
        };
        let limits = crate::services::brief::limits(&store, Some(harness), None, None, false)?;
        let lease = crate::services::settings::hours_ms(&store, "lease.hours")?;
        session::session_start(&mut store, ev.as_ref(), harness, &cwd, limits, lease, now)
    })?;
    if let Some(out) = session::start_envelope(harness, &started.context) {
        answer(&out)?;
    }
    Ok(())
}

/// `session-end` closes the run; `pre-compact` heartbeats it. Neither opens
/// a run nor prints anything; a run that does not exist is normal.
fn session_end(db: Result<PathBuf>, a: &EventArgs, event: &str, log: Option<&Path>) -> Result<()> {
    let by = deadline();
    let (Some(ev), _) = receive(a, Some(event), log)? else {
        return Ok(());
    };
    let now = crate::domain::clock::now();
    let Some(mut store) = store_event(&db?, &ev, a, now, by, log)? else {
        return Ok(());
    };
    let Some(sid) = ev.session_id.as_deref() else {
        return Ok(());
    };
    // Gemini fires PreCompress before every turn: no evidence of a
    // compaction, so it is only recorded.
    if ev.event == "PreCompress" {
        return Ok(());
    }
    let agent = ev.harness.as_str();
    let result = if event == "SessionEnd" {
        let closed = store.close_run(agent, sid, now).map(|_| ());
        catch_up(&mut store, &ev, ("ingest.hook_max_bytes", true))?;
        closed
    } else {
        let lease = crate::services::settings::hours_ms(&store, "lease.hours")?;
        let excerpt = ev
            .payload
            .get("last_assistant_message")
            .and_then(serde_json::Value::as_str)
            .map(crate::domain::runs::excerpt);
        store
            .heartbeat_run(agent, sid, excerpt.as_deref(), false, now, lease)
            .map(|_| ())
    };
    match result {
        Err(e) if e.downcast_ref::<crate::store::runs::RunError>().is_some() => Ok(()),
        other => other,
    }
}

/// The end of a Claude Code, Codex or Gemini CLI conversation (SessionEnd) or of its
/// turn (Stop): its transcript is ingested by tail resume within the setting
/// `budget`'s bytes, so the reports and the next briefing include it without
/// a cron job. What SessionEnd cannot catch up is noted for `status`; a
/// Stop over its (smaller) budget leaves it to the SessionEnd. Gemini CLI's
/// chats are caught up the same way; Cursor and Copilot CLI transcripts
/// have no reader.
fn catch_up(store: &mut Store, ev: &HookEvent, (budget, at_end): (&str, bool)) -> Result<()> {
    if !matches!(
        ev.harness,
        Harness::ClaudeCode | Harness::Codex | Harness::Gemini
    ) {
        return Ok(());
    }
    let Some(path) = ev.transcript_path.as_deref() else {
        return Ok(());
    };
    let max = crate::services::settings::count(store, budget)?;
    crate::services::ingest::catch_up(store, Path::new(path), max, at_end)?;
    Ok(())
}

/// `hook stop`: record and heartbeat (counting the turn) in one write
/// transaction, then the nudge's handshake when it is on.
fn stop(db: Result<PathBuf>, a: &EventArgs, log: Option<&Path>) -> Result<()> {
    let by = deadline();
    let (Some(ev), _) = receive(a, Some("Stop"), log)? else {
        return Ok(());
    };
    let now = crate::domain::clock::now();
    let env = |k: &str| std::env::var(k).ok();
    let cwd = session::cwd_of(Some(&ev), env);
    // A failed turn is recorded (its status is `error`) and nothing more;
    // a subagent's or a secondary worktree's Stop is only recorded.
    let sid = ev.session_id.as_deref().filter(|_| {
        ev.kind != crate::domain::harness::Kind::StopFailure
            && !session::suppressed(Some(&ev), &cwd, env("SESSIONKIT_HOOK_ROLE").as_deref())
    });
    let agent = ev.harness.as_str();
    let excerpt = ["last_assistant_message", "prompt_response"]
        .iter()
        .find_map(|k| ev.payload.get(*k).and_then(serde_json::Value::as_str))
        .map(crate::domain::runs::excerpt);
    let beat = std::cell::Cell::new(None);
    let heartbeat = |tx: &rusqlite::Transaction<'_>| -> Result<()> {
        let Some(sid) = sid else {
            return Ok(());
        };
        let lease = crate::services::settings::hours_ms_in(tx, "lease.hours")?;
        match crate::store::runs::heartbeat_in(tx, agent, sid, excerpt.as_deref(), true, now, lease)
        {
            Ok(_) => beat.set(Some(lease)),
            // Stop never opens a run.
            Err(e) if e.downcast_ref::<crate::store::runs::RunError>().is_some() => {}
            Err(e) => return Err(e),
        }
        Ok(())
    };
    let Some(mut store) = store_event_then(&db?, &ev, a, (now, by), log, heartbeat)? else {
        return Ok(());
    };
    let nudged = nudge(&mut store, &ev, sid, beat.get(), now);
    // The turn's transcript, after the answer is out; a failed turn's too.
    if nudged.is_ok() && ev.session_id.is_some() {
        catch_up(&mut store, &ev, ("ingest.stop_max_bytes", false))?;
    }
    nudged
}

/// With the nudge on: the handshake, and the continue envelope when an
/// attempt arms.
fn nudge(
    store: &mut Store,
    ev: &HookEvent,
    sid: Option<&str>,
    lease: Option<i64>,
    now: Millis,
) -> Result<()> {
    let agent = ev.harness.as_str();
    let (Some(sid), Some(lease)) = (sid, lease) else {
        return Ok(());
    };
    if !crate::services::settings::enabled(store, "nudge.enabled")?
        || crate::domain::triage::quiet_turn(store.turn_start_source(sid)?.as_deref())
    {
        return Ok(());
    }
    let max_bytes =
        crate::services::brief::limits(store, Some(ev.harness), None, None, false)?.max_bytes;
    let continuing = crate::services::hook::stop::continuing(&ev.payload);
    let done = crate::services::hook::stop::handshake(
        store, agent, sid, continuing, max_bytes, now, lease,
    )?;
    if let crate::services::hook::stop::Handshake::Inject(prompt) = done {
        answer(&crate::services::hook::stop::stop_envelope(
            ev.harness, &prompt,
        ))?;
    }
    Ok(())
}

/// `hook user-prompt-submit`: record, then recall for the prompt.
fn prompt_submit(db: Result<PathBuf>, a: &EventArgs, log: Option<&Path>) -> Result<()> {
    let by = deadline();
    let (Some(ev), _) = receive(a, Some("UserPromptSubmit"), log)? else {
        return Ok(());
    };
    let now = crate::domain::clock::now();
    let Some(mut store) = store_event(&db?, &ev, a, now, by, log)? else {
        return Ok(());
    };
    let env = |k: &str| std::env::var(k).ok();
    let cwd = session::cwd_of(Some(&ev), env);
    if session::suppressed(Some(&ev), &cwd, env("SESSIONKIT_HOOK_ROLE").as_deref()) {
        return Ok(());
    }
    let Some(prompt) = ev.payload.get("prompt").and_then(serde_json::Value::as_str) else {
        return Ok(());
    };
    let project = crate::services::project::project_of(&store, &cwd.to_string_lossy())?;
    let run = ev
        .session_id
        .as_deref()
        .and_then(|sid| store.run_by_key(ev.harness.as_str(), sid).ok());
    let briefed: Vec<String> = run
        .as_ref()
        .and_then(|r| serde_json::from_str::<Vec<serde_json::Value>>(&r.briefed_memories).ok())
        .unwrap_or_default()
        .iter()
        .filter_map(|v| v["id"].as_str().map(str::to_string))
        .collect();
    let context = crate::services::hook::prompt::recall_context(
        &mut store,
        prompt,
        &project,
        run.as_ref().map(|r| r.run_id.as_str()),
        &briefed,
        crate::services::hook::prompt::BUDGET,
        now,
    )?;
    if let Some(out) =
        context.and_then(|c| crate::services::hook::prompt::prompt_envelope(ev.harness, &c))
    {
        answer(&out)?;
    }
    Ok(())
}
