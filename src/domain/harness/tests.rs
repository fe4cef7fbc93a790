use super::*;

/// A payload with a lone surrogate is stored, lossily and
/// flagged, not refused; a valid pair and an escaped backslash are kept.
#[test]
fn lone_surrogates_are_replaced_not_refused() {
    let m = parse_input(br#"{"session_id":"s","prompt":"a\ud800b \ud83d\ude00 \\ud800 c\udc00"}"#)
        .unwrap()
        .unwrap();
    assert_eq!(m["prompt"], json!("a\u{fffd}b \u{1f600} \\ud800 c\u{fffd}"));
    assert!(m.contains_key("sessionkit_lossy"));
    let clean = parse_input(br#"{"prompt":"\ud83d\ude00"}"#)
        .unwrap()
        .unwrap();
    assert!(!clean.contains_key("sessionkit_lossy"));
    assert!(matches!(
        parse_input(br#"{"a":\ud800}"#),
        Err(InputError::NotJson(_))
    ));
}
use serde_json::json;

fn obj(v: Value) -> Map<String, Value> {
    let Value::Object(m) = v else {
        panic!("not an object: {v}")
    };
    m
}

fn no_env(_: &str) -> Option<String> {
    None
}

#[test]
fn input_edge_cases() {
    assert_eq!(parse_input(b""), Ok(None));
    assert_eq!(parse_input(b" \n\t"), Ok(None));
    assert_eq!(
        parse_input(b"\xEF\xBB\xBF{\"a\":1}\n").unwrap().unwrap()["a"],
        json!(1)
    );
    assert_eq!(parse_input(b"[1,2]"), Err(InputError::NotObject("array")));
    assert_eq!(parse_input(b"null"), Err(InputError::NotObject("null")));
    assert!(matches!(
        parse_input(b"{\"a\":"),
        Err(InputError::NotJson(_))
    ));
}

#[test]
fn harness_detection_order() {
    let claude = obj(json!({"hook_event_name": "Stop", "session_id": "s"}));
    assert_eq!(
        detect(None, no_env, &claude),
        Harness::named("claude-code").unwrap()
    );
    assert_eq!(
        detect(Some(Harness::named("codex").unwrap()), no_env, &claude),
        Harness::named("codex").unwrap()
    );
    let codex = obj(json!({"hook_event_name": "Stop", "turn_id": "t"}));
    assert_eq!(
        detect(None, no_env, &codex),
        Harness::named("codex").unwrap()
    );
    let env = |k: &str| (k == "CLAUDECODE").then(|| "1".to_string());
    assert_eq!(
        detect(None, env, &codex),
        Harness::named("claude-code").unwrap()
    );
    let gem_env = |k: &str| (k == "GEMINI_SESSION_ID").then(|| "g".to_string());
    assert_eq!(
        detect(None, gem_env, &claude),
        Harness::named("gemini").unwrap()
    );
    let model = obj(json!({"hook_event_name": "Stop", "model": "gpt-5"}));
    assert_eq!(
        detect(None, no_env, &model),
        Harness::named("codex").unwrap()
    );
    let start = obj(json!({"hook_event_name": "SessionStart", "model": "claude-sonnet-5"}));
    assert_eq!(
        detect(None, no_env, &start),
        Harness::named("claude-code").unwrap()
    );
    let rollout = obj(
        json!({"hook_event_name": "SessionStart", "transcript_path": "/h/.codex/sessions/2026/rollout-x.jsonl"}),
    );
    assert_eq!(
        detect(None, no_env, &rollout),
        Harness::named("codex").unwrap()
    );
    // Real Codex 0.171 SessionStart and SessionEnd (captured), with
    // CODEX_HOME elsewhere than ~/.codex: Codex, not Claude Code.
    let cx_start = obj(
        json!({"session_id": "s", "transcript_path": null, "cwd": "/w",
            "hook_event_name": "SessionStart", "model": "gpt-fake", "permission_mode": "bypassPermissions", "source": "startup"}),
    );
    assert_eq!(
        detect(None, no_env, &cx_start),
        Harness::named("codex").unwrap()
    );
    let cx_end = obj(
        json!({"session_id": "s", "cwd": "/w", "hook_event_name": "SessionEnd", "reason": "other",
            "transcript_path": "/home/dev/work/cxhome/sessions/2026/12/03/rollout-2026-12-03T06-42-52-01a2.jsonl"}),
    );
    assert_eq!(
        detect(None, no_env, &cx_end),
        Harness::named("codex").unwrap()
    );
    let codex_home = |k: &str| (k == "CODEX_HOME").then(|| "/x".to_string());
    assert_eq!(
        detect(None, codex_home, &claude),
        Harness::named("codex").unwrap()
    );
    let both = |k: &str| matches!(k, "CODEX_HOME" | "CLAUDECODE").then(|| "1".to_string());
    assert_eq!(
        detect(None, both, &claude),
        Harness::named("claude-code").unwrap()
    );
    let cursor =
        obj(json!({"hook_event_name": "stop", "conversation_id": "c", "generation_id": "g"}));
    assert_eq!(
        detect(None, no_env, &cursor),
        Harness::named("cursor").unwrap()
    );
    let copilot = obj(json!({"sessionId": "s", "timestamp": 1}));
    assert_eq!(
        detect(None, no_env, &copilot),
        Harness::named("copilot").unwrap()
    );
    let gemini = obj(json!({"hook_event_name": "AfterAgent"}));
    assert_eq!(
        detect(None, no_env, &gemini),
        Harness::named("gemini").unwrap()
    );
}

#[test]
fn normalizes_every_field_and_finds_the_agent() {
    let p = obj(json!({
        "session_id": "abc", "hook_event_name": "SubagentStop", "cwd": "/w",
        "transcript_path": "/p/abc.jsonl", "agent_type": "Explore",
        "agent_transcript_path": "/p/abc/subagents/agent-def456.jsonl", "extra": {"x": 1}
    }));
    let e = normalize(Harness::named("claude-code").unwrap(), &p, None);
    assert_eq!(e.kind, Kind::SubagentStop);
    assert_eq!(e.session_id.as_deref(), Some("abc"));
    assert_eq!(e.agent_id.as_deref(), Some("def456"));
    assert_eq!(e.agent_type.as_deref(), Some("Explore"));
    assert_eq!(e.cwd.as_deref(), Some("/w"));
    assert_eq!(
        e.target(7),
        Target::Agent {
            agent_id: "def456".into(),
            evidence: Evidence::new(Status::Completed, Some(7), Cause::SubagentStop)
        }
    );
    let cursor =
        obj(json!({"conversation_id": "c1", "hook_event_name": "stop", "workspace_roots": ["/r"]}));
    let e = normalize(Harness::named("cursor").unwrap(), &cursor, None);
    assert_eq!(
        (e.session_id.as_deref(), e.cwd.as_deref(), e.kind),
        (Some("c1"), Some("/r"), Kind::Stop)
    );
    let bare = normalize(
        Harness::named("claude-code").unwrap(),
        &obj(json!({"session_id": "s"})),
        Some("Stop"),
    );
    assert_eq!(bare.event, "Stop");
    let none = normalize(
        Harness::named("claude-code").unwrap(),
        &obj(json!({})),
        None,
    );
    assert_eq!(
        (none.event.as_str(), none.kind, none.target(1)),
        ("unknown", Kind::Other, Target::None)
    );
}

#[test]
fn subagent_stop_naming_the_main_agent_is_refused() {
    for p in [
        json!({"session_id": "s", "hook_event_name": "SubagentStop", "agent_id": "s"}),
        json!({"session_id": "s", "hook_event_name": "SubagentStop"}),
    ] {
        let e = normalize(Harness::named("claude-code").unwrap(), &obj(p), None);
        assert_eq!(e.target(1), Target::Refused);
    }
    let stop = normalize(
        Harness::named("claude-code").unwrap(),
        &obj(json!({"session_id": "s", "hook_event_name": "Stop", "agent_id": "x"})),
        None,
    );
    assert_eq!(
        stop.target(5),
        Target::Agent {
            agent_id: "s".into(),
            evidence: Evidence::new(Status::Waiting, Some(5), Cause::StopHook)
        }
    );
}

#[test]
fn the_key_is_over_redacted_canonical_json() {
    let a = normalize(
        Harness::named("claude-code").unwrap(),
        &obj(
            json!({"b": 1, "a": {"y": 2, "x": "sk-ant-api03-AbCdEf0123456789_AbCdEf0123456789"}, "session_id": "s", "hook_event_name": "Stop"}),
        ),
        None,
    );
    let b = normalize(
        Harness::named("claude-code").unwrap(),
        &obj(
            json!({"hook_event_name": "Stop", "session_id": "s", "a": {"x": "sk-ant-api03-ZzZzZz9999999999_ZzZzZz9999999999", "y": 2}, "b": 1}),
        ),
        None,
    );
    assert_eq!(
        canonical(&a.payload),
        r#"{"a":{"x":"[redacted:api-key:~64]","y":2},"b":1,"hook_event_name":"Stop","session_id":"s"}"#
    );
    assert_eq!(event_key(&a, None, None), event_key(&b, None, None));
    assert_ne!(event_key(&a, None, None), event_key(&a, Some("d1"), None));
    assert_ne!(
        event_key(&a, Some("d1"), None),
        event_key(&a, Some("d2"), None)
    );
    // The client that sent it is part of the key; a delivery id
    // names the delivery alone.
    assert_eq!(
        event_key(&a, None, Some("40@900")),
        event_key(&b, None, Some("40@900"))
    );
    assert_ne!(
        event_key(&a, None, Some("40@900")),
        event_key(&a, None, Some("41@901"))
    );
    assert_ne!(
        event_key(&a, None, Some("40@900")),
        event_key(&a, None, None)
    );
    assert_eq!(
        event_key(&a, Some("d1"), Some("40@900")),
        event_key(&a, Some("d1"), Some("41@901"))
    );
}

/// Qwen Code sets Gemini CLI's variable for its hooks too: its own are
/// tried first. Copilot CLI says so by its own.
#[test]
fn a_fork_is_known_by_its_own_variables_before_its_parent_s() {
    let stop = obj(json!({"hook_event_name": "Stop", "session_id": "s"}));
    let qwen = |k: &str| match k {
        "QWEN_CODE_SESSION_ID" => Some("s".to_string()),
        "GEMINI_PROJECT_DIR" | "CLAUDE_PROJECT_DIR" => Some("/w".to_string()),
        _ => None,
    };
    assert_eq!(detect(None, qwen, &stop), Harness::named("qwen").unwrap());
    let copilot = |k: &str| (k == "COPILOT_CLI").then(|| "1".to_string());
    assert_eq!(
        detect(None, copilot, &obj(json!({"sessionId": "s"}))),
        Harness::named("copilot-cli").unwrap()
    );
}

/// A Copilot CLI payload names no event: the command line's `--event`
/// does. A subagent's own prompt and stop hooks, which carry its id as
/// `sessionId`, are its events in its parent's session.
#[test]
fn copilot_events_are_named_by_their_registration_and_subagents_join_their_parent() {
    let copilot = Harness::named("copilot").unwrap();
    let own = obj(json!({"sessionId": "2afc", "timestamp": 1, "cwd": "/w",
        "prompt": "SUBTASK", "agentId": "2afc", "agentType": "explore", "parentAgentId": "608b"}));
    let ev = normalize(copilot, &own, Some("userPromptSubmitted"));
    assert_eq!(ev.event, "userPromptSubmitted");
    assert_eq!(ev.kind, Kind::PromptSubmit);
    assert_eq!(
        (ev.session_id.as_deref(), ev.agent_id.as_deref()),
        (Some("608b"), Some("2afc"))
    );
    let stop = obj(
        json!({"sessionId": "608b", "agentId": "2afc", "parentAgentId": "608b",
        "stopReason": "end_turn"}),
    );
    let ev = normalize(copilot, &stop, Some("subagentStop"));
    assert_eq!(ev.kind, Kind::SubagentStop);
    assert_eq!(
        (ev.session_id.as_deref(), ev.agent_id.as_deref()),
        (Some("608b"), Some("2afc"))
    );
    assert!(matches!(
        ev.target(5),
        Target::Agent { ref agent_id, .. } if agent_id == "2afc"
    ));
    // Its context goes back flat.
    assert_eq!(
        (copilot.answers.start)("ctx").as_deref(),
        Some(r#"{"additionalContext":"ctx"}"#)
    );
    assert!(copilot.takes_start_context());
    assert!(!Harness::named("cursor").unwrap().takes_start_context());
}

/// What `hooks doctor` feeds a registered command has the fields the real
/// client's payload for that event has, no more and no fewer (the real
/// clients' captured payloads, where the corpus is on this machine).
#[test]
fn each_doctor_sample_has_the_fields_of_the_real_payload() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/captured");
    if !root.is_dir() {
        eprintln!("skip: no captured payloads at {}", root.display());
        return;
    }
    let cases: &[(&str, &str, &str)] = &[
        (
            "claude-code",
            "SessionStart",
            "hook-payloads/cc2_332-SessionStart.json",
        ),
        (
            "claude-code",
            "UserPromptSubmit",
            "hook-payloads/cc2_332-UserPromptSubmit.json",
        ),
        ("claude-code", "Stop", "hook-payloads/cc2_332-Stop.json"),
        (
            "claude-code",
            "SubagentStart",
            "hook-payloads/cc2_332-SubagentStart.json",
        ),
        (
            "claude-code",
            "SubagentStop",
            "hook-payloads/cc2_332-SubagentStop.json",
        ),
        (
            "claude-code",
            "PreCompact",
            "hook-payloads/cc-PreCompact.json",
        ),
        (
            "claude-code",
            "PostCompact",
            "hook-payloads/cc-PostCompact.json",
        ),
        (
            "claude-code",
            "SessionEnd",
            "hook-payloads/cc2_332-SessionEnd.json",
        ),
        (
            "codex",
            "SessionStart",
            "hook-payloads/cx-SessionStart.startup.json",
        ),
        (
            "codex",
            "UserPromptSubmit",
            "hook-payloads/cx-UserPromptSubmit.json",
        ),
        ("codex", "Stop", "hook-payloads/cx-Stop.json"),
        (
            "codex",
            "SubagentStart",
            "hook-payloads/cx-SubagentStart.json",
        ),
        (
            "codex",
            "SubagentStop",
            "hook-payloads/cx-SubagentStop.json",
        ),
        ("codex", "PreCompact", "hook-payloads/cx-PreCompact.json"),
        ("codex", "PostCompact", "hook-payloads/cx-PostCompact.json"),
        ("codex", "Interrupt", "hook-payloads/cx-Interrupt.json"),
        ("codex", "SessionEnd", "hook-payloads/cx-SessionEnd.json"),
        (
            "gemini",
            "SessionStart",
            "hook-payloads/gm-SessionStart.startup.json",
        ),
        ("gemini", "BeforeAgent", "hook-payloads/gm-BeforeAgent.json"),
        ("gemini", "AfterAgent", "hook-payloads/gm-AfterAgent.json"),
        ("gemini", "SessionEnd", "hook-payloads/gm-SessionEnd.json"),
        (
            "droid",
            "SessionStart",
            "droid-0.225.2/hook-payloads/hook-SessionStart.json",
        ),
        (
            "droid",
            "UserPromptSubmit",
            "droid-0.225.2/hook-payloads/hook-UserPromptSubmit.json",
        ),
        (
            "droid",
            "Stop",
            "droid-0.225.2/hook-payloads/hook-Stop.json",
        ),
        (
            "droid",
            "SubagentStop",
            "droid-0.225.2/hook-payloads/hook-SubagentStop.json",
        ),
        (
            "droid",
            "SessionEnd",
            "droid-0.225.2/hook-payloads/hook-SessionEnd.json",
        ),
        (
            "qwen-code",
            "SessionStart",
            "hook-payloads/qwen-code-0.24.4/SessionStart.json",
        ),
        (
            "qwen-code",
            "UserPromptSubmit",
            "hook-payloads/qwen-code-0.24.4/UserPromptSubmit.json",
        ),
        (
            "qwen-code",
            "Stop",
            "hook-payloads/qwen-code-0.24.4/Stop.json",
        ),
        (
            "qwen-code",
            "SubagentStart",
            "hook-payloads/qwen-code-0.24.4/SubagentStart.json",
        ),
        (
            "qwen-code",
            "SubagentStop",
            "hook-payloads/qwen-code-0.24.4/SubagentStop.json",
        ),
        (
            "qwen-code",
            "PreCompact",
            "hook-payloads/qwen-code-0.24.4/PreCompact-manual.json",
        ),
        (
            "qwen-code",
            "PostCompact",
            "hook-payloads/qwen-code-0.24.4/PostCompact-manual.json",
        ),
        (
            "qwen-code",
            "SessionEnd",
            "hook-payloads/qwen-code-0.24.4/SessionEnd-interactive.json",
        ),
        (
            "copilot",
            "sessionStart",
            "hook-payloads/copilot-1.0.102/sessionStart-new.json",
        ),
        (
            "copilot",
            "userPromptSubmitted",
            "hook-payloads/copilot-1.0.102/userPromptSubmitted.json",
        ),
        (
            "copilot",
            "agentStop",
            "hook-payloads/copilot-1.0.102/agentStop.json",
        ),
        (
            "copilot",
            "subagentStop",
            "hook-payloads/copilot-1.0.102/subagentStop.json",
        ),
        (
            "copilot",
            "preCompact",
            "hook-payloads/copilot-1.0.102/preCompact-manual.json",
        ),
        (
            "copilot",
            "errorOccurred",
            "hook-payloads/copilot-1.0.102/errorOccurred-http400.json",
        ),
        (
            "copilot",
            "sessionEnd",
            "hook-payloads/copilot-1.0.102/sessionEnd-complete.json",
        ),
        (
            "kimi",
            "SessionStart",
            "kimi-cli-1.52.0/hook-payloads/hook-SessionStart.json",
        ),
        (
            "kimi",
            "UserPromptSubmit",
            "kimi-cli-1.52.0/hook-payloads/hook-UserPromptSubmit.json",
        ),
        (
            "kimi",
            "Stop",
            "kimi-cli-1.52.0/hook-payloads/hook-Stop.json",
        ),
        (
            "kimi",
            "StopFailure",
            "kimi-cli-1.52.0/hook-payloads/hook-StopFailure.json",
        ),
        (
            "kimi",
            "SubagentStart",
            "kimi-cli-1.52.0/hook-payloads/hook-SubagentStart.json",
        ),
        (
            "kimi",
            "SubagentStop",
            "kimi-cli-1.52.0/hook-payloads/hook-SubagentStop.json",
        ),
        (
            "kimi",
            "SessionEnd",
            "kimi-cli-1.52.0/hook-payloads/hook-SessionEnd.json",
        ),
        (
            "cline",
            "TaskStart",
            "hook-payloads/cline-3.0.65/hook-TaskStart-302.json",
        ),
        (
            "cline",
            "TaskResume",
            "hook-payloads/cline-3.0.65/hook-TaskResume-671.json",
        ),
        (
            "cline",
            "TaskComplete",
            "hook-payloads/cline-3.0.65/hook-TaskComplete-684.json",
        ),
        (
            "hermes",
            "on_session_start",
            "hermes-agent-0.19.0/hook-payloads/hook-on_session_start.json",
        ),
        (
            "hermes",
            "pre_llm_call",
            "hermes-agent-0.19.0/hook-payloads/hook-pre_llm_call.json",
        ),
        (
            "hermes",
            "on_session_end",
            "hermes-agent-0.19.0/hook-payloads/hook-on_session_end-2.json",
        ),
        (
            "hermes",
            "subagent_start",
            "hermes-agent-0.19.0/hook-payloads/hook-subagent_start.json",
        ),
        (
            "hermes",
            "subagent_stop",
            "hermes-agent-0.19.0/hook-payloads/hook-subagent_stop.json",
        ),
        (
            "hermes",
            "on_session_finalize",
            "hermes-agent-0.19.0/hook-payloads/hook-on_session_finalize.json",
        ),
    ];
    let keys = |v: &Value| -> Vec<String> {
        let mut k: Vec<String> = v
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default();
        k.sort();
        k
    };
    let mut wrong = Vec::new();
    for (name, event, file) in cases {
        let Ok(text) = std::fs::read_to_string(root.join(file)) else {
            eprintln!("skip: {file} is not on this machine");
            continue;
        };
        let real: Value = serde_json::from_str(&text).unwrap();
        let h = Harness::named(name).unwrap();
        let sample = (h.sample)(event, "/w/proj");
        for (what, a, b) in [
            ("", &real, &sample),
            ("extra.", &real["extra"], &sample["extra"]),
        ] {
            if keys(a) != keys(b) {
                wrong.push(format!(
                    "{name} {event} {what}: real {:?}, sample {:?}",
                    keys(a),
                    keys(b)
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
