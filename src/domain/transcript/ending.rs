//! How a transcript ends: an agent whose last message record is an API error
//! message stopped on a failure; one whose last record is a user interrupt
//! stopped because the user said so (not an error). Only that one line is
//! read again, so this costs nothing per record.

use serde::Deserialize;
use serde_json::Value;

/// A transcript's telling last record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Ending {
    /// An assistant record with `isApiErrorMessage: true` (Claude Code writes
    /// one when it gives up on the API: "API Error: ...", a usage limit).
    ApiError,
    /// A user record whose text is `[Request interrupted by user...]`.
    Interrupt,
    /// The turn ended: an assistant record that stopped with its answer
    /// (`stop_reason: end_turn`), a Codex turn's `task_complete`.
    TurnEnd,
}

#[derive(Deserialize)]
struct Line {
    #[serde(rename = "type")]
    kind: Option<String>,
    #[serde(rename = "isApiErrorMessage")]
    api_error: Option<bool>,
    message: Option<Message>,
}

#[derive(Deserialize)]
struct Message {
    content: Option<Value>,
    stop_reason: Option<String>,
}

const INTERRUPT: &str = "[Request interrupted by user";

/// The ending a last message record states, if any.
pub fn classify(line: &[u8]) -> Option<Ending> {
    let l: Line = serde_json::from_slice(line).ok()?;
    match l.kind.as_deref()? {
        "assistant" if l.api_error == Some(true) => Some(Ending::ApiError),
        "assistant" => {
            let stop = l.message?.stop_reason;
            matches!(stop.as_deref(), Some("end_turn" | "stop_sequence")).then_some(Ending::TurnEnd)
        }
        "user" => {
            let content = l.message?.content?;
            let interrupted = match &content {
                Value::String(s) => s.starts_with(INTERRUPT),
                Value::Array(blocks) => blocks.iter().any(|b| {
                    b.get("type").and_then(Value::as_str) == Some("text")
                        && b.get("text")
                            .and_then(Value::as_str)
                            .is_some_and(|t| t.starts_with(INTERRUPT))
                }),
                _ => false,
            };
            interrupted.then_some(Ending::Interrupt)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_and_interrupts() {
        let api = br#"{"type":"assistant","isApiErrorMessage":true,"message":{"model":"<synthetic>","content":[{"type":"text","text":"API Error: 529"}]}}"#;
        assert_eq!(classify(api), Some(Ending::ApiError));
        let normal = br#"{"type":"assistant","isApiErrorMessage":false,"message":{"content":[]}}"#;
        assert_eq!(classify(normal), None);
        let s = br#"{"type":"user","message":{"role":"user","content":"[Request interrupted by user]"}}"#;
        assert_eq!(classify(s), Some(Ending::Interrupt));
        let blocks = br#"{"type":"user","message":{"content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}"#;
        assert_eq!(classify(blocks), Some(Ending::Interrupt));
        let prose = br#"{"type":"user","message":{"content":"why was the [Request interrupted by user] shown?"}}"#;
        assert_eq!(classify(prose), None);
        assert_eq!(classify(b"not json"), None);
    }
}
