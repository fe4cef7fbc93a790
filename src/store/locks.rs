//! Waiting for the database's locks: how long, what counts as busy, a
//! retry within a deadline, and the pacing that lets hooks in between a
//! long writer's transactions.

use anyhow::Result;
use rusqlite::Connection;
use std::time::{Duration, Instant};

/// How long a command waits for another process's lock before it fails.
pub const BUSY_WAIT: Duration = Duration::from_millis(5000);

/// Whether `e` is SQLite reporting a lock held by another connection
/// (`SQLITE_BUSY` or `SQLITE_LOCKED`, any extended code): worth a retry.
pub fn is_busy(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        matches!(
            c.downcast_ref::<rusqlite::Error>(),
            Some(rusqlite::Error::SqliteFailure(f, _))
                if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        )
    })
}

/// Whether `e` says the database cannot be written (a read-only file,
/// folder or file system): a read may still work.
pub fn is_read_only(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        matches!(
            c.downcast_ref::<rusqlite::Error>(),
            Some(rusqlite::Error::SqliteFailure(f, _))
                if matches!(f.code, rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::CannotOpen)
        ) || c.downcast_ref::<std::io::Error>().is_some_and(|io| {
            matches!(
                io.kind(),
                std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
            )
        })
    })
}

/// Runs `attempt` (given the time left) until it succeeds, fails with
/// something other than a lock, or `deadline` passes. SQLite's busy handler
/// waits inside one attempt, but some lock errors come back without it (a
/// read transaction that has to become a write one, WAL recovery, the last
/// connection's checkpoint on close): those are retried here, after a pause
/// of 1, 2, 4 ... 32 ms with jitter so that waiting processes spread out.
pub fn retry_busy<T>(
    deadline: Instant,
    mut attempt: impl FnMut(Duration) -> Result<T>,
) -> Result<T> {
    let mut pause = 1u64;
    let clock = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let mut seed = u64::from(std::process::id()) << 32 | u64::from(clock);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match attempt(left.max(Duration::from_millis(1))) {
            Err(e) if is_busy(&e) && Instant::now() < deadline => {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let jitter = (seed >> 33) % pause.max(1);
                let nap = Duration::from_millis(pause + jitter)
                    .min(deadline.saturating_duration_since(Instant::now()));
                std::thread::sleep(nap);
                pause = (pause * 2).min(32);
            }
            other => return other,
        }
    }
}

thread_local! {
    /// How long this thread's connections wait for a lock, and when the
    /// current wait began (the busy handler is a plain function).
    static BUSY: std::cell::Cell<(Duration, Option<Instant>)> =
        const { std::cell::Cell::new((BUSY_WAIT, None)) };
}

/// Makes `conn` wait up to `wait` for another connection's lock, trying
/// again every millisecond or two. SQLite's own busy timeout sleeps up to
/// 100 ms between tries: against a writer that commits in short batches
/// back to back, such a sleeper kept missing the gaps and waited seconds
/// (a hook beside a 100,000-memory import spooled). Writers that run long
/// leave gaps (`Pacer`); short polls find them.
pub(super) fn wait_for_locks(conn: &mut Connection, wait: Duration) -> Result<()> {
    BUSY.with(|b| b.set((wait, None)));
    conn.busy_handler(Some(busy_handler))?;
    Ok(())
}

pub(super) fn busy_handler(tries: i32) -> bool {
    BUSY.with(|b| {
        let (limit, began) = b.get();
        let began = match (tries, began) {
            (0, _) | (_, None) => {
                let now = Instant::now();
                b.set((limit, Some(now)));
                now
            }
            (_, Some(t)) => t,
        };
        if began.elapsed() >= limit {
            return false;
        }
        std::thread::sleep(Duration::from_micros(if tries < 10 { 500 } else { 2000 }));
        true
    })
}

/// Spaces out a long run of write transactions: after each commit, once
/// `WRITE_SPAN` of back-to-back writing has passed, it pauses `GAP` so that
/// a hook waiting for the lock gets it. Costs at most GAP /
/// WRITE_SPAN of the writer's time.
pub struct Pacer {
    since: Instant,
}

pub(super) const WRITE_SPAN: Duration = Duration::from_millis(100);
pub(super) const GAP: Duration = Duration::from_millis(4);

impl Pacer {
    pub fn new() -> Pacer {
        Pacer {
            since: Instant::now(),
        }
    }

    /// Called after a commit.
    pub fn committed(&mut self) {
        if self.since.elapsed() >= WRITE_SPAN {
            std::thread::sleep(GAP);
            self.since = Instant::now();
        }
    }
}

impl Default for Pacer {
    fn default() -> Pacer {
        Pacer::new()
    }
}
