//! The turn-end nudge: at most one debrief
//! prompt per triage attempt, whatever loop guard the harness has. The
//! pending state is the cap: a Stop that finds its attempt pending
//! finalizes it (or, when the attempt is younger than the age guard and the
//! Stop is not a continuation, leaves it alone), never injects again.

use anyhow::Result;

use crate::domain::clock::Millis;
use crate::domain::debrief;
use crate::domain::harness::Harness;
use crate::domain::triage::Decline;
use crate::store::Store;

/// What a Stop's handshake did, for tests and logs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Handshake {
    /// No run for this conversation (Stop never creates one).
    NoRun,
    /// The begin declined; with `finalized` when it completed a pending attempt.
    Declined { reason: Decline, finalized: bool },
    /// A continuation Stop (a loop guard was set): finalized, never injects.
    Finalized,
    /// Armed, but no prompt could be rendered: completed at once (expired).
    RenderFailed,
    /// Armed: inject this prompt.
    Inject(String),
}

/// Runs the handshake for one Stop: begin, then complete a pending attempt
/// it names, or render the prompt for a newly armed one.
pub fn handshake(
    store: &mut Store,
    agent: &str,
    session_id: &str,
    stop_hook_active: bool,
    max_bytes: usize,
    now: Millis,
    lease_ms: i64,
) -> Result<Handshake> {
    let Some(begun) = store.triage_begin(agent, session_id, stop_hook_active, now, lease_ms)?
    else {
        return Ok(Handshake::NoRun);
    };
    // Another Stop may have finalized the attempt first (`NotPending`):
    // nothing is left to do then.
    let complete = |store: &mut Store, attempt: &str| -> Result<()> {
        store.triage_complete(agent, session_id, attempt, now)?;
        Ok(())
    };
    if !begun.armed {
        let reason = begun.reason.unwrap_or(Decline::NoSignal);
        let finalized = match (&begun.attempt_id, reason) {
            (Some(a), Decline::Pending) => {
                complete(store, a)?;
                true
            }
            _ => false,
        };
        return Ok(Handshake::Declined { reason, finalized });
    }
    let attempt = begun.attempt_id.expect("an armed attempt has an id");
    if stop_hook_active {
        complete(store, &attempt)?;
        return Ok(Handshake::Finalized);
    }
    let prompt = store
        .debrief_facets(agent, session_id)
        .ok()
        .and_then(|f| debrief::render(&f, max_bytes))
        .filter(|p| !p.trim().is_empty());
    if let Some(p) = prompt {
        Ok(Handshake::Inject(p))
    } else {
        complete(store, &attempt)?;
        Ok(Handshake::RenderFailed)
    }
}

/// The one stdout line that makes `harness` continue the turn with
/// `prompt`, in the shape its output schema accepts. Codex's schema rejects any key beyond its
/// own, so it gets exactly `decision` and `reason`.
pub fn stop_envelope(harness: Harness, prompt: &str) -> String {
    (harness.answers.stop)(prompt)
}

/// Whether a Stop payload says the turn is already a continuation:
/// `stop_hook_active` (Claude Code, Codex, Gemini, Copilot), or Cursor's
/// `loop_count` above zero.
pub fn continuing(payload: &serde_json::Value) -> bool {
    payload
        .get("stop_hook_active")
        .and_then(serde_json::Value::as_bool)
        == Some(true)
        || payload
            .get("stopHookActive")
            .and_then(serde_json::Value::as_bool)
            == Some(true)
        || payload
            .get("loop_count")
            .and_then(serde_json::Value::as_u64)
            .is_some_and(|n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Each envelope parses back to exactly the keys its client accepts.
    #[test]
    fn envelopes_carry_exactly_the_keys_each_client_accepts() {
        let keys = |h| {
            let v: serde_json::Value = serde_json::from_str(&stop_envelope(h, "P")).unwrap();
            let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
            k.sort();
            (k, v)
        };
        let (k, v) = keys(Harness::named("claude-code").unwrap());
        assert_eq!(k, ["decision", "reason", "systemMessage"]);
        assert_eq!(
            (v["decision"].as_str(), v["reason"].as_str()),
            (Some("block"), Some("P"))
        );
        let (k, v) = keys(Harness::named("codex").unwrap());
        assert_eq!(k, ["decision", "reason"]);
        assert_eq!(v["decision"], "block");
        let (k, v) = keys(Harness::named("copilot").unwrap());
        assert_eq!(
            (k, v["decision"].as_str()),
            (
                vec!["decision".to_string(), "reason".to_string()],
                Some("block")
            )
        );
        let (k, v) = keys(Harness::named("gemini").unwrap());
        assert_eq!(
            (k, v["decision"].as_str()),
            (
                vec!["decision".to_string(), "reason".to_string()],
                Some("deny")
            )
        );
        let (k, v) = keys(Harness::named("cursor").unwrap());
        assert_eq!(
            (k, v["followup_message"].as_str()),
            (vec!["followup_message".to_string()], Some("P"))
        );
    }

    #[test]
    fn loop_guards_are_read_from_every_dialect() {
        assert!(continuing(&json!({"stop_hook_active": true})));
        assert!(!continuing(&json!({"stop_hook_active": false})));
        assert!(continuing(&json!({"loop_count": 1})));
        assert!(!continuing(&json!({"loop_count": 0})));
        assert!(continuing(&json!({"stopHookActive": true})));
        assert!(!continuing(&json!({})));
    }
}
