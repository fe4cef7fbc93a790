//! OpenCode's hooks: an in-process JavaScript plugin,
//! `$XDG_CONFIG_HOME/opencode/plugin/sessionkit.js` (a project's
//! `.opencode/plugin/`), which sessionkit writes and owns whole. It
//! hands the session's events to sessionkit's hook commands in Claude
//! Code's payload shape and applies the answers: the briefing (and a
//! prompt's recall) pushed into the system prompt of every request
//! (`experimental.chat.system.transform`), a debrief prompt queued when
//! the turn's text completes (`experimental.text.complete`; at
//! `session.idle` a run has already ended). A child session is a
//! subagent of its parent. OpenCode has no session end: the process
//! that ran the plugin going away ends it. Kilo keeps the same plugins.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::domain::harness::{
    Detect, Env, Form, Handler, Handlers, Hooks, McpServers, OwnedFile, Registration as R,
    Settings, as_read, no_env, no_env_sign,
};

pub static HOOKS: Hooks = plugin_hooks(
    ("opencode", &[], "OpenCode", "oc"),
    |home, env| config_home(home, env).join("opencode"),
    ".opencode/plugin",
    &["opencode"],
    |handlers| plugin("OpenCode", handlers),
    McpServers {
        file: |home, env| config_home(home, env).join("opencode/opencode.json"),
        key: "mcp",
        form: crate::domain::harness::McpForm::Json,
        entry: local_server,
    },
);

/// A local MCP server as OpenCode's config has one: its command line as
/// one list.
pub fn local_server(command: &str, args: &[String]) -> serde_json::Value {
    let mut line = vec![command.to_string()];
    line.extend(args.iter().cloned());
    serde_json::json!({"type": "local", "command": line, "enabled": true})
}

/// What the plugin hands to sessionkit, by Claude Code's event names.
const REGISTRATIONS: &[crate::domain::harness::Registration] = &[
    R::new("SessionStart", "session-start", 10),
    R::new("UserPromptSubmit", "user-prompt-submit", 5),
    R::new("Stop", "stop", 10),
    R::new("StopFailure", "stop", 5),
    R::new("SubagentStart", "event", 5),
    R::new("SubagentStop", "event", 5),
    R::new("PreCompact", "pre-compact", 5),
];

/// The file sessionkit writes in a plugin folder.
pub const PLUGIN: &str = "sessionkit.js";

/// `$XDG_CONFIG_HOME`, else `~/.config`.
pub fn config_home(home: &std::path::Path, env: Env<'_>) -> PathBuf {
    env("XDG_CONFIG_HOME")
        .filter(|d| d.starts_with('/'))
        .map_or_else(|| home.join(".config"), PathBuf::from)
}

/// The hooks of a client with OpenCode's plugins: `(name, aliases,
/// label, handle)`, its user settings folder (plugins in its `plugin`), its project's plugin folder, its programs
/// and its plugin's text.
pub const fn plugin_hooks(
    (name, aliases, label, handle): (
        &'static str,
        &'static [&'static str],
        &'static str,
        &'static str,
    ),
    user_dir: fn(&std::path::Path, Env<'_>) -> PathBuf,
    project_file: &'static str,
    programs: &'static [&'static str],
    render: fn(&[Handler<'_>]) -> Vec<OwnedFile>,
    mcp: McpServers,
) -> Hooks {
    Hooks {
        name,
        aliases,
        label,
        handle,
        detect: Detect {
            env: no_env_sign,
            // The plugin's payloads are Claude Code's shape: known by the
            // command's `--harness`.
            payload: |_, _| false,
            rank: 2,
        },
        names_events: true,
        normalize: as_read,
        settings: Settings {
            user_dir,
            user_file: "plugin",
            project_file,
            project_also: &[],
            programs,
            hook_env: no_env,
            project_note: None,
            trust: false,
            status_line: false,
            mcp: Some(mcp),
            form: Form::Files(crate::domain::harness::Owned {
                comment: "//",
                render,
                names: || vec![PLUGIN.to_string()],
            }),
        },
        kinds: super::super::claude_code::hooks::KINDS,
        registrations: REGISTRATIONS,
        handlers: Handlers::grouped(&["command"], 10_000),
        // Its sessions are in a database: `ingest` reads them.
        answers: super::super::script::ANSWERS,
        sample,
        output: super::super::script::OUTPUT,
    }
}

/// The plugin for `label` running `handlers`.
pub fn plugin(label: &str, handlers: &[Handler<'_>]) -> Vec<OwnedFile> {
    vec![super::super::script::script(
        PLUGIN,
        label,
        include_str!("plugin.js"),
        handlers,
    )]
}

/// The payload the plugin sends for `event`.
fn sample(event: &str, cwd: &str) -> Value {
    let mut p = json!({"hook_event_name": event,
        "session_id": crate::domain::harness::DOCTOR_SESSION, "cwd": cwd});
    let extra = match event {
        "SessionStart" => json!({"source": "startup"}),
        "UserPromptSubmit" => json!({"prompt": "doctor check"}),
        "Stop" => json!({"stop_hook_active": false, "last_assistant_message": "done"}),
        "StopFailure" => json!({"error": "APIError", "error_message": "doctor"}),
        "SubagentStart" => json!({"agent_id": "ses_d0c7000000000001", "agent_type": "general"}),
        "SubagentStop" => json!({"agent_id": "ses_d0c7000000000001", "stop_hook_active": false}),
        "PreCompact" => json!({"trigger": "auto"}),
        _ => json!({}),
    };
    crate::domain::harness::extend(&mut p, extra);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_lists_its_handlers_and_names_its_client() {
        let r = R::new("Stop", "stop", 10);
        let files = plugin(
            "Kilo",
            &[(&r, "/bin/sessionkit hook stop --harness kilo".into())],
        );
        let text = &files[0].text;
        assert!(text.starts_with("// sessionkit-hooks [{\"event\":\"Stop\""));
        assert!(text.contains("// Kilo runs this plugin"));
        assert!(text.contains(
            "\"Stop\": {\n    \"command\": \"/bin/sessionkit hook stop --harness kilo\",\n    \"timeout\": 10\n  }"
        ));
        assert!(!text.contains("__"));
        assert_eq!(
            crate::domain::harness::listed("//", text)[0].command,
            "/bin/sessionkit hook stop --harness kilo"
        );
    }
}
