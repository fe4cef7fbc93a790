//! The turn-end triage handshake. Pure: the entry rule, what a
//! complete lands on, the attempt log. The store runs them in one write
//! transaction each.

use serde::{Deserialize, Serialize};

use crate::domain::clock::Millis;

/// The debounce: a debrief is asked for only after this many turns and
/// this much time in the run.
pub const MIN_TURNS: i64 = 3;
pub const MIN_ELAPSED_MS: i64 = 10 * 60 * 1000;
/// The age guard: a pending
/// attempt younger than this is left alone by a Stop that is not itself a
/// continuation (the injected turn has not ended yet).
pub const MIN_ATTEMPT_AGE_MS: i64 = 30_000;
/// Attempts kept in a run's log (the oldest are dropped; the count keeps
/// the true total).
pub const ATTEMPT_LOG_MAX: usize = 20;

vocabulary!(
    /// A run's triage state: `pending` holds exactly while an
    /// interactive attempt is in flight; `overflowed` is terminal.
    TriageStatus, "triage status", "triage statuses" {
        Idle = "idle",
        Pending = "pending",
        Completed = "completed",
        Expired = "expired",
        Overflowed = "overflowed",
    }
);

vocabulary!(
    /// Why a begin did not arm.
    Decline, "reason", "reasons" {
        NotLive = "not-live",
        Terminal = "terminal",
        Pending = "pending",
        PendingFresh = "pending-fresh",
        NoSignal = "no-signal",
        Debounce = "debounce",
        Overflowed = "overflowed",
    }
);

/// What a begin sees of its run.
#[derive(Debug, Clone, Copy)]
pub struct EntryInput {
    pub live: bool,
    pub status: TriageStatus,
    /// An event of the run outside its watermark.
    pub untriaged: bool,
    /// The run's Stop heartbeats so far.
    pub turns: i64,
    /// Since the run opened.
    pub elapsed_ms: i64,
    /// Since the pending attempt was armed; `None` reads as old.
    pub armed_age_ms: Option<i64>,
    /// The Stop is itself a continuation (`stop_hook_active`, Cursor's
    /// `loop_count > 0`).
    pub stop_hook_active: bool,
}

/// The entry rule, in its precedence order: not-live, terminal, pending
/// (pending-fresh when young and not a continuation), no-signal, then arm
/// on substance (an untriaged event, enough turns or enough time),
/// otherwise debounce. `Ok(())` arms.
pub fn entry(i: EntryInput) -> Result<(), Decline> {
    if !i.live {
        return Err(Decline::NotLive);
    }
    match i.status {
        TriageStatus::Overflowed => return Err(Decline::Terminal),
        TriageStatus::Pending => {
            let fresh = i.armed_age_ms.is_some_and(|a| a < MIN_ATTEMPT_AGE_MS);
            return Err(if fresh && !i.stop_hook_active {
                Decline::PendingFresh
            } else {
                Decline::Pending
            });
        }
        TriageStatus::Completed | TriageStatus::Expired if !i.untriaged => {
            return Err(Decline::NoSignal);
        }
        _ => {}
    }
    if i.untriaged || i.turns >= MIN_TURNS || i.elapsed_ms >= MIN_ELAPSED_MS {
        Ok(())
    } else {
        Err(Decline::Debounce)
    }
}

/// the nudge never fires on the turn that a
/// `compact` or `resume` start began (a summarized context, or a
/// conversation carried on with nothing new done yet). `start` is the
/// source of the SessionStart this turn followed, when no other turn ended
/// since it.
pub fn quiet_turn(start: Option<&str>) -> bool {
    matches!(start, Some("compact" | "resume"))
}

/// Where a complete lands: overflowed when the run's events pass
/// the ceiling, completed when events arrived since the begin, expired
/// when none did.
pub fn completed_status(since_begin: usize, truncated: bool) -> TriageStatus {
    if truncated {
        TriageStatus::Overflowed
    } else if since_begin > 0 {
        TriageStatus::Completed
    } else {
        TriageStatus::Expired
    }
}

/// One interactive attempt in a run's log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    pub attempt_id: String,
    pub armed_at: Millis,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub finalized_at: Option<Millis>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub outcome: Option<String>,
}

/// The log with `a` added, the oldest dropped past `ATTEMPT_LOG_MAX`.
pub fn log_armed(mut log: Vec<Attempt>, a: Attempt) -> Vec<Attempt> {
    log.push(a);
    let over = log.len().saturating_sub(ATTEMPT_LOG_MAX);
    log.drain(..over);
    log
}

