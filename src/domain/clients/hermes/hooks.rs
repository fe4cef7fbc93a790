//! Hermes Agent's hooks: a `hooks:` mapping in `$HERMES_HOME/config.yaml`
//! (else `~/.hermes`), `<event>: [{command, timeout}]`, each command split
//! like a shell's words and run without one, JSON on stdin. Hermes runs
//! an event's command only once its user consented to that pair (its
//! `shell-hooks-allowlist.json`; else it asks at a terminal and skips it
//! elsewhere): installing records that consent, uninstalling takes it
//! back.
//! Context comes back only from `pre_llm_call` (`{"context": ...}`, added
//! to the turn's user message): the run opens there, briefed on the
//! session's first turn. `on_session_end` ends each turn; a turn is
//! continued only after it edited files, so no nudge is attempted. A
//! subagent's own hooks carry its own session: they are its agent's,
//! the parent's start and stop name it. No project hooks.

use serde_json::{Value, json};

use crate::domain::harness::{
    Answers, Block, Consent, Detect, Form, Handler, Handlers, HookEvent, Hooks, Kind, Listed,
    Output, Registration as R, Settings, no_env, no_env_sign, takes_none,
};

pub static HOOKS: Hooks = Hooks {
    name: "hermes",
    aliases: &["hermes-agent"],
    label: "Hermes Agent",
    handle: "hm",
    detect: Detect {
        env: no_env_sign,
        payload: |_, p| {
            p.get("extra")
                .and_then(|e| e.get("telemetry_schema_version"))
                .and_then(Value::as_str)
                .is_some_and(|v| v.starts_with("hermes."))
        },
        rank: 1,
    },
    names_events: true,
    normalize,
    settings: Settings {
        user_dir: settings_dir,
        user_file: "config.yaml",
        project_file: "",
        project_also: &[],
        programs: &["hermes"],
        hook_env: no_env,
        project_note: None,
        trust: false,
        status_line: false,
        // `hermes mcp add NAME --command C --args A...`: a top-level
        // `mcp_servers:` mapping of the same config.yaml (written by lines,
        // `services::install::mcp_yaml`).
        mcp: Some(crate::domain::harness::McpServers {
            file: |home, env| settings_dir(home, env).join("config.yaml"),
            key: "mcp_servers",
            entry: |command, args| serde_json::json!({"command": command, "args": args}),
            form: crate::domain::harness::McpForm::Yaml,
        }),
        form: Form::Block(Block {
            comment: "#",
            render,
            parses,
            consent: Some(Consent {
                file: "shell-hooks-allowlist.json",
                update: allow,
            }),
        }),
    },
    kinds: &[
        ("on_session_start", Kind::SessionStart),
        ("pre_llm_call", Kind::PromptSubmit),
        ("on_session_end", Kind::Stop),
        ("on_session_finalize", Kind::SessionEnd),
        ("on_session_reset", Kind::SessionStart),
        ("subagent_start", Kind::SubagentStart),
        ("subagent_stop", Kind::SubagentStop),
        ("pre_tool_call", Kind::Tool),
        ("post_tool_call", Kind::Tool),
    ],
    registrations: &[
        R::new("on_session_start", "event", 5),
        R::new("pre_llm_call", "session-start", 10),
        R::new("on_session_end", "stop", 10),
        R::new("subagent_start", "event", 5),
        R::new("subagent_stop", "event", 5),
        R::new("on_session_finalize", "session-end", 5),
    ],
    handlers: Handlers::grouped(&["command"], 60_000),
    // Its sessions are in a database: `ingest` reads them.
    answers: Answers::plain(
        |c| Some(json!({"context": c}).to_string()),
        takes_none,
        |_| String::new(),
    ),
    sample,
    output: Output {
        plain_text: &[],
        keys: |_| &["context", "decision", "reason", "action", "message"],
        decisions: &["block"],
        strict_specific: false,
        context_units: None,
    },
};

/// The `hooks:` mapping, one list of one handler per event.
fn render(handlers: &[Handler<'_>]) -> String {
    let mut out = String::from("hooks:\n");
    for (r, command) in handlers {
        // A JSON string is a YAML double-quoted scalar.
        out.push_str(&format!(
            "  {}:\n    - command: {}\n",
            r.event,
            Value::from(command.as_str())
        ));
        if let Some(t) = r.timeout {
            out.push_str(&format!("      timeout: {t}\n"));
        }
    }
    out
}

/// The allowlist with sessionkit's old handlers' approvals taken out and
/// its new ones' added (Hermes matches an approval by event and command;
/// every other entry and key stays).
fn allow(text: Option<&str>, drop: &[Listed], add: &[Listed], now: &str) -> Result<String, String> {
    let mut doc: Value = match text.filter(|t| !t.trim().is_empty()) {
        Some(t) => serde_json::from_str(t).map_err(|e| format!("is not JSON ({e})"))?,
        None => json!({"approvals": []}),
    };
    let Some(list) = doc.get_mut("approvals").and_then(Value::as_array_mut) else {
        return Err("has no list of approvals".into());
    };
    let same = |e: &Value, l: &Listed| {
        e.get("event").and_then(Value::as_str) == Some(l.event.as_str())
            && e.get("command").and_then(Value::as_str) == Some(l.command.as_str())
    };
    list.retain(|e| !drop.iter().chain(add).any(|l| same(e, l)));
    for l in add {
        list.push(
            json!({"event": l.event, "command": l.command, "approved_at": now,
            "script_mtime_at_approval": Value::Null}),
        );
    }
    // As Hermes writes it.
    Ok(serde_json::to_string_pretty(&doc).unwrap_or_default())
}

/// Whether sessionkit's `hooks:` can be the file's: its top level has
/// none of its own but an empty one (YAML keeps the last of two keys).
fn parses(text: &str) -> Result<(), String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut inside = false;
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("# >>> sessionkit hooks") {
            inside = true;
        } else if line.starts_with("# <<< sessionkit hooks") {
            inside = false;
        }
        let Some(rest) = line.strip_prefix("hooks:").filter(|_| !inside) else {
            continue;
        };
        let value = rest.split(" #").next().unwrap_or("").trim();
        let empty_value = matches!(value, "" | "{}" | "null" | "~");
        let nested = lines[i + 1..]
            .iter()
            .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .is_some_and(|l| l.starts_with([' ', '\t', '-']));
        if !empty_value || (value.is_empty() && nested) {
            return Err(format!(
                "has hooks of its own (`hooks:` at line {}): sessionkit's are a `hooks:` of their own; move yours into it after installing, or out of the file",
                i + 1
            ));
        }
    }
    Ok(())
}

