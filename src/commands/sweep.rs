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
    // Sessions still open (a client that died mid-turn fires no end
    // event): their transcripts first, so the watchdog and the closer see
    // what they hold.
    if args.dry_run {
        ctx.out
            .note("--dry-run: open sessions' transcripts are not caught up");
    } else {
        let budget = crate::services::settings::count(&store, "sweep.catch_up_bytes")?;
        let caught = crate::services::ingest::catch_up_open(&mut store, budget)?;
        if caught.read > 0 {
            ctx.out.note(&format!(
                "caught up {} open session transcript(s): {} new bytes",
                caught.read, caught.bytes
            ));
        }
        if !caught.deferred.is_empty() {
            let behind: u64 = caught.deferred.iter().map(|d| d.1).sum();
            ctx.out.note(&format!(
                "{} open session transcript(s) hold more than this pass could read ({behind} bytes, setting sweep.catch_up_bytes): the next sweep or `sessionkit ingest` reads them",
                caught.deferred.len()
            ));
        }
    }
    let window = crate::services::settings::minutes_ms(&store, "watchdog.minutes")?;
    let now = crate::domain::clock::now();
    let changes = store.watchdog(now, window, args.dry_run)?;
    // The lease sweep: runs silent past lease + grace close implicitly.
    let lease = crate::services::settings::hours_ms(&store, "lease.hours")?;
    let grace = crate::services::settings::minutes_ms(&store, "sweep.grace_minutes")?;
    let leases = store.sweep_leases(now, lease, grace, args.dry_run)?;
    // The closer, after the lease sweep so runs it just closed
    // are looked at in the same pass.
    let closed = if crate::services::settings::enabled(&store, "closer.enabled")? {
        let done = crate::services::close::batch(&mut store, now, args.dry_run)?;
        if done.capped {
            ctx.out.note("the closer's daily spend cap (closer.max_daily_usd) is reached: the rest waits for tomorrow");
        }
        if done.rejected > 0 {
            ctx.out.note(&format!(
                "the closer's judge named {} ids its runs were not briefed: dropped",
                done.rejected
            ));
        }
        if done.failed > 0 {
            ctx.out.note(&format!(
                "the closer could not judge {} runs: each is backed off (20 min, doubling to 4 h) and tried again",
                done.failed
            ));
        }
        done.closed
    } else {
        ctx.out.note(
            "the closer is off (closer.enabled): finished runs' commitments are left as they are",
        );
        Vec::new()
    };
    // The team database, when one is set (push.url): what changed since the
    // last push, so the cron line keeps the team's view current.
    if !args.dry_run {
        push_if_set(ctx, &mut store)?;
    }
    let changed = changes.len() + leases.len() + closed.len();
    // What went silent long ago is history, not news: settled, counted in
    // one line, not listed (a first sweep over imported sessions listed
    // every old session as a transition).
    let horizon = crate::services::settings::hours_ms(&store, "sweep.history_hours")?;
    let (changes, history): (Vec<_>, Vec<_>) = changes
        .into_iter()
        .partition(|t| t.at.is_none_or(|at| now - at < horizon));
    if !history.is_empty() {
        ctx.out.note(&format!(
            "{} agent(s) silent for more than sweep.history_hours {} settled (completed where the last turn ended, else unknown) without a listing (history, not news)",
            history.len(),
            if args.dry_run { "would be" } else { "were" }
        ));
    }
    // Streamed: a first sweep after an import can move tens of thousands.
    let record = |c: SweepChange| serde_json::to_value(c).expect("a record is JSON");
    let watchdog_rows = changes.iter().map(|t| {
        record(SweepChange::Watchdog {
            agent_id: t.agent_id.clone(),
            dry_run: args.dry_run,
            evidence_at: t.at.map(format_instant),
            from: t.from,
            schema: SWEEP_SCHEMA.to_string(),
            session_id: t.session_id.clone(),
            to: t.to,
        })
    });
    let lease_rows = leases.iter().map(|c| {
        record(SweepChange::Lease {
            agent: c.agent.clone(),
            dry_run: args.dry_run,
            evidence_at: Some(format_instant(c.last_seen_at)),
            from: "stale".into(),
            run_id: c.run_id.clone(),
            schema: SWEEP_SCHEMA.to_string(),
            session_id: c.session_id.clone(),
            to: "closed-implicit".into(),
        })
    });
    let closer_rows = closed.iter().map(|c| {
        record(SweepChange::Resolve {
            agent: c.agent.clone(),
            dry_run: args.dry_run,
            evidence: c.evidence.clone(),
            memory_id: c.memory_id.clone(),
            run_id: c.run_id.clone(),
            schema: SWEEP_SCHEMA.to_string(),
            session_id: c.session_id.clone(),
        })
    });
    ctx.out
        .records_iter(COLUMNS, watchdog_rows.chain(lease_rows).chain(closer_rows))?;
    Ok(if args.dry_run && changed > 0 {
        Exit::Found
    } else {
        Exit::Success
    })
}

/// Pushes to the team database the `push.url` setting names, if any. A
/// failure is said on stderr and left to the next sweep: nothing is marked
/// sent that was not.
fn push_if_set(ctx: &Ctx, store: &mut crate::store::Store) -> Result<()> {
    let url = crate::services::settings::choice(store, "push.url")?;
    if url.trim().is_empty() {
        return Ok(());
    }
    let opts = crate::services::push::Options {
        machine: crate::services::push::machine_label(store)?,
        user: crate::services::push::user_label(store)?,
        since: None,
        dry_run: false,
        with_memory: false,
        deadline: Some(
            std::time::Instant::now()
                + std::time::Duration::from_secs(crate::services::settings::count(
                    store,
                    "sweep.push_seconds",
                )?),
        ),
    };
    let done = crate::services::push::Target::parse(&url)
        .and_then(|t| crate::services::push::push(store, &t, &opts).map(|d| (t, d)));
    match done {
        Ok((t, d)) if d.sessions > 0 => ctx.out.note(&format!(
            "pushed {} session(s), {} message(s) to {}{}",
            d.sessions,
            d.messages,
            t.shown(),
            if d.deferred > 0 {
                format!(
                    "; {} more wait for the next sweep (sweep.push_seconds)",
                    d.deferred
                )
            } else {
                String::new()
            }
        )),
        Ok(_) => {}
        Err(e) => ctx.out.note(&format!(
            "push (push.url) failed, the next sweep tries again: {e:#}"
        )),
    }
    Ok(())
}
