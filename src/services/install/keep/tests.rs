use super::*;

fn cut(text: &str, h: Harness) -> Option<String> {
    let mut after = Json::parse(text).unwrap();
    edit::uninstall(&mut after, h).unwrap();
    uninstall_text(text, h, &after)
}

const OURS: &str = r#"{"type": "command", "command": "sessionkit hook event --harness claude-code", "timeout": 10}"#;

/// Spacing, escapes, key order, a repeated key and the missing final
/// newline all stay; only sessionkit's handlers and what they alone filled
/// go, with their commas.
#[test]
fn only_sessionkit_leaves_a_claude_code_file() {
    let text = format!(
        "{{\n    \"model\" :\"opus\",\n  \"env\": {{\"A\": \"caf\\u00e9\", \"A\": \"x\"}},\n  \"hooks\": {{\n    \"Stop\": [\n      {{\"hooks\": [{OURS}]}}\n    ],\n    \"PreToolUse\": [\n      {{\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {OURS},\n          {{\"type\": \"command\", \"command\": \"./lint.sh\"}}\n        ]\n      }},\n      {{\"matcher\": \"*\", \"hooks\": [{OURS}]}}\n    ],\n    \"Empty\": []\n  }},\n  \"theme\": \"dark\"\n}}"
    );
    let want = "{\n    \"model\" :\"opus\",\n  \"env\": {\"A\": \"caf\\u00e9\", \"A\": \"x\"},\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"./lint.sh\"}\n        ]\n      }\n    ],\n    \"Empty\": []\n  },\n  \"theme\": \"dark\"\n}";
    assert_eq!(
        cut(&text, Harness::named("claude-code").unwrap()).as_deref(),
        Some(want)
    );
}

/// When sessionkit filled all of `hooks`, the member goes with its comma.
#[test]
fn a_hooks_object_sessionkit_filled_goes_whole() {
    let text = format!(
        "{{\"a\": 1,\n \"hooks\": {{\"Stop\": [{{\"hooks\": [{OURS}]}}]}},\n \"b\": [1,2]}}\n"
    );
    assert_eq!(
        cut(&text, Harness::named("claude-code").unwrap()).as_deref(),
        Some("{\"a\": 1,\n \"b\": [1,2]}\n")
    );
    let last = format!("{{\"a\": 1,\n \"hooks\": {{\"Stop\": [{{\"hooks\": [{OURS}]}}]}}\n}}");
    assert_eq!(
        cut(&last, Harness::named("claude-code").unwrap()).as_deref(),
        Some("{\"a\": 1\n}")
    );
    let only = format!("  {{\"hooks\": {{\"Stop\": [{{\"hooks\": [{OURS}]}}]}}}}\n");
    assert_eq!(
        cut(&only, Harness::named("claude-code").unwrap()).as_deref(),
        Some("  {}\n")
    );
}

/// The flat layout (Copilot CLI): each array item is a handler.
#[test]
fn the_flat_layout_loses_only_its_handlers() {
    let ours = r#"{"type": "command", "bash": "sessionkit hook event --harness copilot", "timeoutSec": 10}"#;
    let text = format!(
        "{{\"version\": 1, \"hooks\": {{\"sessionStart\": [\n  {ours},\n  {{\"type\": \"command\", \"bash\": \"echo hi\"}}\n], \"sessionEnd\": [{ours}]}}}}"
    );
    assert_eq!(
        cut(&text, Harness::named("copilot").unwrap()).as_deref(),
        Some(
            "{\"version\": 1, \"hooks\": {\"sessionStart\": [\n  {\"type\": \"command\", \"bash\": \"echo hi\"}\n]}}"
        )
    );
}

/// A handler another harness installed, and one written by hand, stay.
#[test]
fn other_handlers_stay() {
    let hand = r#"{"type": "command", "command": "sessionkit hook event"}"#;
    let codex = r#"{"type": "command", "command": "sessionkit hook event --harness codex"}"#;
    let text = format!("{{\"hooks\": {{\"Stop\": [{{\"hooks\": [{hand}, {OURS}, {codex}]}}]}}}}");
    assert_eq!(
        cut(&text, Harness::named("claude-code").unwrap()),
        Some(format!(
            "{{\"hooks\": {{\"Stop\": [{{\"hooks\": [{hand}, {codex}]}}]}}}}"
        ))
    );
}
