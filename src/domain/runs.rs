//! Agent runs: the lease rules and the derived states of a run
//!. Pure.

use anyhow::{Result, bail};
use serde_json::Value;

use crate::domain::clock::Millis;

/// The bounds of what a hook may hand a run: an agent name, a session id,
/// an excerpt, and the memories a briefing lists.
pub const MAX_AGENT: usize = 64;
pub const MAX_SESSION_ID: usize = 256;
pub const MAX_EXCERPT: usize = 4000;
pub const MAX_BRIEFED: usize = 100;
/// The per-run ceiling of listed events (and of the triage watermark).
pub const MAX_RUN_EVENTS: usize = 500;
pub const DEFAULT_EVENTS_PAGE: u64 = 50;
pub const MAX_EVENTS_PAGE: u64 = 100;

/// A run's state, derived from its times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Live,
    /// Not closed, but silent past the lease: an implicit close.
    Stale,
    /// Closed by `session close` (closed_at within the lease of last_seen).
    ClosedExplicit,
    /// Closed by the sweep, or closed after the lease had run out.
    ClosedImplicit,
}

impl State {
    pub fn as_str(self) -> &'static str {
        match self {
            State::Live => "live",
            State::Stale => "stale",
            State::ClosedExplicit => "closed-explicit",
            State::ClosedImplicit => "closed-implicit",
        }
    }
}

/// A row is explicitly closed iff `closed_at <= last_seen_at + lease`.
pub fn state(closed_at: Option<Millis>, last_seen_at: Millis, now: Millis, lease_ms: i64) -> State {
    match closed_at {
        None if last_seen_at > now - lease_ms => State::Live,
        None => State::Stale,
        Some(c) if c <= last_seen_at + lease_ms => State::ClosedExplicit,
        Some(_) => State::ClosedImplicit,
    }
}

vocabulary!(
    /// How `session open` came: a new conversation (`startup`) or one
    /// carried on (`resume`). A compaction or a `/clear` is not an open.
    Source, "source", "sources" {
        Startup = "startup",
        Resume = "resume",
    }
);

vocabulary!(
    /// What an open, a heartbeat or a close did: `heartbeat` (live, same
    /// parameters: only the lease moved), `resumed` (a resume of a live
    /// run: the lease moved and the epoch went up), `reopened` (a stale or
    /// closed run opened again, epoch + 1), `resurrected` (a heartbeat on a
    /// stale or closed run, epoch + 1).
    Outcome, "outcome", "outcomes" {
        Inserted = "inserted",
        Heartbeat = "heartbeat",
        Resumed = "resumed",
        Reopened = "reopened",
        Resurrected = "resurrected",
        Closed = "closed",
        AlreadyClosed = "already_closed",
    }
);

/// What an open does to the run stored under its key:
/// none stored inserts one; a live run heartbeats on `startup` and resumes
/// (a new activation) on `resume`; a stale or closed run reopens.
pub fn open_outcome(stored: Option<State>, source: Source) -> Outcome {
    match (stored, source) {
        (None, _) => Outcome::Inserted,
        (Some(State::Live), Source::Startup) => Outcome::Heartbeat,
        (Some(State::Live), Source::Resume) => Outcome::Resumed,
        (Some(_), _) => Outcome::Reopened,
    }
}

/// Whether an open must ask for the stored run's own project, scope and
/// selector: a `startup` names the run it means; a `resume` carries on
/// whatever was stored.
pub fn open_checks_params(source: Source) -> bool {
    source == Source::Startup
}

/// What a heartbeat does: moves a live run's lease, or brings a stale or
/// closed one back (a new activation).
pub fn heartbeat_outcome(state: State) -> Outcome {
    match state {
        State::Live => Outcome::Heartbeat,
        _ => Outcome::Resurrected,
    }
}

/// An agent name: kebab-case, 1..64 (`claude-code`, `codex`, ...).
pub fn check_agent(agent: &str) -> Result<String> {
    let a = agent.trim();
    let ok = !a.is_empty()
        && a.len() <= MAX_AGENT
        && a.as_bytes()[0].is_ascii_alphanumeric()
        && a.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    if !ok {
        bail!(
            "agent {a:?} is not a harness name (kebab-case, 1 to {MAX_AGENT} characters: claude-code, codex, ...)"
        );
    }
    // A client's alias (`claude`) is its name (`claude-code`).
    Ok(crate::domain::clients::named(a)
        .map_or(a, |c| c.name)
        .to_string())
}

pub fn check_session_id(id: &str) -> Result<String> {
    let s = id.trim();
    if s.is_empty() || s.chars().count() > MAX_SESSION_ID {
        bail!("session id must be 1 to {MAX_SESSION_ID} characters");
    }
    Ok(s.to_string())
}

