//! The payload each client sends its hooks, per event: what `doctor`
//! feeds a registered command on stdin.

use crate::domain::harness::Harness;
use serde_json::{Value, json};
use std::path::Path;

pub(super) const DOCTOR_SESSION: &str = "00000000-d0c7-4000-8000-000000000001";

/// The payload `h` sends for `event`, in the shape the captured payloads
/// have.
pub fn payload(h: Harness, event: &str, cwd: &Path) -> Value {
    let cwd = cwd.display().to_string();
    match h {
        Harness::Cursor => cursor(event, &cwd),
        Harness::Copilot => copilot(event, &cwd),
        Harness::ClaudeCode | Harness::Codex | Harness::Gemini => claude_like(h, event, &cwd),
    }
}

fn cursor(event: &str, cwd: &str) -> Value {
    let mut p = json!({"hook_event_name": event, "conversation_id": DOCTOR_SESSION,
        "generation_id": "doctor-gen-1", "workspace_roots": [cwd]});
    match event {
        "stop" => {
            p["status"] = "completed".into();
            p["loop_count"] = 0.into();
        }
        "beforeSubmitPrompt" => p["prompt"] = "doctor check".into(),
        "sessionEnd" => p["reason"] = "completed".into(),
        _ => {}
    }
    p
}

fn copilot(event: &str, cwd: &str) -> Value {
    let mut p = json!({"hookEventName": event, "sessionId": DOCTOR_SESSION, "cwd": cwd,
        "timestamp": 1_796_300_000_000_i64, "transcriptPath": Value::Null});
    match event {
        "sessionStart" => p["source"] = "new".into(),
        "userPromptSubmitted" => p["prompt"] = "doctor check".into(),
        _ => {}
    }
    p
}

/// Claude Code's payload shape, which Codex and Gemini CLI share.
fn claude_like(h: Harness, event: &str, cwd: &str) -> Value {
    let transcript = format!("{cwd}/doctor-transcript.jsonl");
    let mut p = json!({"session_id": DOCTOR_SESSION, "transcript_path": transcript,
        "cwd": cwd, "hook_event_name": event});
    if h == Harness::Gemini {
        p["timestamp"] = "2026-12-03T00:00:00.000Z".into();
    }
    if let (Some(p), Some(extra)) = (p.as_object_mut(), extra(h, event).as_object()) {
        p.extend(extra.clone());
    }
    if h == Harness::Codex && event != "SessionStart" && event != "SessionEnd" {
        p["turn_id"] = "00000000-d0c7-4000-8000-0000000000aa".into();
        p["model"] = "gpt-5".into();
    }
    if h == Harness::ClaudeCode
        && event == "SessionStart"
        && let Some(o) = p.as_object_mut()
    {
        // Claude Code never sends permission_mode there.
        o.remove("permission_mode");
    }
    p
}

/// The fields an event of `h` carries besides the common ones.
fn extra(h: Harness, event: &str) -> Value {
    match (h, event) {
        (Harness::Gemini, "SessionStart") => json!({"source": "startup"}),
        (Harness::Gemini, "BeforeAgent") => json!({"prompt": "doctor check"}),
        (Harness::Gemini, "AfterAgent") => json!({"prompt": "doctor check",
            "prompt_response": "done", "stop_hook_active": false}),
        (Harness::Gemini, "SessionEnd") => json!({"reason": "exit"}),
        (Harness::Gemini, _) => json!({}),
        (Harness::Codex, "SessionStart") => json!({"model": "gpt-5",
            "permission_mode": "default", "source": "startup"}),
        (Harness::Codex, "SessionEnd") => json!({"reason": "other"}),
        (_, "SessionStart") => json!({"source": "startup"}),
        (_, "SessionEnd") => json!({"reason": "other"}),
        (_, "UserPromptSubmit") => {
            json!({"permission_mode": "default", "prompt": "doctor check"})
        }
        (_, "Stop") => json!({"permission_mode": "default", "stop_hook_active": false,
            "last_assistant_message": "done"}),
        (_, "StopFailure") => json!({"error": "unknown",
            "last_assistant_message": "API Error: doctor"}),
        (_, "SubagentStart") => {
            json!({"agent_id": "a0d0c70000000001", "agent_type": "general-purpose"})
        }
        (_, "SubagentStop") => json!({"agent_id": "a0d0c70000000001",
            "agent_type": "general-purpose", "stop_hook_active": false,
            "agent_transcript_path": Value::Null, "last_assistant_message": "sub done"}),
        (_, "PreCompact") => json!({"trigger": "manual", "custom_instructions": Value::Null}),
        (_, "PostCompact") => json!({"trigger": "manual", "compact_summary": "summary"}),
        _ => json!({}),
    }
}
