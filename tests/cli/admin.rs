//! The foundation: database file, config, roots, completions and man pages.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::common::*;

#[test]
fn database_is_private_and_a_newer_one_is_refused() {
    let env = Env::new();
    let db = env.path("deep/dir/x.db");
    // --db in a missing directory is an error, and creates nothing
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
    // It says where it looked: every client's default folders.
    assert!(
        err.contains("no transcripts found (looked in ~/.claude/projects, "),
        "{err}"
    );
    for folder in [
        "~/.codex/sessions",
        "~/.gemini/tmp",
        "~/.pi/agent/sessions",
        "~/.local/share/opencode",
        "~/.kimi/sessions",
        "~/.cline/data/sessions",
        "~/.hermes",
    ] {
        assert!(err.contains(&format!(" {folder},")), "{folder}: {err}");
    }
    assert!(
        err.ends_with(", ~/.vibe/logs/session/unified); pass --root DIR\n"),
        "{err}"
    );
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

/// The older file-size setting is kept, as the line cap: with
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

/// Another application's database, or a file that is no database, given
/// as `--db` is refused in one line before anything changes it (it is not
/// switched to WAL, not migrated: the same bytes after).
#[test]
fn a_foreign_file_is_refused_unchanged() {
    let env = Env::new();
    let foreign = env.path("app.db");
    let c = rusqlite::Connection::open(&foreign).unwrap();
    c.execute_batch("CREATE TABLE notes(body TEXT); INSERT INTO notes VALUES ('mine');")
        .unwrap();
    drop(c);
    let text = env.path("notes.txt");
    std::fs::write(&text, "not a database at all\n").unwrap();
    for (path, says) in [
        (
            &foreign,
            "is not a sessionkit database (application id 0x0, schema version 0, 1 schema objects); nothing was changed",
        ),
        (
            &text,
            "is not a database sessionkit can open (file is not a database",
        ),
    ] {
        let before = std::fs::read(path).unwrap();
        let (code, out, err) = env.run(&["--db", path.to_str().unwrap(), "sessions"]);
        assert_eq!((code, out.as_str()), (2, ""), "{err}");
        assert!(err.contains(says), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert_eq!(std::fs::read(path).unwrap(), before, "{}", path.display());
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        assert!(!Path::new(&wal).exists());
    }
    // A database of an older sessionkit, from before the application id,
    // is still ours: its migration stamps it.
    // (The first migration's schema, at version 1, as the first builds
    // wrote it.)
    let db = env.path("older.db");
    let c = rusqlite::Connection::open(&db).unwrap();
    let first = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store/migrations/0001_init.sql"),
    )
    .unwrap();
    c.execute_batch(&first).unwrap();
    c.pragma_update(None, "user_version", 1).unwrap();
    let id = |c: &rusqlite::Connection| -> i64 {
        c.query_row("PRAGMA application_id", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(id(&c), 0);
    drop(c);
    let (code, _, err) = env.run(&["--db", db.to_str().unwrap(), "sessions"]);
    assert_eq!(code, 0, "{err}");
    let c = rusqlite::Connection::open(&db).unwrap();
    assert_eq!(id(&c), 0x534b_4954, "\"SKIT\"");
}

/// A migration that fails says so in one line, without its SQL.
#[test]
fn a_failed_migration_is_one_line() {
    let env = Env::new();
    let db = env.path("half.db");
    let c = rusqlite::Connection::open(&db).unwrap();
    // Version 1's tables, and a table migration 2 means to create.
    c.execute_batch(
        "CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT, updated_at INTEGER);
         CREATE TABLE projects(cwd TEXT PRIMARY KEY, project TEXT);
         CREATE TABLE sessions(session_id TEXT PRIMARY KEY);
         CREATE TABLE orchestration_edges(x);
         PRAGMA user_version = 1;",
    )
    .unwrap();
    drop(c);
    let (code, _, err) = env.run(&["--db", db.to_str().unwrap(), "sessions"]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("sessionkit: applying migration 0002_edges: "),
        "{err}"
    );
    assert!(!err.contains("CREATE"), "{err}");
}

/// A database that cannot be written (its file and folder another user's,
/// read-only to this one) is still read by the commands that read; a
/// command that writes says what it needs. Nothing is created beside it.
#[test]
fn a_read_only_database_is_read() {
    let env = Env::new();
    let dir = env.path("shared");
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("team.db");
    let (code, _, err) = env.run(&[
        "--db",
        db.to_str().unwrap(),
        "ingest",
        "--root",
        fixtures().to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    // Checkpointed and closed: only the database file is left.
    let c = rusqlite::Connection::open(&db).unwrap();
    c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)").unwrap();
    drop(c);
    for side in ["-wal", "-shm"] {
        let mut p = db.as_os_str().to_owned();
        p.push(side);
        let _ = std::fs::remove_file(Path::new(&p));
    }
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(env.dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    // Another user when this is root (root writes anything), else this
    // user with the folder and file made read-only.
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    let bin = assert_cmd::cargo::cargo_bin("sessionkit");
    let as_reader = |args: &[&str]| -> std::process::Output {
        let mut c = if root {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", "nobody", "--"]).arg(&bin);
            c
        } else {
            std::process::Command::new(&bin)
        };
        c.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", "/nonexistent")
            .arg("--db")
            .arg(&db)
            .args(args)
            .output()
            .unwrap()
    };
    if root {
        let probe = as_reader(&["--version"]);
        if !probe.status.success() {
            skip("runuser -u nobody cannot run this build's binary (its folder is private)");
            return;
        }
    } else {
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    }
    let out = as_reader(&["sessions", "--format", "jsonl"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 4);
    let out = as_reader(&[
        "remember",
        "--kind",
        "note",
        "--topic",
        "t",
        "--content",
        "c",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(
            "cannot be written (a command that writes needs write access to it and its folder)"
        ),
        "{err}"
    );
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(left, ["team.db"]);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `sessionkit man COMMAND` reads that command's page through the
/// system's `man` (plain text in a pipe), or prints its long help where
/// there is no `man`; `--roff` gives the source; an unknown command is an
/// error.
#[test]
fn man_shows_a_command_s_page_as_text() {
    let env = Env::new();
    let (code, out, err) = env.run(&["man", "cost"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains(".TH"), "{out}");
    assert!(out.contains("--harness"), "{out}");
    if std::process::Command::new("man")
        .arg("-w")
        .arg("man")
        .output()
        .is_ok()
    {
        assert!(out.contains("sessionkit-cost"), "{out}");
    }
    // No `man` on the PATH: the long help.
    let bare = env
        .cmd()
        .env("PATH", env.path("empty"))
        .args(["man", "memory", "show"])
        .output()
        .unwrap();
    assert!(bare.status.success());
    let text = String::from_utf8(bare.stdout).unwrap();
    assert!(text.starts_with("One memory"), "{text}");
    let (code, out, _) = env.run(&["man", "cost", "--roff"]);
    assert_eq!(code, 0);
    assert!(out.starts_with(".ie"), "{}", &out[..40.min(out.len())]);
    let (code, _, err) = env.run(&["man", "nosuch"]);
    assert_eq!(code, 2);
    assert!(err.contains("no page for \"nosuch\""), "{err}");
}