/// An excerpt, secrets taken out (before the cut, so no half of one is
/// left), trimmed and cut at a character boundary to `MAX_EXCERPT`.
pub fn excerpt(text: &str) -> String {
    let clean = crate::domain::redact::redact_text(text);
    let t = clean.trim();
    match t.char_indices().nth(MAX_EXCERPT) {
        Some((at, _)) => t[..at].to_string(),
        None => t.to_string(),
    }
}

/// A briefing selector as canonical JSON (sorted keys, no whitespace).
pub fn selector(json: Option<&str>) -> Result<String> {
    let v: Value = match json {
        None => serde_json::json!({"kind": "all"}),
        Some(s) => {
            serde_json::from_str(s).map_err(|e| anyhow::anyhow!("--selector is not JSON: {e}"))?
        }
    };
    if !v.is_object() {
        bail!("--selector must be a JSON object such as {{\"kind\":\"all\"}}");
    }
    Ok(serde_json::to_string(&v)?)
}

/// The memories a briefing showed: at most 100 `{id, topic, status}`.
pub fn briefed(json: &str) -> Result<String> {
    let v: Value =
        serde_json::from_str(json).map_err(|e| anyhow::anyhow!("--briefed is not JSON: {e}"))?;
    let Some(items) = v.as_array() else {
        bail!("--briefed must be a JSON array of {{\"id\", \"topic\", \"status\"}}");
    };
    if items.len() > MAX_BRIEFED {
        bail!(
            "--briefed lists {} memories; the limit is {MAX_BRIEFED}",
            items.len()
        );
    }
    for it in items {
        let field = |k: &str, max: usize| -> Result<()> {
            match it.get(k).and_then(Value::as_str) {
                Some(s) if !s.is_empty() && s.chars().count() <= max => Ok(()),
                _ => {
                    bail!("--briefed: each entry needs \"{k}\", a string of 1 to {max} characters")
                }
            }
        };
        field("id", 64)?;
        field("topic", 256)?;
        field("status", 64)?;
    }
    Ok(serde_json::to_string(&v)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The run's transition table, rows "open source=startup", "open
    /// source=resume" and "heartbeat".
    #[test]
    fn opens_and_heartbeats_by_the_transition_table() {
        use Outcome::*;
        let states = [
            None,
            Some(State::Live),
            Some(State::Stale),
            Some(State::ClosedExplicit),
            Some(State::ClosedImplicit),
        ];
        let startup: Vec<Outcome> = states
            .iter()
            .map(|s| open_outcome(*s, Source::Startup))
            .collect();
        assert_eq!(startup, [Inserted, Heartbeat, Reopened, Reopened, Reopened]);
        let resume: Vec<Outcome> = states
            .iter()
            .map(|s| open_outcome(*s, Source::Resume))
            .collect();
        assert_eq!(resume, [Inserted, Resumed, Reopened, Reopened, Reopened]);
        let beats: Vec<Outcome> = states[1..]
            .iter()
            .map(|s| heartbeat_outcome(s.unwrap()))
            .collect();
        assert_eq!(beats, [Heartbeat, Resurrected, Resurrected, Resurrected]);
        assert!(open_checks_params(Source::Startup) && !open_checks_params(Source::Resume));
    }

    #[test]
    fn states_by_rule_two() {
        let l = 24 * 3_600_000;
        assert_eq!(state(None, 1_000, 1_000 + l - 1, l), State::Live);
        assert_eq!(state(None, 1_000, 1_000 + l, l), State::Stale);
        assert_eq!(state(Some(1_000 + l), 1_000, 0, l), State::ClosedExplicit);
        assert_eq!(
            state(Some(1_000 + l + 1), 1_000, 0, l),
            State::ClosedImplicit
        );
    }

    #[test]
    fn inputs() {
        assert_eq!(check_agent("claude").unwrap(), "claude-code");
        assert_eq!(check_agent("codex").unwrap(), "codex");
        assert!(
            check_agent("Codex").is_err()
                && check_agent("-x").is_err()
                && check_agent(&"a".repeat(65)).is_err()
        );
        assert_eq!(
            excerpt(&format!("  {}  ", "é".repeat(4001)))
                .chars()
                .count(),
            4000
        );
        assert_eq!(
            selector(Some(r#"{ "b": 1, "kind": "scope" }"#)).unwrap(),
            r#"{"b":1,"kind":"scope"}"#
        );
        assert!(selector(Some("[1]")).is_err());
        assert!(briefed(r#"[{"id":"m","topic":"t","status":"open"}]"#).is_ok());
        assert!(briefed(r#"[{"id":"m"}]"#).is_err());
    }
}
