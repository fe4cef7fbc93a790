//! Agent status as evidence with a time: the one rule
//! that decides whether new evidence replaces what is stored, used by ingest,
//! by every hook and by the watchdog.
//!
//! - An *observed terminal* (the spawning call's `tool_result`, a
//!   `SubagentStop` hook) is sticky: nothing replaces it.
//! - An observed terminal replaces any inferred state, whatever their times:
//!   a subagent's last transcript line may carry a later clock than the hook
//!   that saw it stop, and it still stopped.
//! - Every other state is inferred (transcript activity, a transcript that ends
//!   in a failure or an interrupt, a `Stop` hook, the watchdog's `unknown`) and
//!   yields only to strictly newer evidence, so an unchanged replay changes
//!   nothing and a `Stop` is not undone by older transcript lines read later.

use crate::domain::clock::Millis;

/// What an agent is doing, as far as the evidence says.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Working,
    Waiting,
    Completed,
    Error,
    Unknown,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::Working,
        Status::Waiting,
        Status::Completed,
        Status::Error,
        Status::Unknown,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Working => "working",
            Status::Waiting => "waiting",
            Status::Completed => "completed",
            Status::Error => "error",
            Status::Unknown => "unknown",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// Working or waiting: what `status` lists by default and the watchdog watches.
    pub fn is_live(self) -> bool {
        matches!(self, Status::Working | Status::Waiting)
    }
}

/// What set a status (stored as `agents.outcome_cause`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// Transcript records: the agent was active at its last record.
    Transcript,
    /// The agent's last transcript record is an API error message.
    ApiError,
    /// The main agent's last transcript record is a user interrupt.
    UserInterrupt,
    /// The spawning call's `tool_result` in the parent transcript.
    ToolResult,
    /// The spawning call's `tool_result` is an error.
    ToolResultError,
    /// A `SubagentStop` hook.
    SubagentStop,
    /// A `Stop` hook (or a harness's equivalent).
    StopHook,
    /// A `StopFailure` hook: the turn ended on an API error.
    StopFailure,
    /// A prompt was submitted (`UserPromptSubmit` and equivalents).
    PromptSubmit,
    /// A tool ran (`PreToolUse`, `PostToolUse`), or a subagent started.
    ToolHook,
    /// `SessionStart`.
    SessionStart,
    /// `SessionEnd`.
    SessionEnd,
    /// The watchdog: no evidence within the window.
    Watchdog,
    /// A background agent's `<task-notification>` in its parent's transcript.
    TaskNotification,
    /// A background agent's sidecar says `finished: true`.
    SidecarFinished,
    /// A subagent's own transcript says its task is done (a Codex thread's
    /// `task_complete`, a Gemini CLI subagent's `complete_task` call).
    TaskComplete,
    /// The main agent's transcript ends with a turn that ended (an answer
    /// with nothing left to run, a Codex turn's `task_complete`).
    TurnEnd,
    /// The client process that sent the session's hooks is gone from this
    /// machine.
    ClientGone,
}

impl Cause {
    const ALL: [Cause; 18] = [
        Cause::Transcript,
        Cause::ApiError,
        Cause::UserInterrupt,
        Cause::ToolResult,
        Cause::ToolResultError,
        Cause::SubagentStop,
        Cause::StopHook,
        Cause::StopFailure,
        Cause::PromptSubmit,
        Cause::ToolHook,
        Cause::SessionStart,
        Cause::SessionEnd,
        Cause::Watchdog,
        Cause::TaskNotification,
        Cause::SidecarFinished,
        Cause::TaskComplete,
        Cause::TurnEnd,
        Cause::ClientGone,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Cause::Transcript => "transcript",
            Cause::ApiError => "api_error",
            Cause::UserInterrupt => "user_interrupt",
            Cause::ToolResult => "tool_result",
            Cause::ToolResultError => "tool_result_error",
            Cause::SubagentStop => "subagent_stop",
            Cause::StopHook => "stop_hook",
            Cause::StopFailure => "stop_failure",
            Cause::PromptSubmit => "prompt_submit",
            Cause::ToolHook => "tool_hook",
            Cause::SessionStart => "session_start",
            Cause::SessionEnd => "session_end",
            Cause::Watchdog => "watchdog",
            Cause::TaskNotification => "task_notification",
            Cause::SidecarFinished => "sidecar_finished",
            Cause::TaskComplete => "task_complete",
            Cause::TurnEnd => "turn_end",
            Cause::ClientGone => "client_gone",
        }
    }

    /// A stored cause; an absent or unrecognised one (older rows) counts as
    /// transcript activity, the weakest evidence.
    pub fn parse(s: Option<&str>) -> Cause {
        s.and_then(|s| Cause::ALL.into_iter().find(|c| c.as_str() == s))
            .unwrap_or(Cause::Transcript)
    }

    /// Whether this cause, setting a terminal status, was observed rather
    /// than inferred.
    fn observes_terminal(self) -> bool {
        matches!(
            self,
            Cause::ToolResult
                | Cause::ToolResultError
                | Cause::SubagentStop
                | Cause::TaskNotification
                | Cause::SidecarFinished
        )
    }
}

