//! Cline's hooks: a program per event in `$CLINE_DIR/hooks` (else
//! `~/.cline/hooks`; a project's `.clinerules/hooks`), named after the
//! event (`TaskStart`, `TaskComplete.sh`, ...), run with the JSON payload
//! on stdin. Its payloads name their event by Cline's inner name
//! (`hookName`: `agent_start`, `agent_end`...) and their session by
//! `sessionContext.rootSessionId` (its transcripts' id); every agent,
//! the main one too, has an `agent_id`, a subagent a `parent_agent_id`.
//! The CLI runs start, prompt and end hooks detached with their output
//! ignored: no context and no continued turn come back.

use serde_json::{Value, json};

use crate::domain::harness::{
    Answers, Detect, Form, Handler, Handlers, HookEvent, Hooks, Kind, Output, Owned, OwnedFile,
    Registration as R, Settings, no_env, no_env_sign, takes_none,
};

pub static HOOKS: Hooks = Hooks {
    name: "cline",
    aliases: &[],
    label: "Cline",
    handle: "cl",
    detect: Detect {
        env: no_env_sign,
        payload: |_, p| p.contains_key("clineVersion") && p.contains_key("hookName"),
        rank: 1,
    },
    names_events: true,
    normalize,
    settings: Settings {
        user_dir: settings_dir,
        user_file: "hooks",
        project_file: ".clinerules/hooks",
        project_also: &[],
        programs: &["cline"],
        hook_env: no_env,
        project_note: None,
        trust: false,
        status_line: false,
        // `cline mcp add --yes NAME -- COMMAND ARGS`: a stdio transport.
        mcp: Some(crate::domain::harness::McpServers {
            file: |home, env| settings_dir(home, env).join("data/settings/cline_mcp_settings.json"),
            key: "mcpServers",
            form: crate::domain::harness::McpForm::Json,
            entry: |command, args| serde_json::json!({"transport": {"type": "stdio", "command": command, "args": args}}),
        }),
        form: Form::Files(Owned {
            comment: "#",
            render,
            names,
        }),
    },
    kinds: &[
        ("agent_start", Kind::SessionStart),
        ("agent_resume", Kind::SessionStart),
        ("prompt_submit", Kind::PromptSubmit),
        ("agent_end", Kind::Stop),
        ("agent_error", Kind::StopFailure),
        ("agent_abort", Kind::Interrupt),
        ("tool_call", Kind::Tool),
        ("tool_result", Kind::Tool),
        ("session_shutdown", Kind::SessionEnd),
        // The names its files go by.
        ("TaskStart", Kind::SessionStart),
        ("TaskResume", Kind::SessionStart),
        ("UserPromptSubmit", Kind::PromptSubmit),
        ("TaskComplete", Kind::Stop),
        ("TaskError", Kind::StopFailure),
        ("TaskCancel", Kind::Interrupt),
        ("SessionShutdown", Kind::SessionEnd),
    ],
    // Detached hooks have no timeout: none is written.
    registrations: &[
        R::new("TaskStart", "session-start", 0).no_timeout(),
        R::new("TaskResume", "session-start", 0).no_timeout(),
        R::new("UserPromptSubmit", "event", 0).no_timeout(),
        R::new("TaskComplete", "stop", 0).no_timeout(),
        R::new("TaskError", "stop", 0).no_timeout(),
        R::new("TaskCancel", "event", 0).no_timeout(),
        R::new("SessionShutdown", "session-end", 0).no_timeout(),
    ],
    handlers: Handlers::grouped(&["command"], 30_000),
    // The payload names no transcript: `ingest` reads it.
    answers: Answers::plain(takes_none, takes_none, |_| String::new()),
    sample,
    output: Output {
        plain_text: &[],
        keys: |_| {
            &[
                "cancel",
                "contextModification",
                "context",
                "errorMessage",
                "review",
            ]
        },
        decisions: &[],
        strict_specific: false,
        context_units: None,
    },
};

/// The file a registration is written to.
fn file_name(event: &str) -> String {
    format!("{event}.sh")
}

/// Every file sessionkit may have written.
fn names() -> Vec<String> {
    HOOKS
        .registrations
        .iter()
        .map(|r| file_name(r.event))
        .collect()
}

