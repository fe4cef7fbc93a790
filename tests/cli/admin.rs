//! The foundation: database file, config, roots, completions and man pages.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common::*;

#[test]
fn database_is_private_and_a_newer_one_is_refused() {
    let env = Env::new();
    let db = env.path("deep/dir/x.db");
    // Issue 15: --db in a missing directory is an error, and creates nothing
    // (only the default location's directory is made).
    let (code, _, err) = env.run(&["--db", db.to_str().unwrap(), "config", "list"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        format!(
            "sessionkit: the database's directory {} does not exist: create it, or give --db a path in an existing directory",
            env.path("deep/dir").display()
        )
    );
    assert!(!env.path("deep").exists());
    std::fs::create_dir_all(env.path("deep/dir")).unwrap();
    let (code, _, err) = env.run(&["--db", db.to_str().unwrap(), "config", "list"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::metadata(&db).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let c = rusqlite::Connection::open(&db).unwrap();
    let mode: String = c
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    c.pragma_update(None, "user_version", 999).unwrap();
    drop(c);
    let (code, _, err) = env.run(&["--db", db.to_str().unwrap(), "sessions"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("newer sessionkit (schema version 999"),
        "{err}"
    );
}

#[test]
fn db_path_falls_back_to_xdg_data_home() {
    let env = Env::new();
    let out = env
        .cmd()
        .env_remove("SESSIONKIT_DB")
        .env("XDG_DATA_HOME", env.path("xdg"))
        .args(["config", "list"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(env.path("xdg/sessionkit/sessionkit.db").exists());
}

#[test]
fn no_root_found_writes_nothing() {
    let env = Env::new();
    let (code, out, err) = env.run(&["ingest"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("no transcripts found"), "{err}");
    assert!(!env.db().exists(), "nothing written");
    let (code, _, err) = env.run(&["ingest", "--root", "/no/such/root"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("corpus root /no/such/root cannot be opened"),
        "{err}"
    );
}

#[test]
fn default_roots_come_from_claude_config_dir() {
    let env = Env::new();
    let one = env.path("c1");
    let two = env.path("c2");
    copy_tree(
        &fixtures().join("-home-dev-alpha"),
        &one.join("projects/-home-dev-alpha"),
    );
    copy_tree(
        &fixtures().join("-home-dev-beta"),
        &two.join("projects/-home-dev-beta"),
    );
    let dirs = format!("{},{}", one.display(), two.display());
    let out = env
        .cmd()
        .env("CLAUDE_CONFIG_DIR", &dirs)
        .args(["ingest", "--json"])
        .output()
        .unwrap();
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (s["roots"].as_u64(), s["sessions_new"].as_u64()),
        (Some(2), Some(4))
    );
    // Without it, ~/.claude/projects.
    let home = env.path("home/.claude/projects");
    copy_tree(
        &fixtures().join("-home-dev-beta"),
        &home.join("-home-dev-beta"),
    );
    let other = Env::new();
    let out = other
        .cmd()
        .env("HOME", env.path("home"))
        .args(["ingest", "--json"])
        .output()
        .unwrap();
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["sessions_new"], 2);
}

#[test]
fn config_get_set_unset_list_and_env_override() {
    let env = Env::new();
    let (code, out, _) = env.run(&["config", "get", "watchdog.minutes"]);
    assert_eq!((code, out.as_str()), (0, "10\n"));
    assert_eq!(env.run(&["config", "set", "watchdog.minutes", "15"]).0, 0);
    assert_eq!(env.run(&["config", "get", "watchdog.minutes"]).1, "15\n");
    let v = env.json(&["config", "get", "watchdog.minutes"]);
    assert_eq!(
        (v["value"].as_str(), v["source"].as_str()),
        (Some("15"), Some("database"))
    );
    let out = env
        .cmd()
        .env("SESSIONKIT_WATCHDOG_MINUTES", "3")
        .args(["config", "get", "watchdog.minutes"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "3\n");
    let list = env.json(&["config", "list"]);
    let row = list
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "watchdog.minutes")
        .unwrap();
    assert_eq!(row["env"], "SESSIONKIT_WATCHDOG_MINUTES");
    assert_eq!(row["default"], "10");
    assert_eq!(env.run(&["config", "unset", "watchdog.minutes"]).0, 0);
    assert_eq!(env.run(&["config", "get", "watchdog.minutes"]).1, "10\n");
    let (code, _, err) = env.run(&["config", "set", "watchdog.minutes", "soon"]);
    assert_eq!(code, 2);
    assert!(err.contains("must be a positive whole number"), "{err}");
    let (code, _, err) = env.run(&["config", "get", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown setting \"nope\""), "{err}");
}

/// Issue 15: the older file-size setting is kept, as the line cap: with
/// 100 bytes every fixture session is still ingested, each line over 100
/// bytes a degraded line; `ingest.max_line_size` wins when both are set.
#[test]
fn max_file_size_setting_is_kept_as_the_line_cap() {
    let env = Env::new();
    let cold = env.ingest(&fixtures());
    let sessions = cold["sessions_new"].as_u64().unwrap();
    assert!(sessions >= 4);
    let env = Env::new();
    env.run(&["config", "set", "ingest.max_file_size", "100"]);
    let s = env.ingest(&fixtures());
    assert_eq!(s["sessions_new"].as_u64(), Some(sessions));
    assert_eq!(s["skipped"]["oversize"], 0);
    assert_eq!(s["sessions_degraded"].as_u64(), Some(sessions));
    let long = env.scalar(
        "SELECT COUNT(*) FROM degraded_lines WHERE reason LIKE 'line of % bytes is over the 100-byte line cap%'",
    );
    let total = env.scalar("SELECT COUNT(*) FROM degraded_lines");
    assert!(long > 0);
    assert_eq!(long, total);
    let env = Env::new();
    env.run(&["config", "set", "ingest.max_file_size", "100"]);
    env.run(&["config", "set", "ingest.max_line_size", "1000000"]);
    let s = env.ingest(&fixtures());
    assert_eq!(s["sessions_degraded"], cold["sessions_degraded"]);
}

#[test]
fn bad_clock_and_bad_flags_exit_2() {
    let env = Env::new();
    let out = env
        .cmd()
        .env("SESSIONKIT_NOW", "noon")
        .args(["config", "list"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("SESSIONKIT_NOW=\"noon\" is not an RFC 3339 instant")
    );
    assert_eq!(env.run(&["sessions", "--format", "xml"]).0, 2);
    assert_eq!(env.run(&["sessions", "--json", "--format", "csv"]).0, 2);
}

fn assert_same(dir: &Path, generated: &[(String, Vec<u8>)]) {
    for (name, text) in generated {
        let path = dir.join(name);
        let on_disk = std::fs::read(&path).unwrap_or_default();
        assert!(
            on_disk == *text,
            "{} is stale: run `cargo run -- man --dir man && cargo run -- completions --dir completions`",
            path.display()
        );
    }
}

#[test]
fn checked_in_man_pages_and_completions_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_same(&root.join("man"), &sessionkit::man_pages().unwrap());
    let comps = sessionkit::completion_scripts();
    assert_same(&root.join("completions"), &comps);
    let env = Env::new();
    let (code, out, _) = env.run(&["completions", "bash"]);
    assert_eq!(code, 0);
    assert_eq!(out.as_bytes(), &comps[0].1[..]);
}

#[test]
fn broken_pipe_exits_0() {
    let env = Env::new();
    env.ingest(&fixtures());
    let (code, err) = env.run_into_closed_pipe(&["sessions", "--format", "jsonl"]);
    assert_eq!(code, Some(0), "{err}");
}
