//! `sessionkit hook <event>`: what a harness runs. A hook never disturbs the
//! agent: it exits 0 whatever happens, prints nothing on stdout (for `event`),
//! and reports a failure as one sanitized line on stderr.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::commands::Exit;
use crate::domain::harness::{Harness, HookEvent, InputError, MAX_INPUT};
use crate::services::hook::receive::{Delivery, event_of};
use crate::services::hook::{self, Answer, Keep};
use crate::store::Store;

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

    /// The event's name, for a harness whose payloads do not name it
    /// (`hooks install` writes it) [default: the payload's, else the verb's]
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
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
        None => {
            // No control characters, no absolute paths: a harness may show
            // the line to the user or the model.
            let line = crate::domain::text::sanitize_reason(&crate::domain::text::sanitize(msg));
            eprintln!("sessionkit hook: {line}");
        }
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

/// The file a hook writes its failures to under a harness that shows a
/// hook's stderr to the user (each says so in its declaration): beside the
/// database, `<db>.hook-errors.log`; `None` for every other harness.
fn hook_log(db: Option<&Path>, args: &Args) -> Option<PathBuf> {
    let (_, a) = args.command.parts();
    let env = |k: &str| std::env::var(k).ok();
    let harness = match a.harness.as_deref() {
        Some(name) => crate::domain::harness::Harness::named(name),
        // Known by the variables it sets for its hooks.
        None => crate::domain::harness::all().find(|h| (h.detect.env)(&env)),
    };
    let quiet = harness.is_some_and(|h| h.answers.shows_stderr);
    let db = db?;
    quiet.then(|| {
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
    let log = hook_log(db.as_deref().ok(), args);
    let db_path = db.as_ref().ok().cloned();
    // Even a bug must not break the agent: a panic becomes one stderr line.
    let _quiet = QuietPanics::install(log.clone());
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &args.command {
        HookCommand::Event(a) => lifecycle(db, a, None, log.as_deref(), with_event(hook::event)),
        HookCommand::SessionStart(a) => lifecycle(
            db,
            a,
            Some("SessionStart"),
            log.as_deref(),
            hook::session_start,
        ),
        HookCommand::SessionEnd(a) => lifecycle(
            db,
            a,
            Some("SessionEnd"),
            log.as_deref(),
            with_event(|c, ev| hook::keep_run(c, ev, Keep::End)),
        ),
        HookCommand::Stop(a) => {
            lifecycle(db, a, Some("Stop"), log.as_deref(), with_event(hook::stop))
        }
        HookCommand::UserPromptSubmit(a) => lifecycle(
            db,
            a,
            Some("UserPromptSubmit"),
            log.as_deref(),
            with_event(hook::prompt_submit),
        ),
        HookCommand::PreCompact(a) => lifecycle(
            db,
            a,
            Some("PreCompact"),
            log.as_deref(),
            with_event(|c, ev| hook::keep_run(c, ev, Keep::Compact)),
        ),
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
            if let Some(h) = Harness::named(name) {
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
    // The event the command line names (a harness whose payloads do not)
    // before the verb's own.
    let delivery = Delivery {
        harness,
        fallback_event: a.event.as_deref().or(fallback_event),
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

/// What every hook verb does after reading stdin: run its lifecycle and
/// say what came of it (the envelope on stdout; a spooled event on stderr,
/// since it is safe and `status` shows it).
fn lifecycle(
    db: Result<PathBuf>,
    a: &EventArgs,
    fallback_event: Option<&str>,
    log: Option<&Path>,
    work: impl FnOnce(&hook::Call<'_>, Option<&HookEvent>, Option<Harness>) -> Result<Answer>,
) -> Result<()> {
    let by = deadline();
    let (ev, named) = receive(a, fallback_event, log)?;
    let db = db?;
    let env = |k: &str| std::env::var(k).ok();
    let warn = |msg: &str| say(log, msg);
    let call = hook::Call {
        db: &db,
        delivery_id: a.delivery_id.as_deref(),
        now: crate::domain::clock::now(),
        by,
        env: &env,
        warn: &warn,
    };
    match work(&call, ev.as_ref(), named)? {
        Answer::Quiet => Ok(()),
        Answer::Envelope(out) => answer(&out),
        Answer::Spooled(why) => {
            say(
                log,
                &format!(
                    "the database is busy ({why:#}): the event waits in the spool for the next writer"
                ),
            );
            Ok(())
        }
    }
}

/// A verb whose lifecycle needs an event: nothing to do on an empty stdin.
fn with_event(
    work: impl Fn(&hook::Call<'_>, &HookEvent) -> Result<Answer>,
) -> impl FnOnce(&hook::Call<'_>, Option<&HookEvent>, Option<Harness>) -> Result<Answer> {
    move |call, ev, _| ev.map_or(Ok(Answer::Quiet), |ev| work(call, ev))
}
