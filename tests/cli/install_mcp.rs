//! `hooks install --with-mcp`: `sessionkit mcp` registered where each
//! client takes MCP servers, in the shape its own `mcp add` writes (seen
//! with Claude Code 2.1.332, Codex 0.171, Gemini CLI 0.61, Qwen Code 0.24,
//! Copilot CLI 1.0, Droid 0.225, Kimi CLI 1.52, Cline 3.0 and Hermes Agent
//! 0.19; OpenCode 1.18 and Kilo 7.7 as their config reads it), beside the
//! user's own servers;
//! idempotent; uninstall gives the file's bytes back; an entry named
//! `sessionkit` of the user's own is never touched.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::Env;

fn put(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// Each JSON client, its MCP file under HOME, the key of its servers and
/// its entry for `sessionkit --db DB mcp`.
fn clients(db: &str) -> Vec<(&'static str, &'static str, &'static str, Value)> {
    let args = json!(["--db", db, "mcp"]);
    let line = json!(["sessionkit", "--db", db, "mcp"]);
    let local = json!({"type": "local", "command": line, "enabled": true});
    let servers = vec![
        (
            "claude-code",
            ".claude.json",
            json!({"type": "stdio", "command": "sessionkit", "args": args, "env": {}}),
        ),
        (
            "gemini",
            ".gemini/settings.json",
            json!({"command": "sessionkit", "args": args}),
        ),
        (
            "qwen-code",
            ".qwen/settings.json",
            json!({"command": "sessionkit", "args": args}),
        ),
        (
            "copilot",
            ".copilot/mcp-config.json",
            json!({"tools": ["*"], "type": "local", "command": "sessionkit", "args": args}),
        ),
        (
            "droid",
            ".factory/mcp.json",
            json!({"type": "stdio", "command": "sessionkit", "args": args, "disabled": false}),
        ),
        (
            "kimi",
            ".kimi/mcp.json",
            json!({"command": "sessionkit", "args": args}),
        ),
    ];
    servers
        .into_iter()
        .map(|(h, f, e)| (h, f, "mcpServers", e))
        .chain([
            (
                "opencode",
                ".config/opencode/opencode.json",
                "mcp",
                local.clone(),
            ),
            ("kilo", ".config/kilo/kilo.json", "mcp", local),
            (
                "cline",
                ".cline/data/settings/cline_mcp_settings.json",
                "mcpServers",
                json!({"transport": {"type": "stdio", "command": "sessionkit", "args": args}}),
            ),
        ])
        .collect()
}

fn install(env: &Env, harness: &str, extra: &[&str]) -> (i32, Vec<Value>, String) {
    let db = env.db().display().to_string();
    let (code, out, err) = env.run(
        &[
            &[
                "hooks",
                "install",
                "--harness",
                harness,
                "--program",
                "sessionkit",
                "--db",
                &db,
                "--format",
                "jsonl",
            ][..],
            extra,
        ]
        .concat(),
    );
    let rows = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (code, rows, err)
}

/// The files `hooks status` says hold sessionkit's MCP server for `harness`.
fn mcp_status(env: &Env, harness: &str) -> Vec<String> {
    let (code, out, err) = env.run(&["hooks", "status", "--harness", harness, "--format", "jsonl"]);
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|r| r["event"] == "mcp")
        .map(|r| {
            assert_eq!(
                (&r["state"], &r["scope"]),
                (&json!("registered"), &json!("user"))
            );
            r["file"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn each_client_gets_the_server_beside_its_own_and_uninstall_gives_the_bytes_back() {
    let env = Env::new();
    let db = env.db().display().to_string();
    for (harness, rel, key, entry) in clients(&db) {
        let file = env.path("home").join(rel);
        // The user's own server, in the client's indentation.
        let before = format!(
            "{{\n    \"{key}\": {{\n        \"mine\": {{\"command\": \"my-server\"}}\n    }},\n    \"theme\": \"dark\"\n}}\n"
        );
        put(&file, &before);
        let (code, rows, err) = install(&env, harness, &["--with-mcp"]);
        assert_eq!(code, 0, "{harness}: {err}");
        assert!(
            rows[0]["added"]
                .as_array()
                .unwrap()
                .contains(&json!("mcp server")),
            "{harness}: {rows:?}"
        );
        // A file apart from the settings is named as the server's, never
        // as a trust file.
        let apart = !matches!(harness, "gemini" | "qwen-code");
        assert_eq!(
            (rows[0].get("mcp_file"), rows[0].get("trust_file")),
            (
                apart.then(|| json!(file.display().to_string())).as_ref(),
                None
            ),
            "{harness}: {rows:?}"
        );
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        assert_eq!(doc[key]["sessionkit"], entry, "{harness}");
        assert_eq!(
            doc[key]["mine"],
            json!({"command": "my-server"}),
            "{harness}"
        );
        assert_eq!(doc["theme"], "dark", "{harness}");
        // Status lists it, in its file.
        assert_eq!(
            mcp_status(&env, harness),
            [file.display().to_string()],
            "{harness}"
        );
        // Again: nothing changes.
        let (code, rows, _) = install(&env, harness, &["--with-mcp"]);
        assert_eq!(code, 0);
        assert_eq!(rows[0]["changed"], false, "{harness}: {rows:?}");
        // Uninstall: the bytes the user had.
        let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", harness]);
        assert_eq!(code, 0, "{harness}: {err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before, "{harness}");
        assert!(mcp_status(&env, harness).is_empty(), "{harness}");
    }
}

#[test]
fn a_file_install_made_is_removed_again_and_a_dry_run_writes_nothing() {
    let env = Env::new();
    let file = env.path("home/.copilot/mcp-config.json");
    let (code, _, err) = install(&env, "copilot", &["--with-mcp", "--dry-run"]);
    assert_eq!(code, 1, "{err}");
    assert!(!file.exists());
    let (code, _, err) = install(&env, "copilot", &["--with-mcp"]);
    assert_eq!(code, 0, "{err}");
    assert!(file.exists());
    let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", "copilot"]);
    assert_eq!(code, 0, "{err}");
    assert!(!file.exists());
}

#[test]
fn an_entry_named_sessionkit_of_the_users_own_is_left_alone() {
    let env = Env::new();
    let file = env.path("home/.kimi/mcp.json");
    let own = "{\"mcpServers\": {\"sessionkit\": {\"command\": \"/opt/sk-proxy\", \"args\": [\"serve\"]}}}\n";
    put(&file, own);
    let (code, rows, err) = install(&env, "kimi", &["--with-mcp"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        !rows[0]["added"].to_string().contains("mcp server"),
        "{rows:?}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), own);
    // Not sessionkit's: status does not list it.
    assert!(mcp_status(&env, "kimi").is_empty());
    let (code, _, _) = env.run(&["hooks", "uninstall", "--harness", "kimi"]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), own);
}

#[test]
fn the_server_is_registered_at_user_scope_only_and_kept_by_an_install_without_it() {
    let env = Env::new();
    let (code, rows, err) = install(&env, "gemini", &["--with-mcp", "--scope", "project"]);
    assert_eq!((code, rows.len()), (2, 0));
    assert!(
        err.contains("--with-mcp registers the MCP server in the user's settings only"),
        "{err}"
    );
    let file = env.path("home/.gemini/settings.json");
    let (code, _, err) = install(&env, "gemini", &["--with-mcp"]);
    assert_eq!(code, 0, "{err}");
    // An install without --with-mcp leaves the server registered.
    let (code, rows, _) = install(&env, "gemini", &[]);
    assert_eq!(code, 0);
    assert_eq!(rows[0]["changed"], false, "{rows:?}");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(doc["mcpServers"]["sessionkit"]["args"][2], "mcp");
    // A client that takes no server from sessionkit is named.
    let (code, _, err) = install(&env, "pi", &["--with-mcp"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("pi: sessionkit does not register its MCP server there; add `sessionkit mcp`"),
        "{err}"
    );
    let (code, _, _) = env.run(&["hooks", "uninstall", "--harness", "gemini"]);
    assert_eq!(code, 0);
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap_or("{}".into())).unwrap();
    assert_eq!(doc.get("mcpServers"), None, "{doc}");
}

/// Codex keeps its servers as tables of its config.toml, beside the
/// hooks' trust entries: both go in and both come out, the user's own
/// text kept byte for byte.
#[test]
fn codex_gets_a_table_in_config_toml_beside_its_trust() {
    let env = Env::new();
    let config = env.path("home/.codex/config.toml");
    let before = "model = \"gpt-5\" # mine\n\n[mcp_servers.other]\ncommand = \"x\"\n";
    put(&config, before);
    let (code, rows, err) = install(&env, "codex", &["--with-mcp"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        rows[0]["added"].to_string().contains("mcp server"),
        "{rows:?}"
    );
    let text = std::fs::read_to_string(&config).unwrap();
    let db = env.db().display().to_string();
    assert!(
        text.contains(&format!(
            "[mcp_servers.sessionkit]\ncommand = \"sessionkit\"\nargs = [\"--db\", \"{db}\", \"mcp\"]\n"
        )),
        "{text}"
    );
    assert!(text.starts_with(before), "{text}");
    assert!(text.contains("trusted_hash"), "{text}");
    let (code, rows, _) = install(&env, "codex", &["--with-mcp"]);
    assert_eq!(code, 0);
    assert_eq!(rows[0]["changed"], false, "{rows:?}");
    assert_eq!(mcp_status(&env, "codex"), [config.display().to_string()]);
    // Only the server, when the hooks are there already.
    let (code, _, _) = env.run(&["hooks", "uninstall", "--harness", "codex"]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), before);
    assert!(mcp_status(&env, "codex").is_empty());
    let (code, _, _) = install(&env, "codex", &[]);
    assert_eq!(code, 0);
    let (code, rows, err) = install(&env, "codex", &["--with-mcp"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(rows[0]["added"], json!(["mcp server"]), "{rows:?}");
    let (code, _, _) = env.run(&["hooks", "uninstall", "--harness", "codex"]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&config).unwrap(), before);
}

/// The server only reads, so it could not build the search index at an
/// agent's first search: `--with-mcp` builds it, and a search through the
/// server then finds what the sessions said.
#[test]
fn install_with_mcp_builds_the_search_index_the_server_reads() {
    let env = Env::new();
    env.ingest(&crate::common::fixtures());
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said_sessions"), 0);
    let (code, _, err) = install(&env, "gemini", &["--with-mcp", "--dry-run"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said_sessions"), 0);
    let (code, _, err) = install(&env, "gemini", &["--with-mcp"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("indexed what was said in 4 session(s)"),
        "{err}"
    );
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said_sessions"), 4);
}

/// Hermes Agent keeps its servers in a top-level `mcp_servers:` mapping of
/// the config.yaml that holds sessionkit's hooks block: the entry goes
/// under the user's own servers in their indentation, and comes out again
/// with the hooks, the file's bytes given back; a file install made goes.
#[test]
fn hermes_gets_the_server_under_its_mcp_servers_and_gives_the_bytes_back() {
    let env = Env::new();
    let config = env.path("home/.hermes/config.yaml");
    let before = "# mine\nmodel: x\nmcp_servers:\n    other:\n        command: y\n";
    put(&config, before);
    let (code, rows, err) = install(&env, "hermes", &["--with-mcp"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        rows[0]["added"].to_string().contains("mcp server"),
        "{rows:?}"
    );
    let db = env.db().display().to_string();
    let text = std::fs::read_to_string(&config).unwrap();
    assert!(
        text.starts_with(&format!(
            "# mine\nmodel: x\nmcp_servers:\n    sessionkit:  # written by sessionkit hooks install\n        command: \"sessionkit\"\n        args: [\"--db\", \"{db}\", \"mcp\"]\n    other:\n        command: y\n"
        )),
        "{text}"
    );
    let (code, rows, _) = install(&env, "hermes", &["--with-mcp"]);
    assert_eq!(code, 0);
    assert_eq!(rows[0]["changed"], false, "{rows:?}");
    assert_eq!(mcp_status(&env, "hermes"), [config.display().to_string()]);
    let (code, _, err) = env.run(&["hooks", "uninstall", "--harness", "hermes"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&config).unwrap(), before);
    assert!(mcp_status(&env, "hermes").is_empty());
    // A flow mapping cannot take an entry by lines: refused, nothing written.
    put(&config, "mcp_servers: {}\n");
    let (code, _, err) = install(&env, "hermes", &["--with-mcp"]);
    assert_eq!(code, 2);
    assert!(err.contains("mcp_servers is not a block mapping"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "mcp_servers: {}\n"
    );
    // No file before: none after.
    std::fs::remove_file(&config).unwrap();
    let (code, _, err) = install(&env, "hermes", &["--with-mcp"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, _) = env.run(&["hooks", "uninstall", "--harness", "hermes"]);
    assert_eq!(code, 0);
    assert!(!config.exists());
}
