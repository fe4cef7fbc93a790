//! pi's hooks: an in-process extension, `extensions/sessionkit.ts` in
//! its agent folder (`$PI_CODING_AGENT_DIR`, else `~/.pi/agent`; a
//! project's `.pi/extensions`), which sessionkit writes and owns whole.
//! It hands the session's events to sessionkit's hook commands in Claude
//! Code's payload shape (the session file as the transcript) and applies
//! the answers: the briefing and a prompt's recall returned as the
//! turn's system prompt from `before_agent_start` (it holds for one turn,
//! so every turn), the debrief sent as a follow-up from the turn that
//! ran no tool (`agent_end` comes too late in `-p`). pi has no subagents.

use serde_json::{Value, json};

use crate::domain::harness::{
    Answers, Detect, Form, Handler, Handlers, Hooks, Owned, OwnedFile, Registration as R, Settings,
    as_read, no_env, no_env_sign,
};

/// The file sessionkit writes in the extensions folder.
const EXTENSION: &str = "sessionkit.ts";

pub static HOOKS: Hooks = Hooks {
    name: "pi",
    aliases: &[],
    label: "pi",
    handle: "pi",
    detect: Detect {
        env: no_env_sign,
        // Claude Code's shape: known by the command's `--harness`.
        payload: |_, _| false,
        rank: 2,
    },
    names_events: true,
    normalize: as_read,
    settings: Settings {
        user_dir: |home, env| {
            env("PI_CODING_AGENT_DIR")
                .filter(|d| !d.is_empty())
                .map_or_else(|| home.join(".pi/agent"), std::path::PathBuf::from)
        },
        user_file: "extensions",
        project_file: ".pi/extensions",
        project_also: &[],
        programs: &["pi"],
        hook_env: no_env,
        project_note: None,
        trust: false,
        status_line: false,
        mcp: None,
        form: Form::Files(Owned {
            comment: "//",
            render,
            names: || vec![EXTENSION.to_string()],
        }),
    },
    kinds: super::super::claude_code::hooks::KINDS,
    registrations: &[
        R::new("SessionStart", "session-start", 10),
        R::new("UserPromptSubmit", "user-prompt-submit", 5),
        R::new("Stop", "stop", 10),
        R::new("StopFailure", "stop", 5),
        R::new("PreCompact", "pre-compact", 5),
        R::new("SessionEnd", "session-end", 5),
    ],
    handlers: Handlers::grouped(&["command"], 10_000),
    // The session file is the transcript: caught up at a turn's end.
    answers: Answers {
        catch_up: true,
        ..super::super::script::ANSWERS
    },
    sample,
    output: super::super::script::OUTPUT,
};

/// The extension running `handlers`.
fn render(handlers: &[Handler<'_>]) -> Vec<OwnedFile> {
    vec![super::super::script::script(
        EXTENSION,
        "pi",
        include_str!("extension.ts"),
        handlers,
    )]
}

/// The payload the extension sends for `event`.
fn sample(event: &str, cwd: &str) -> Value {
    let sid = crate::domain::harness::DOCTOR_SESSION;
    let mut p = json!({"hook_event_name": event, "session_id": sid, "cwd": cwd,
        "transcript_path": format!("{cwd}/doctor-transcript.jsonl")});
    let extra = match event {
        "SessionStart" => json!({"source": "startup"}),
        "UserPromptSubmit" => json!({"prompt": "doctor check"}),
        "Stop" => json!({"stop_hook_active": false, "last_assistant_message": "done"}),
        "StopFailure" => json!({"error": "error", "error_message": "doctor"}),
        "PreCompact" => json!({"trigger": "auto"}),
        "SessionEnd" => json!({"reason": "quit"}),
        _ => json!({}),
    };
    crate::domain::harness::extend(&mut p, extra);
    p
}