/// One shell program per event, running its command.
fn render(handlers: &[Handler<'_>]) -> Vec<OwnedFile> {
    handlers
        .iter()
        .map(|h| {
            let text = format!(
                "#!/bin/sh\n{}\n# Cline runs this file for {}; written by `sessionkit hooks install`, removed by `sessionkit hooks uninstall`.\nexec {}\n",
                crate::domain::harness::marker("#", std::slice::from_ref(h)),
                h.0.event,
                h.1
            );
            OwnedFile {
                name: file_name(h.0.event),
                text,
                program: true,
            }
        })
        .collect()
}

/// The session is the root session; the main agent is the session
/// itself, a subagent's start and end are its own.
fn normalize(ev: &mut HookEvent) {
    let p = ev.payload.as_object();
    let get = |path: &[&str]| {
        let mut v = ev.payload.get(path[0])?;
        for k in &path[1..] {
            v = v.get(k)?;
        }
        v.as_str().filter(|s| !s.is_empty()).map(str::to_string)
    };
    if let Some(root) = get(&["sessionContext", "rootSessionId"]) {
        ev.session_id = Some(root);
    }
    if ev.cwd.is_none() {
        ev.cwd = get(&["workspaceInfo", "rootPath"]).or_else(|| {
            p.and_then(|p| p.get("workspaceRoots"))
                .and_then(|r| r.get(0))
                .and_then(Value::as_str)
                .map(str::to_string)
        });
    }
    let parent = get(&["parent_agent_id"]);
    if parent.is_none() {
        ev.agent_id = None;
    } else {
        ev.kind = match ev.kind {
            Kind::SessionStart => Kind::SubagentStart,
            Kind::Stop => Kind::SubagentStop,
            k => k,
        };
    }
    if ev.event == "agent_resume" {
        ev.source = Some("resume".into());
    } else if ev.event == "agent_start" {
        ev.source = Some("startup".into());
    }
}

/// Its payload for the event a file is named after.
fn sample(event: &str, cwd: &str) -> Value {
    let sid = crate::domain::harness::DOCTOR_SESSION;
    let (name, own) = match event {
        "TaskStart" => ("agent_start", json!({"taskStart": {"taskMetadata": {}}})),
        "TaskResume" => (
            "agent_resume",
            json!({"taskResume": {"taskMetadata": {}, "previousState": {}}}),
        ),
        "UserPromptSubmit" => (
            "prompt_submit",
            json!({"userPromptSubmit": {"prompt": "doctor check", "attachments": []}}),
        ),
        "TaskComplete" => (
            "agent_end",
            json!({"iteration": 1, "turn": {"outputText": "done", "status": "completed"},
                "taskComplete": {"taskMetadata": {}}}),
        ),
        "TaskError" => (
            "agent_error",
            json!({"iteration": 1, "error": {"name": "Error", "message": "doctor"}}),
        ),
        "TaskCancel" => (
            "agent_abort",
            json!({"reason": "doctor", "taskCancel": {"taskMetadata": {}}}),
        ),
        "SessionShutdown" => ("session_shutdown", json!({"reason": "doctor"})),
        _ => ("unknown", json!({})),
    };
    let mut p = json!({"clineVersion": "", "timestamp": "2026-12-05T19:06:10.793Z",
        "taskId": "conv_1796497570759_d0c7000", "sessionContext": {"rootSessionId": sid},
        "workspaceRoots": [cwd], "workspaceInfo": {"rootPath": cwd, "hint": "doctor"},
        "userId": "unknown", "agent_id": "agent_1796497570615_d0c700", "parent_agent_id": Value::Null,
        "hookName": name});
    crate::domain::harness::extend(&mut p, own);
    p
}

/// Its settings folder: `$CLINE_DIR`, else `~/.cline`.
fn settings_dir(
    home: &std::path::Path,
    env: crate::domain::harness::Env<'_>,
) -> std::path::PathBuf {
    env("CLINE_DIR")
        .filter(|d| !d.trim().is_empty())
        .map_or_else(|| home.join(".cline"), std::path::PathBuf::from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::harness::{Harness, normalize as read};

    fn event(p: &Value) -> HookEvent {
        read(
            Harness::named("cline").unwrap(),
            p.as_object().unwrap(),
            None,
        )
    }

    #[test]
    fn the_root_session_is_the_session_and_a_subagent_is_its_agent() {
        let main = event(&sample("TaskComplete", "/w/proj"));
        assert_eq!(
            (
                main.session_id.as_deref(),
                main.agent_id.as_deref(),
                main.kind
            ),
            (
                Some(crate::domain::harness::DOCTOR_SESSION),
                None,
                Kind::Stop
            )
        );
        assert_eq!(main.cwd.as_deref(), Some("/w/proj"));
        let mut p = sample("TaskComplete", "/w/proj");
        p["parent_agent_id"] = "agent_1796497570615_d0c700".into();
        p["agent_id"] = "agent_1796497570975_n5aagh".into();
        let sub = event(&p);
        assert_eq!(
            (sub.agent_id.as_deref(), sub.kind),
            (Some("agent_1796497570975_n5aagh"), Kind::SubagentStop)
        );
        let resume = event(&sample("TaskResume", "/w/proj"));
        assert_eq!(
            (resume.kind, resume.source.as_deref()),
            (Kind::SessionStart, Some("resume"))
        );
    }

    #[test]
    fn each_file_is_a_program_naming_its_handler() {
        let r = R::new("TaskStart", "session-start", 0).no_timeout();
        let files = render(&[(
            &r,
            "/bin/sessionkit hook session-start --harness cline".into(),
        )]);
        assert_eq!(files.len(), 1);
        let f = &files[0];
        assert_eq!((f.name.as_str(), f.program), ("TaskStart.sh", true));
        assert!(
            f.text
                .starts_with("#!/bin/sh\n# sessionkit-hooks [{\"event\":\"TaskStart\"")
        );
        assert!(
            f.text
                .ends_with("\nexec /bin/sessionkit hook session-start --harness cline\n")
        );
    }
}
