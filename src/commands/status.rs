//! `sessionkit status`: which sessions and agents are working, waiting for
//! their user, finished or silent, with the age of the evidence.

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::now;
use crate::output::records::agent_status_record;
use crate::output::{Column, col};

/// Lists live agents (working or waiting). An agent whose last evidence is
/// older than the watchdog window shows as unknown even before `sweep`
/// records it.
#[derive(Debug, clap::Args)]
#[command(
    after_long_help = super::help_fields("status")
)]
pub struct Args {
    /// Include finished and silent agents (completed, error, unknown)
    #[arg(long)]
    pub all: bool,

    /// Only this project (its name, or Claude Code's folder slug)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
}

const COLUMNS: &[Column] = &[
    col("session_id", "session"),
    col("agent", "agent"),
    col("agent_type", "type").optional(3),
    col("status", "status"),
    col("age", "since"),
    col("evidence", "evidence").optional(2),
    col("project", "project").optional(1),
    col("total_tokens", "tokens").optional(1),
];

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let store = ctx.open()?;
    let window = crate::services::settings::minutes_ms(&store, "watchdog.minutes")?;
    let now = now();
    let gone = store.gone_sessions(crate::domain::harness::sender::gone)?;
    let (rows, waiting) = store.live(args.all, args.project.as_deref(), (now, window), &gone)?;
    ctx.out
        .records_of(COLUMNS, rows.iter().map(|r| agent_status_record(r, now)))?;
    if rows.is_empty() {
        ctx.out.note(if args.all {
            "no agents: the database holds no session yet; `sessionkit ingest` reads your agents' transcripts"
        } else {
            "no agent is working (`sessionkit status --all` lists the finished ones too)"
        });
    }
    if waiting > 0 {
        ctx.out.note(&format!(
            "{waiting} session(s) are shown from hook events alone (no transcript read yet, so no tokens): `sessionkit sweep` or `sessionkit ingest` reads them"
        ));
    }
    for b in store.backlog()? {
        ctx.out.note(&format!(
            "{} was too large for the SessionEnd hook to catch up ({} bytes behind): the next `sessionkit ingest` reads it",
            b.path, b.bytes_behind
        ));
    }
    let spooled = crate::store::spool::waiting(&ctx.db);
    for problem in &spooled.problems {
        ctx.out.note(problem);
    }
    if spooled.dropped > 0 {
        ctx.out.note(&format!(
            "{} hook event(s) were dropped because the spool was full (setting spool.max_bytes); they are counted in {}",
            spooled.dropped,
            crate::store::spool::dropped_path_for(&ctx.db).display()
        ));
    }
    if spooled.lost > 0 {
        ctx.out.note(&format!(
            "{} hook event(s) were lost: neither the database nor the spool could be written (a full disk?); they are counted in {}",
            spooled.lost,
            crate::store::spool::lost_path_for(&ctx.db).display()
        ));
    }
    if spooled.events > 0 {
        ctx.out.note(&format!(
            "{} hook event(s) wait in the spool {} (the database was busy): the next writer, e.g. `sessionkit sweep`, moves them in",
            spooled.events,
            crate::store::spool::path_for(&ctx.db).display()
        ));
    }
    if spooled.rejected > 0 {
        ctx.out.note(&format!(
            "{} spooled line(s) could not be read back; they are kept in {}",
            spooled.rejected,
            crate::store::spool::rejected_path_for(&ctx.db).display()
        ));
    }
    Ok(Exit::Success)
}

#[cfg(test)]
mod tests {
    #[test]
    fn ages_read_like_people_write_them() {
        let cases = [
            (0, "0s"),
            (59_999, "59s"),
            (60_000, "1m00s"),
            (192_000, "3m12s"),
            (3_600_000, "1h00m"),
            (18_180_000, "5h03m"),
            (86_400_000 * 12 + 3_600_000 * 4, "12d04h"),
        ];
        for (ms, want) in cases {
            assert_eq!(crate::output::records::age(ms), want);
        }
    }
}