/// A status with the time of the evidence that set it and what that was.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evidence {
    pub status: Status,
    pub at: Option<Millis>,
    pub cause: Cause,
}

impl Evidence {
    pub fn new(status: Status, at: Option<Millis>, cause: Cause) -> Evidence {
        Evidence { status, at, cause }
    }

    /// An observed terminal: sticky.
    pub fn is_observed_terminal(&self) -> bool {
        matches!(self.status, Status::Completed | Status::Error) && self.cause.observes_terminal()
    }
}

/// Whether `new` replaces `current`.
pub fn replaces(current: Option<&Evidence>, new: &Evidence) -> bool {
    let Some(cur) = current else {
        return true;
    };
    if cur.is_observed_terminal() {
        return false;
    }
    if new.is_observed_terminal() {
        return true;
    }
    // A turn that failed (a StopFailure hook, or a transcript that ends on
    // the API's error) and a session that then ended: it ended in error,
    // not completed, whichever of the two was read first.
    let failed = |e: &Evidence| {
        e.status == Status::Error && matches!(e.cause, Cause::StopFailure | Cause::ApiError)
    };
    let ended = |e: &Evidence| e.status == Status::Completed && e.cause == Cause::SessionEnd;
    if failed(cur) && ended(new) {
        return false;
    }
    if ended(cur) && failed(new) {
        return true;
    }
    match (cur.at, new.at) {
        (None, _) => true,
        (Some(c), Some(n)) => n > c,
        (Some(_), None) => false,
    }
}

/// The status an agent is written with: what its files say, unless the
/// stored status outranks it, then each later piece of evidence (hook
/// events stored before ingest created the agent, oldest first) by the
/// same rule.
pub fn settle(files: Evidence, stored: Option<&Evidence>, later: &[Evidence]) -> Evidence {
    let mut status = match stored {
        Some(cur) if !replaces(Some(cur), &files) => *cur,
        _ => files,
    };
    for ev in later {
        if replaces(Some(&status), ev) {
            status = *ev;
        }
    }
    status
}

/// The time of an agent's last evidence: the later of its status time and
/// its last record.
pub fn last_evidence(status_at: Option<Millis>, last_seen: Option<Millis>) -> Option<Millis> {
    match (status_at, last_seen) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    }
}

/// The watchdog's verdict: a live status whose last evidence is older than
/// `window_ms` before `now` (strictly: exactly at the window it stays) is
/// settled as of that evidence (the later of the status time and the last
/// record), so replaying the same transcript does not revive it: `waiting`
/// (its last turn ended; nobody came back) becomes `completed`, `working`
/// (nothing says it stopped) `unknown`. Evidence with no time at all is
/// older than any window.
pub fn watchdog(
    cur: &Evidence,
    last_seen: Option<Millis>,
    now: Millis,
    window_ms: i64,
) -> Option<Evidence> {
    if !cur.status.is_live() {
        return None;
    }
    let anchor = last_evidence(cur.at, last_seen);
    let stale = anchor.is_none_or(|t| now.saturating_sub(t) > window_ms);
    let settled = match cur.status {
        Status::Waiting => Status::Completed,
        _ => Status::Unknown,
    };
    stale.then(|| Evidence::new(settled, anchor, Cause::Watchdog))
}