/// A subagent's own events are its agent's; a parent's subagent events
/// name the child; the first turn's `pre_llm_call` starts the session.
fn normalize(ev: &mut HookEvent) {
    let extra = ev.payload.get("extra").cloned().unwrap_or(Value::Null);
    let text = |k: &str| {
        extra
            .get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    if text("platform").as_deref() == Some("subagent") {
        ev.agent_id = ev.session_id.take();
    }
    if matches!(ev.kind, Kind::SubagentStart | Kind::SubagentStop) {
        ev.agent_id = text("child_session_id");
        ev.agent_type = text("child_role");
    }
    if ev.event == "pre_llm_call" {
        let first = extra.get("is_first_turn").and_then(Value::as_bool) == Some(true);
        ev.source = Some(if first { "startup" } else { "resume" }.into());
    }
}

/// Its payload for `event`.
fn sample(event: &str, cwd: &str) -> Value {
    let sid = crate::domain::harness::DOCTOR_SESSION;
    let turn = format!("{sid}:d0c70000:00000001");
    let extra = match event {
        "on_session_start" => json!({"model": "fake-model", "platform": "cli"}),
        "pre_llm_call" => json!({"task_id": "d0c70000", "turn_id": turn,
            "user_message": "doctor check", "conversation_history": [], "is_first_turn": true,
            "model": "fake-model", "platform": "cli", "sender_id": ""}),
        "on_session_end" => json!({"task_id": "d0c70000", "turn_id": turn, "completed": true,
            "interrupted": false, "model": "fake-model", "platform": "cli"}),
        "subagent_start" => json!({"parent_turn_id": turn, "parent_subagent_id": Value::Null,
            "child_session_id": "20261205_000000_d0c701", "child_subagent_id": "sa-0-d0c70000",
            "child_role": "leaf", "child_goal": "doctor subtask"}),
        "subagent_stop" => json!({"parent_turn_id": turn,
            "child_session_id": "20261205_000000_d0c701", "child_role": "leaf",
            "child_summary": "sub done", "child_status": "completed", "duration_ms": 600}),
        "on_session_finalize" => json!({"platform": "cli", "reason": "shutdown"}),
        _ => json!({}),
    };
    let mut extra = extra;
    extra["telemetry_schema_version"] = "hermes.observer.v1".into();
    json!({"hook_event_name": event, "tool_name": Value::Null, "tool_input": Value::Null,
        "session_id": sid, "cwd": cwd, "extra": extra})
}

/// Its settings folder: `$HERMES_HOME`, else `~/.hermes`.
fn settings_dir(
    home: &std::path::Path,
    env: crate::domain::harness::Env<'_>,
) -> std::path::PathBuf {
    env("HERMES_HOME")
        .filter(|d| !d.is_empty())
        .map_or_else(|| home.join(".hermes"), std::path::PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::harness::{Harness, normalize as read};

    #[test]
    fn an_empty_hooks_key_yields_and_one_with_hooks_is_refused() {
        for ok in [
            "model:\n  default: x\n",
            "hooks: {}\nmodel: x\n",
            "hooks:\nmodel: x\n",
            "hooks: null\n",
        ] {
            assert!(parses(ok).is_ok(), "{ok}");
        }
        for bad in [
            "hooks:\n  pre_tool_call:\n    - command: x\n",
            "hooks: {pre_tool_call: [{command: x}]}\n",
        ] {
            assert!(parses(bad).unwrap_err().contains("line 1"), "{bad}");
        }
        let r = R::new("on_session_end", "stop", 10);
        assert_eq!(
            render(&[(&r, "sessionkit --db '/a b.db' hook stop".into())]),
            "hooks:\n  on_session_end:\n    - command: \"sessionkit --db '/a b.db' hook stop\"\n      timeout: 10\n"
        );
    }

    #[test]
    fn a_subagent_is_an_agent_and_the_first_turn_starts() {
        let h = Harness::named("hermes").unwrap();
        let mut p = sample("on_session_end", "/w/proj");
        p["session_id"] = "20261205_185748_43cf20".into();
        p["extra"]["platform"] = "subagent".into();
        let ev = read(h, p.as_object().unwrap(), None);
        assert_eq!(
            (ev.session_id, ev.agent_id.as_deref()),
            (None, Some("20261205_185748_43cf20"))
        );
        let ev = read(h, sample("subagent_stop", "/w").as_object().unwrap(), None);
        assert_eq!(
            (ev.kind, ev.agent_id.as_deref(), ev.agent_type.as_deref()),
            (
                Kind::SubagentStop,
                Some("20261205_000000_d0c701"),
                Some("leaf")
            )
        );
        let ev = read(h, sample("pre_llm_call", "/w").as_object().unwrap(), None);
        assert_eq!(ev.source.as_deref(), Some("startup"));
    }
}
