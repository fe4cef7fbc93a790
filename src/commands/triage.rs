//! `sessionkit triage begin|complete`: the turn-end handshake by hand, as
//! `hook stop` runs it. JSON out for scripts.

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::runs;
use crate::output::runs::TriageRecord;
use crate::output::{Column, col};
use crate::store::runs::RunError;

#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("triage"))]
pub struct Args {
    #[command(subcommand)]
    pub command: TriageCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum TriageCommand {
    /// Arm a triage attempt when the run has something to debrief
    ///
    /// Entry rule, in order: a run that is not live, an overflowed one
    /// (terminal), one with an attempt in flight (pending; pending-fresh when
    /// it armed under 30 s ago and this is not a continuation), a completed
    /// or expired one with no new event (no-signal), and an idle one before
    /// 3 turns or 10 minutes with no new event (debounce) do not arm.
    /// Otherwise the attempt arms, stamping every visible event id; a run
    /// past 500 events overflows instead. Never creates, resurrects or
    /// heartbeats a run.
    Begin(BeginArgs),
    /// Finalize the pending attempt: completed when events arrived since
    /// its begin, expired when none did, overflowed past 500
    ///
    /// Fenced on the attempt id and the pending status, not on liveness: a
    /// closed run still completes. Any other attempt or status is a
    /// conflict (exit 2) and changes nothing.
    Complete(CompleteArgs),
}

#[derive(Debug, clap::Args)]
pub struct BeginArgs {
    #[command(flatten)]
    pub key: super::Key,
    /// This Stop is itself a continuation (the harness's stop_hook_active)
    #[arg(long)]
    pub stop_hook_active: bool,
}

#[derive(Debug, clap::Args)]
pub struct CompleteArgs {
    #[command(flatten)]
    pub key: super::Key,
    /// The attempt `triage begin` armed
    #[arg(long, value_name = "ID")]
    pub attempt: String,
}

/// The record's columns for a table.
const COLUMNS: &[Column] = &[
    col("run_id", "run"),
    col("triage_status", "triage"),
    col("armed", "armed"),
    col("reason", "reason"),
    col("attempt_id", "attempt"),
    col("event_count", "events"),
    col("since_begin_count", "since begin"),
];

pub fn run(ctx: &Ctx, a: &Args) -> Result<Exit> {
    let now = crate::domain::clock::now();
    let mut store = ctx.open_writer()?;
    match &a.command {
        TriageCommand::Begin(b) => {
            let lease = crate::services::settings::hours_ms(&store, "lease.hours")?;
            let (agent, sid) = (
                runs::check_agent(&b.key.agent)?,
                runs::check_session_id(&b.key.session_id)?,
            );
            let begun = store
                .triage_begin(&agent, &sid, b.stop_hook_active, now, lease)?
                .ok_or_else(|| RunError::not_found(&agent, &sid))?;
            ctx.out.record_of(COLUMNS, &TriageRecord::begun(&begun))?;
        }
        TriageCommand::Complete(c) => {
            let (agent, sid) = (
                runs::check_agent(&c.key.agent)?,
                runs::check_session_id(&c.key.session_id)?,
            );
            let attempt = c.attempt.trim();
            let done = store
                .triage_complete(&agent, &sid, attempt, now)?
                .ok_or_else(|| RunError::not_found(&agent, &sid))?
                .or_conflict(attempt)?;
            ctx.out
                .record_of(COLUMNS, &TriageRecord::completed(&done))?;
        }
    }
    Ok(Exit::Success)
}
