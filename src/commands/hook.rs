//! `sessionkit hook <event>`: what a harness runs. A hook never disturbs the
//! agent: it exits 0 whatever happens, prints nothing on stdout (for `event`),
//! and reports a failure as one sanitized line on stderr.

use std::io::Read;
use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::Exit;
use crate::hooks::receive::{Delivery, event_of, record};
use crate::hooks::{Harness, InputError, MAX_INPUT};
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
    /// the same event and session within 5 seconds, stores nothing), and
    /// applies its status: Stop -> the main agent is waiting; SubagentStop ->
    /// that subagent is completed; UserPromptSubmit -> working; SessionEnd ->
    /// completed; StopFailure -> error. Always exits 0 and prints nothing on
    /// stdout.
    Event(EventArgs),
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

/// Runs a hook command; errors become one stderr line, never an exit status.
pub fn run(db: Result<PathBuf>, args: &Args) -> Exit {
    let result = match &args.command {
        HookCommand::Event(a) => event(db, a),
    };
    if let Err(e) = result {
        report(&format!("{e:#}"));
    }
    Exit::Success
}

/// One sanitized line on stderr: no control characters, no absolute paths.
pub(crate) fn report(msg: &str) {
    let line = crate::ingest::sanitize_reason(&crate::output::sanitize(msg));
    eprintln!("sessionkit hook: {line}");
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

fn event(db: Result<PathBuf>, a: &EventArgs) -> Result<()> {
    let bytes = read_stdin()?;
    crate::clock::init_from_env()?;
    let harness = match a.harness.as_deref() {
        None => None,
        Some(name) => match <Harness as clap::ValueEnum>::from_str(name, true) {
            Ok(h) => Some(h),
            Err(_) => {
                report(&format!(
                    "unknown harness {name:?}: detecting it from the payload"
                ));
                None
            }
        },
    };
    let delivery = Delivery {
        harness,
        delivery_id: a.delivery_id.as_deref(),
        fallback_event: None,
    };
    let Some(ev) = event_of(&bytes, &delivery, |k| std::env::var(k).ok())? else {
        return Ok(());
    };
    let mut store = Store::open(&db?)?;
    record(&mut store, &ev, delivery.delivery_id, crate::clock::now())?;
    Ok(())
}