/// The end of a live agent whose client is gone: a turn that had ended
/// (waiting) completed the session, one in flight (working) is unknown;
/// dated at its last evidence.
pub fn client_gone(cur: &Evidence, last_seen: Option<Millis>) -> Option<Evidence> {
    if !cur.status.is_live() {
        return None;
    }
    let settled = match cur.status {
        Status::Waiting => Status::Completed,
        _ => Status::Unknown,
    };
    Some(Evidence::new(
        settled,
        last_evidence(cur.at, last_seen),
        Cause::ClientGone,
    ))
}

/// A stored status as reports show it: the watchdog's verdict when its rule
/// already holds at `now` (the last evidence is older than the window),
/// whether or not a sweep has run since, so months of history never show
/// as working. An unparsable status is shown as stored.
pub fn shown(
    status: &str,
    at: Option<Millis>,
    last_seen: Option<Millis>,
    now: Millis,
    window_ms: i64,
) -> &str {
    match Status::parse(status) {
        Some(st) => {
            let cur = Evidence::new(st, at, Cause::Transcript);
            match watchdog(&cur, last_seen, now, window_ms) {
                Some(settled) => settled.status.as_str(),
                None => status,
            }
        }
        None => status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At ingest: the files' word, unless the stored status
    /// outranks it, then the hook events stored before the agent existed.
    #[test]
    fn an_agent_is_written_with_the_strongest_evidence_in_order() {
        let working = Evidence::new(Status::Working, Some(100), Cause::Transcript);
        let done = Evidence::new(Status::Completed, Some(50), Cause::ToolResult);
        let waiting = Evidence::new(Status::Waiting, Some(200), Cause::StopHook);
        assert_eq!(settle(working, None, &[]), working);
        // An observed terminal stored earlier is sticky.
        assert_eq!(settle(working, Some(&done), &[waiting]), done);
        // Later hook evidence moves a working agent on; older evidence does not.
        let old = Evidence::new(Status::Waiting, Some(10), Cause::StopHook);
        assert_eq!(settle(working, None, &[old, waiting]), waiting);
        assert_eq!(settle(working, None, &[old]), working);
    }

    /// A session whose last turn failed and which then ended ended in
    /// error, in either order of reading: the hook's SessionEnd after the
    /// transcript's API error, or the transcript read after it.
    #[test]
    fn a_failed_last_turn_outlasts_the_session_end() {
        let api = Evidence::new(Status::Error, Some(100), Cause::ApiError);
        let hook = Evidence::new(Status::Error, Some(100), Cause::StopFailure);
        let end = Evidence::new(Status::Completed, Some(200), Cause::SessionEnd);
        let start = Evidence::new(Status::Waiting, Some(10), Cause::SessionStart);
        for failed in [api, hook] {
            assert_eq!(settle(failed, None, &[start, end]), failed);
            assert_eq!(settle(failed, Some(&end), &[]), failed);
            assert!(!replaces(Some(&failed), &end));
            assert!(replaces(Some(&end), &failed));
        }
        // A turn that went well after a failed one ends completed.
        let stop = Evidence::new(Status::Waiting, Some(150), Cause::StopHook);
        assert_eq!(settle(hook, None, &[stop, end]), end);
    }

    /// The JSON names (the typed records' contract) are the stored names.
    #[test]
    fn json_names_are_the_stored_names() {
        for v in Status::ALL {
            assert_eq!(serde_json::to_value(v).unwrap(), v.as_str());
        }
        for c in Cause::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), c.as_str());
        }
    }

    fn ev(status: Status, at: i64, cause: Cause) -> Evidence {
        Evidence::new(status, Some(at), cause)
    }

    /// Every inferred way to reach each status, and every observed one.
    fn inferred(status: Status, at: i64) -> Evidence {
        let cause = match status {
            Status::Working => Cause::Transcript,
            Status::Waiting => Cause::StopHook,
            Status::Completed => Cause::SessionEnd,
            Status::Error => Cause::ApiError,
            Status::Unknown => Cause::Watchdog,
        };
        ev(status, at, cause)
    }

    #[test]
    fn the_status_matrix() {
        // current (every status, inferred and observed) × evidence (every
        // status, inferred and observed, older / same time / newer).
        let mut currents: Vec<Evidence> = Status::ALL.iter().map(|&s| inferred(s, 100)).collect();
        currents.push(ev(Status::Completed, 100, Cause::ToolResult));
        currents.push(ev(Status::Completed, 100, Cause::SubagentStop));
        currents.push(ev(Status::Error, 100, Cause::ToolResultError));
        for cur in &currents {
            for &status in &Status::ALL {
                for at in [99, 100, 101] {
                    let new = inferred(status, at);
                    // A failed last turn and the session's end: error,
                    // whichever came first (a_failed_last_turn_outlasts_...).
                    let want = match (cur.cause, new.cause) {
                        (Cause::SessionEnd, Cause::ApiError) => true,
                        (Cause::ApiError, Cause::SessionEnd) => false,
                        _ => !cur.is_observed_terminal() && at > 100,
                    };
                    assert_eq!(replaces(Some(cur), &new), want, "{cur:?} <- {new:?}");
                }
            }
            for new in [
                ev(Status::Completed, 99, Cause::ToolResult),
                ev(Status::Completed, 101, Cause::SubagentStop),
                ev(Status::Error, 50, Cause::ToolResultError),
            ] {
                let want = !cur.is_observed_terminal();
                assert_eq!(replaces(Some(cur), &new), want, "{cur:?} <- {new:?}");
            }
        }
    }

    #[test]
    fn stop_then_an_older_transcript_line_keeps_waiting() {
        let stop = ev(Status::Waiting, 1_000, Cause::StopHook);
        assert!(!replaces(
            Some(&stop),
            &ev(Status::Working, 999, Cause::Transcript)
        ));
        assert!(!replaces(
            Some(&stop),
            &ev(Status::Working, 1_000, Cause::Transcript)
        ));
        assert!(replaces(
            Some(&stop),
            &ev(Status::Working, 1_001, Cause::Transcript)
        ));
    }

    #[test]
    fn times_that_are_missing() {
        let untimed = Evidence::new(Status::Working, None, Cause::Transcript);
        assert!(replaces(
            Some(&untimed),
            &ev(Status::Waiting, 1, Cause::StopHook)
        ));
        assert!(replaces(Some(&untimed), &untimed));
        assert!(!replaces(
            Some(&ev(Status::Waiting, 1, Cause::StopHook)),
            &untimed
        ));
        assert!(replaces(None, &untimed));
    }

    #[test]
    fn shown_status_is_settled_past_the_window() {
        let w = 600_000;
        assert_eq!(shown("working", Some(1_000), None, 1_000 + w, w), "working");
        assert_eq!(shown("working", Some(1_000), None, 1_001 + w, w), "unknown");
        // A turn that ended and nobody came back to: the session is over.
        assert_eq!(
            shown("waiting", None, Some(5), 1_000_000_000, w),
            "completed"
        );
        assert_eq!(
            shown("working", Some(1_000), Some(9_000), 9_000 + w, w),
            "working"
        );
        assert_eq!(
            shown("completed", Some(1), None, 1_000_000_000, w),
            "completed"
        );
        assert_eq!(shown("odd", Some(1), None, 1_000_000_000, w), "odd");
    }

    #[test]
    fn watchdog_boundary_is_strict() {
        let w = 10 * 60_000;
        let cur = ev(Status::Working, 1_000, Cause::Transcript);
        assert_eq!(watchdog(&cur, Some(1_000), 1_000 + w, w), None);
        let gone = watchdog(&cur, Some(1_000), 1_000 + w + 1, w).unwrap();
        assert_eq!(gone, ev(Status::Unknown, 1_000, Cause::Watchdog));
        // The later of the status time and the last record is the anchor.
        assert_eq!(watchdog(&cur, Some(2_000), 1_000 + w + 1, w), None);
        let late = watchdog(&cur, Some(2_000), 2_000 + w + 1, w).unwrap();
        assert_eq!(late, ev(Status::Unknown, 2_000, Cause::Watchdog));
        assert!(!replaces(
            Some(&late),
            &ev(Status::Working, 2_000, Cause::Transcript)
        ));
        for s in [Status::Completed, Status::Error, Status::Unknown] {
            assert_eq!(
                watchdog(&ev(s, 0, Cause::Transcript), None, i64::MAX, w),
                None
            );
        }
        let untimed = Evidence::new(Status::Waiting, None, Cause::StopHook);
        assert!(watchdog(&untimed, None, 0, w).is_some());
    }
}
