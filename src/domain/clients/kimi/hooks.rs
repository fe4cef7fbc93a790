//! Kimi CLI's hooks: `[[hooks]]` tables (`event`, `command`, `matcher`,
//! `timeout` in seconds, 1 to 600, default 30) in `~/.kimi/config.toml`,
//! Claude Code's event names and payload fields (no transcript path).
//! The command runs through the shell, JSON on stdin; errors and timeouts
//! let the client go on. Its hooks add no context: stdout is read only for
//! a `deny` decision, which at Stop runs the turn once more with the
//! reason as a new user message (its Stop fires once per prompt). There
//! are no project hooks.

use serde_json::{Value, json};

use crate::domain::harness::{
    Answers, Block, Detect, Form, Handler, Handlers, Hooks, Output, Registration as R, Settings,
    as_read, no_env, no_env_sign, takes_none,
};

pub static HOOKS: Hooks = Hooks {
    name: "kimi",
    aliases: &["kimi-cli"],
    label: "Kimi CLI",
    handle: "km",
    detect: Detect {
        env: no_env_sign,
        // Its payloads are Claude Code's less the transcript: known by
        // the command's `--harness` only.
        payload: |_, _| false,
        rank: 2,
    },
    names_events: true,
    normalize: as_read,
    settings: Settings {
        user_dir: settings_dir,
        user_file: "config.toml",
        project_file: "",
        project_also: &[],
        programs: &["kimi"],
        hook_env: no_env,
        project_note: None,
        trust: false,
        status_line: false,
        // `kimi mcp add --transport stdio`.
        mcp: Some(crate::domain::harness::McpServers {
            file: |home, env| settings_dir(home, env).join("mcp.json"),
            key: "mcpServers",
            form: crate::domain::harness::McpForm::Json,
            entry: |command, args| json!({"command": command, "args": args}),
        }),
        form: Form::Block(Block {
            comment: "#",
            render,
            parses,
            consent: None,
        }),
    },
    kinds: super::super::claude_code::hooks::KINDS,
    registrations: &[
        R::new("SessionStart", "session-start", 10),
        R::new("UserPromptSubmit", "user-prompt-submit", 5),
        R::new("Stop", "stop", 10),
        R::new("StopFailure", "stop", 5),
        R::new("SubagentStart", "event", 5),
        R::new("SubagentStop", "event", 5),
        R::new("PreCompact", "pre-compact", 5),
        R::new("SessionEnd", "session-end", 5),
    ],
    handlers: Handlers::grouped(&["command"], 30_000),
    // The payload names no transcript: `ingest` reads it.
    answers: Answers::plain(takes_none, takes_none, |prompt| {
        json!({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": prompt}})
                .to_string()
    }),
    sample,
    output: Output {
        plain_text: &[],
        keys: |_| &["hookSpecificOutput"],
        decisions: &[],
        strict_specific: false,
        context_units: None,
    },
};

/// One `[[hooks]]` table per handler.
fn render(handlers: &[Handler<'_>]) -> String {
    let mut out = String::new();
    for (r, command) in handlers {
        out.push_str("[[hooks]]\n");
        out.push_str(&format!("event = {}\n", toml_edit::Value::from(r.event)));
        out.push_str(&format!(
            "command = {}\n",
            toml_edit::Value::from(command.as_str())
        ));
        if let Some(t) = r.timeout {
            out.push_str(&format!("timeout = {t}\n"));
        }
    }
    out
}

/// Whether the text is TOML whose `hooks`, if any, is an array of tables.
fn parses(text: &str) -> Result<(), String> {
    let doc = text
        .parse::<toml_edit::DocumentMut>()
        .map_err(|e| format!("is not valid TOML ({})", e.to_string().trim()))?;
    match doc.get("hooks") {
        None => Ok(()),
        Some(h) if h.is_array_of_tables() => Ok(()),
        Some(_) => Err("has a `hooks` that is not an array of tables ([[hooks]])".into()),
    }
}

/// Its payload for `event`: the common fields and the event's own.
fn sample(event: &str, cwd: &str) -> Value {
    let mut p = json!({"hook_event_name": event,
        "session_id": crate::domain::harness::DOCTOR_SESSION, "cwd": cwd});
    let extra = match event {
        "SessionStart" => json!({"source": "startup"}),
        "SessionEnd" => json!({"reason": "exit"}),
        "UserPromptSubmit" => json!({"prompt": "doctor check"}),
        "Stop" => json!({"stop_hook_active": false}),
        "StopFailure" => {
            json!({"error_type": "APIStatusError", "error_message": "Error code: 400"})
        }
        "SubagentStart" => json!({"agent_name": "coder", "prompt": "doctor subtask"}),
        "SubagentStop" => json!({"agent_name": "coder", "response": "sub done"}),
        "PreCompact" => json!({"trigger": "manual", "token_count": 1000}),
        _ => json!({}),
    };
    crate::domain::harness::extend(&mut p, extra);
    p
}

/// Its settings folder: `$KIMI_SHARE_DIR`, else `~/.kimi`.
fn settings_dir(
    home: &std::path::Path,
    env: crate::domain::harness::Env<'_>,
) -> std::path::PathBuf {
    env("KIMI_SHARE_DIR")
        .filter(|d| !d.is_empty())
        .map_or_else(|| home.join(".kimi"), std::path::PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn its_block_is_toml_it_reads() {
        let r = R::new("Stop", "stop", 10);
        let text = render(&[(&r, r#"/bin/sessionkit --db '/a "b".db' hook stop"#.into())]);
        assert_eq!(
            text,
            "[[hooks]]\nevent = \"Stop\"\ncommand = \"\"\"/bin/sessionkit --db '/a \"b\".db' hook stop\"\"\"\ntimeout = 10\n"
        );
        let doc: toml_edit::DocumentMut = text.parse().unwrap();
        assert_eq!(
            doc["hooks"][0]["command"].as_str(),
            Some(r#"/bin/sessionkit --db '/a "b".db' hook stop"#)
        );
        assert!(parses(&text).is_ok());
        assert!(parses("hooks = 1\n").is_err());
        assert!(parses("[x\n").is_err());
    }
}
