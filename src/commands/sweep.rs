//! `sessionkit sweep`: periodic upkeep, meant for cron every few minutes.
//! The catch-up: open sessions' transcripts read by tail resume (setting
//! sweep.catch_up_bytes per pass). The watchdog: a working or waiting agent whose last evidence is older than
//! `watchdog.minutes` becomes unknown. The lease sweep: a run silent for
//! longer than `lease.hours` plus `sweep.grace_minutes` is closed (an
//! implicit close; a heartbeat or a write brings it back). The closer
//! (setting closer.enabled): each finished run's briefed commitments its
//! own last words state done are resolved, with the words as evidence.

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::format_instant;
use crate::output::records::{SWEEP_SCHEMA, SweepChange};
use crate::output::{Column, col};
use crate::services::sweep::{self, Swept};

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = format!("{}. Exit status 1 with --dry-run when anything would change.", super::help_fields("sweep"))
)]
pub struct Args {
    /// Print what would change and change nothing (exit 1 if anything would)
    #[arg(long)]
    pub dry_run: bool,
}

const COLUMNS: &[Column] = &[
    col("action", "action"),
    col("session_id", "session"),
    col("agent_id", "agent"),
    col("run_id", "run"),
    col("from", "from"),
    col("to", "to"),
    col("evidence_at", "last evidence"),
    col("memory_id", "memory"),
    col("evidence", "evidence"),
];

/// The file a sweep holds locked while it runs, beside the database: a
/// second sweep (two cron lines, a slow pass) exits at once instead of
/// queueing behind the first.
fn lock_path(db: &std::path::Path) -> std::path::PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".sweep.lock");
    std::path::PathBuf::from(name)
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let mut store = ctx.open_writer()?;
    let path = lock_path(&ctx.db);
    // Beside the user's database: never through a link, never a FIFO.
    let lock = crate::store::spool::open_beside(&ctx.db, &path, true)?.expect("created");
    if let Err(std::fs::TryLockError::WouldBlock) = lock.try_lock() {
        ctx.out
            .note("another sweep is running on this database: this one does nothing and exits");
        return Ok(Exit::Success);
    }
    let swept = sweep::sweep(&mut store, crate::domain::clock::now(), args.dry_run)?;
    notes(ctx, &swept, args.dry_run);
    rows(ctx, &swept, args.dry_run)?;
    Ok(if args.dry_run && swept.changed() > 0 {
        Exit::Found
    } else {
        Exit::Success
    })
}

/// What a sweep says on stderr: each step's news that is not a row.
fn notes(ctx: &Ctx, swept: &Swept, dry_run: bool) {
    let note = |s: &str| ctx.out.note(s);
    match &swept.caught {
        None => note("--dry-run: open sessions' transcripts are not caught up"),
        Some(caught) => {
            if caught.read > 0 {
                note(&format!(
                    "caught up {} open session transcript(s): {} new bytes",
                    caught.read, caught.bytes
                ));
            }
            if !caught.deferred.is_empty() {
                let behind: u64 = caught.deferred.iter().map(|d| d.1).sum();
                note(&format!(
                    "{} open session transcript(s) hold more than this pass could read ({behind} bytes, setting sweep.catch_up_bytes): the next sweep or `sessionkit ingest` reads them",
                    caught.deferred.len()
                ));
            }
        }
    }
    match &swept.closer {
        None => note(
            "the closer is off (closer.enabled): finished runs' commitments are left as they are",
        ),
        Some(done) => {
            if done.capped {
                note(
                    "the closer's daily spend cap (closer.max_daily_usd) is reached: the rest waits for tomorrow",
                );
            }
            if done.rejected > 0 {
                note(&format!(
                    "the closer's judge named {} ids its runs were not briefed: dropped",
                    done.rejected
                ));
            }
            if done.failed > 0 {
                note(&format!(
                    "the closer could not judge {} runs: each is backed off (20 min, doubling to 4 h) and tried again",
                    done.failed
                ));
            }
        }
    }
    note_push(ctx, swept);
    if swept.history > 0 {
        note(&format!(
            "{} agent(s) silent for more than sweep.history_hours {} settled (completed where the last turn ended, else unknown) without a listing (history, not news)",
            swept.history,
            if dry_run { "would be" } else { "were" }
        ));
    }
}

/// What the push to `push.url` did, when it sent something or failed.
fn note_push(ctx: &Ctx, swept: &Swept) {
    match &swept.pushed {
        Some(Ok((shown, d))) if d.sessions > 0 => ctx.out.note(&format!(
            "pushed {} session(s), {} message(s) to {shown}{}",
            d.sessions,
            d.messages,
            if d.deferred > 0 {
                format!(
                    "; {} more wait for the next sweep (sweep.push_seconds)",
                    d.deferred
                )
            } else {
                String::new()
            }
        )),
        Some(Err(e)) => ctx.out.note(&format!(
            "push (push.url) failed, the next sweep tries again: {e:#}"
        )),
        _ => {}
    }
}

/// The sweep's rows, streamed: a first sweep after an import can move tens
/// of thousands.
fn rows(ctx: &Ctx, swept: &Swept, dry_run: bool) -> Result<()> {
    let record = |c: SweepChange| serde_json::to_value(c).expect("a record is JSON");
    let watchdog_rows = swept.changes.iter().map(|t| {
        record(SweepChange::Watchdog {
            agent_id: t.agent_id.clone(),
            dry_run,
            evidence_at: t.at.map(format_instant),
            from: t.from,
            schema: SWEEP_SCHEMA.to_string(),
            session_id: t.session_id.clone(),
            to: t.to,
        })
    });
    let lease_rows = swept.leases.iter().map(|c| {
        record(SweepChange::Lease {
            agent: c.agent.clone(),
            dry_run,
            evidence_at: Some(format_instant(c.last_seen_at)),
            from: "stale".into(),
            run_id: c.run_id.clone(),
            schema: SWEEP_SCHEMA.to_string(),
            session_id: c.session_id.clone(),
            to: "closed-implicit".into(),
        })
    });
    let closed = swept.closer.iter().flat_map(|b| &b.closed);
    let closer_rows = closed.map(|c| {
        record(SweepChange::Resolve {
            agent: c.agent.clone(),
            dry_run,
            evidence: c.evidence.clone(),
            rule: c.rule.clone(),
            memory_id: c.memory_id.clone(),
            run_id: c.run_id.clone(),
            schema: SWEEP_SCHEMA.to_string(),
            session_id: c.session_id.clone(),
        })
    });
    ctx.out
        .records_iter(COLUMNS, watchdog_rows.chain(lease_rows).chain(closer_rows))
}