/// The log with attempt `id` finalized (a trimmed-away attempt is left out).
pub fn log_finalized(
    mut log: Vec<Attempt>,
    id: &str,
    at: Millis,
    outcome: TriageStatus,
) -> Vec<Attempt> {
    if let Some(a) = log.iter_mut().find(|a| a.attempt_id == id) {
        a.finalized_at = Some(at);
        a.outcome = Some(outcome.as_str().to_string());
    }
    log
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> EntryInput {
        EntryInput {
            live: true,
            status: TriageStatus::Idle,
            untriaged: false,
            turns: 0,
            elapsed_ms: 0,
            armed_age_ms: None,
            stop_hook_active: false,
        }
    }

    /// The entry rule's every vector: each status, lease and continuation.
    #[test]
    fn the_entry_rule_holds_every_d1_vector() {
        use TriageStatus::*;
        let lease = 24 * 3_600_000;
        // 1: not live, whatever the rest says.
        for s in TriageStatus::ALL {
            let i = EntryInput {
                live: false,
                status: *s,
                untriaged: true,
                turns: 99,
                ..base()
            };
            assert_eq!(entry(i), Err(Decline::NotLive), "{s}");
        }
        let with = |status, untriaged, turns, elapsed_ms| {
            entry(EntryInput {
                status,
                untriaged,
                turns,
                elapsed_ms,
                ..base()
            })
        };
        assert_eq!(with(Overflowed, true, 99, 0), Err(Decline::Terminal)); // 2
        assert_eq!(with(Pending, true, 99, 0), Err(Decline::Pending)); // 3
        assert_eq!(
            with(Completed, false, 99, 1_000_000_000),
            Err(Decline::NoSignal)
        ); // 4
        assert_eq!(with(Completed, true, 0, 0), Ok(())); // 5
        assert_eq!(
            with(Expired, false, 99, 1_000_000_000),
            Err(Decline::NoSignal)
        ); // 6
        assert_eq!(with(Expired, true, 0, 0), Ok(())); // 7
        // 8: expired and completed decide alike without a signal.
        assert_eq!(
            with(Expired, false, 1000, 30 * lease),
            with(Completed, false, 1000, 30 * lease)
        );
        // 9: total: a decision for every status and signal.
        for s in TriageStatus::ALL {
            for u in [false, true] {
                let _: Result<(), Decline> = with(*s, u, 99, 0);
            }
        }
        assert_eq!(with(Idle, false, 1, 30_000), Err(Decline::Debounce)); // 10
        assert_eq!(with(Idle, false, 3, 0), Ok(())); // 11
        assert_eq!(with(Idle, false, 2, 0), Err(Decline::Debounce)); // 12
        assert_eq!(with(Idle, false, 0, 600_000), Ok(())); // 13
        assert_eq!(with(Idle, false, 0, 599_999), Err(Decline::Debounce)); // 14
        assert_eq!(with(Idle, true, 0, 0), Ok(())); // 15
        assert_eq!(with(Idle, false, 0, 0), Err(Decline::Debounce)); // 16
    }

    /// The age guard's vectors: a young pending attempt, with and without a
    /// continuing Stop.
    #[test]
    fn a_young_pending_attempt_is_left_alone_unless_the_stop_continues_it() {
        let pending = |armed_age_ms, stop_hook_active| {
            entry(EntryInput {
                status: TriageStatus::Pending,
                armed_age_ms,
                stop_hook_active,
                ..base()
            })
        };
        assert_eq!(pending(Some(5_000), false), Err(Decline::PendingFresh));
        assert_eq!(pending(Some(5_000), true), Err(Decline::Pending));
        assert_eq!(pending(None, false), Err(Decline::Pending));
        assert_eq!(pending(Some(30_000), false), Err(Decline::Pending));
    }

    /// A completion's four cases: completed, expired, a late earlier id,
    /// overflow.
    #[test]
    fn a_complete_lands_by_what_arrived_since_the_begin() {
        assert_eq!(completed_status(1, false), TriageStatus::Completed);
        assert_eq!(completed_status(0, false), TriageStatus::Expired);
        assert_eq!(completed_status(2, true), TriageStatus::Overflowed);
    }

    #[test]
    fn the_turn_a_compaction_or_resume_began_is_not_nudged() {
        assert!(quiet_turn(Some("compact")) && quiet_turn(Some("resume")));
        assert!(!quiet_turn(Some("startup")) && !quiet_turn(Some("clear")) && !quiet_turn(None));
    }

    #[test]
    fn the_attempt_log_is_bounded_and_finalizes_by_id() {
        let mut log = Vec::new();
        for n in 0..25 {
            log = log_armed(
                log,
                Attempt {
                    attempt_id: format!("a{n}"),
                    armed_at: n,
                    finalized_at: None,
                    outcome: None,
                },
            );
        }
        assert_eq!(log.len(), ATTEMPT_LOG_MAX);
        assert_eq!(log[0].attempt_id, "a5");
        let log = log_finalized(log, "a24", 99, TriageStatus::Expired);
        assert_eq!(log[19].finalized_at, Some(99));
        assert_eq!(log[19].outcome.as_deref(), Some("expired"));
        assert_eq!(
            log_finalized(log.clone(), "a0", 1, TriageStatus::Completed),
            log
        );
    }
}
