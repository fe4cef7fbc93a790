use super::payloads::{DOCTOR_SESSION, payload};
use super::rules::accepts;
use super::*;

#[test]
fn output_rules_per_client() {
    let ctx = r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"x"}}"#;
    assert_eq!(
        accepts(Harness::ClaudeCode, "SessionStart", ctx, ""),
        Ok(())
    );
    assert_eq!(accepts(Harness::Codex, "SessionStart", ctx, ""), Ok(()));
    assert!(accepts(Harness::ClaudeCode, "Stop", ctx, "").is_err());
    let pre = r#"{"hookSpecificOutput":{"hookEventName":"PreCompact","additionalContext":"x"}}"#;
    assert!(accepts(Harness::ClaudeCode, "PreCompact", pre, "").is_err());
    assert!(accepts(Harness::ClaudeCode, "PreCompact", "compact nicely", "").is_err());
    let block = r#"{"decision":"block","reason":"r"}"#;
    assert_eq!(accepts(Harness::Codex, "Stop", block, ""), Ok(()));
    assert!(
        accepts(
            Harness::Codex,
            "Stop",
            r#"{"decision":"block","reason":"r","x":1}"#,
            ""
        )
        .is_err()
    );
    assert!(accepts(Harness::Codex, "SessionEnd", "{}", "").is_err());
    assert!(accepts(Harness::Codex, "Stop", "keep going", "").is_err());
    let angle =
        r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"<b>"}}"#;
    assert!(accepts(Harness::Gemini, "SessionStart", angle, "").is_err());
    assert!(accepts(Harness::Gemini, "SessionEnd", "", "oops").is_err());
    assert_eq!(
        accepts(Harness::Cursor, "stop", r#"{"followup_message":"m"}"#, ""),
        Ok(())
    );
    assert!(accepts(Harness::Cursor, "sessionStart", "{}", "").is_err());
    let long = format!(
        r#"{{"hookSpecificOutput":{{"hookEventName":"SessionStart","additionalContext":"{}"}}}}"#,
        "é".repeat(10_001)
    );
    assert!(accepts(Harness::ClaudeCode, "SessionStart", &long, "").is_err());
}

#[test]
fn payloads_have_each_client_s_shape() {
    let cwd = Path::new("/p");
    let cx = payload(Harness::Codex, "SessionStart", cwd);
    assert_eq!(cx["permission_mode"], "default");
    assert!(cx.get("turn_id").is_none());
    let cx = payload(Harness::Codex, "Stop", cwd);
    assert!(cx["turn_id"].is_string());
    let cc = payload(Harness::ClaudeCode, "SessionStart", cwd);
    assert!(cc.get("permission_mode").is_none());
    let gm = payload(Harness::Gemini, "AfterAgent", cwd);
    assert_eq!(gm["prompt_response"], "done");
    let cu = payload(Harness::Cursor, "stop", cwd);
    assert_eq!(cu["workspace_roots"][0], "/p");
    let co = payload(Harness::Copilot, "agentStop", cwd);
    assert_eq!(co["sessionId"], DOCTOR_SESSION);
}
