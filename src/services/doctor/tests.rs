use super::payloads::payload;
use super::rules::accepts;
use super::*;
use crate::domain::harness::DOCTOR_SESSION;

#[test]
fn output_rules_per_client() {
    let ctx = r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"x"}}"#;
    assert_eq!(
        accepts(
            Harness::named("claude-code").unwrap(),
            "SessionStart",
            ctx,
            ""
        ),
        Ok(())
    );
    assert_eq!(
        accepts(Harness::named("codex").unwrap(), "SessionStart", ctx, ""),
        Ok(())
    );
    assert!(accepts(Harness::named("claude-code").unwrap(), "Stop", ctx, "").is_err());
    let pre = r#"{"hookSpecificOutput":{"hookEventName":"PreCompact","additionalContext":"x"}}"#;
    assert!(
        accepts(
            Harness::named("claude-code").unwrap(),
            "PreCompact",
            pre,
            ""
        )
        .is_err()
    );
    assert!(
        accepts(
            Harness::named("claude-code").unwrap(),
            "PreCompact",
            "compact nicely",
            ""
        )
        .is_err()
    );
    let block = r#"{"decision":"block","reason":"r"}"#;
    assert_eq!(
        accepts(Harness::named("codex").unwrap(), "Stop", block, ""),
        Ok(())
    );
    assert!(
        accepts(
            Harness::named("codex").unwrap(),
            "Stop",
            r#"{"decision":"block","reason":"r","x":1}"#,
            ""
        )
        .is_err()
    );
    assert!(accepts(Harness::named("codex").unwrap(), "SessionEnd", "{}", "").is_err());
    assert!(accepts(Harness::named("codex").unwrap(), "Stop", "keep going", "").is_err());
    let angle =
        r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"<b>"}}"#;
    assert!(accepts(Harness::named("gemini").unwrap(), "SessionStart", angle, "").is_err());
    assert!(accepts(Harness::named("gemini").unwrap(), "SessionEnd", "", "oops").is_err());
    assert_eq!(
        accepts(
            Harness::named("cursor").unwrap(),
            "stop",
            r#"{"followup_message":"m"}"#,
            ""
        ),
        Ok(())
    );
    assert!(accepts(Harness::named("cursor").unwrap(), "sessionStart", "{}", "").is_err());
    let long = format!(
        r#"{{"hookSpecificOutput":{{"hookEventName":"SessionStart","additionalContext":"{}"}}}}"#,
        "é".repeat(10_001)
    );
    assert!(
        accepts(
            Harness::named("claude-code").unwrap(),
            "SessionStart",
            &long,
            ""
        )
        .is_err()
    );
}

#[test]
fn payloads_have_each_client_s_shape() {
    let cwd = Path::new("/p");
    let cx = payload(Harness::named("codex").unwrap(), "SessionStart", cwd);
    assert_eq!(cx["permission_mode"], "default");
    assert!(cx.get("turn_id").is_none());
    let cx = payload(Harness::named("codex").unwrap(), "Stop", cwd);
    assert!(cx["turn_id"].is_string());
    let cc = payload(Harness::named("claude-code").unwrap(), "SessionStart", cwd);
    assert!(cc.get("permission_mode").is_none());
    let gm = payload(Harness::named("gemini").unwrap(), "AfterAgent", cwd);
    assert_eq!(gm["prompt_response"], "done");
    let cu = payload(Harness::named("cursor").unwrap(), "stop", cwd);
    assert_eq!(cu["workspace_roots"][0], "/p");
    let co = payload(Harness::named("copilot").unwrap(), "agentStop", cwd);
    assert_eq!(co["sessionId"], DOCTOR_SESSION);
}
