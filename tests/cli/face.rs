//! What a person sees when there is nothing to show, and the commands that
//! work alone: each empty result says so on stderr with the next step,
//! prints nothing on stdout (a table) and exits 0; `schema` alone lists the
//! schemas, `config` alone the settings.

use serde_json::Value;

use crate::common::*;

#[test]
fn empty_results_say_so_on_stderr() {
    let env = Env::new();
    let cases: [(&[&str], &str); 6] = [
        (
            &["sessions"],
            "no sessions: the database holds none yet; `sessionkit ingest` reads your agents' transcripts",
        ),
        (
            &["cost"],
            "no usage: the database holds no session yet; `sessionkit ingest` reads your agents' transcripts",
        ),
        (
            &["memories"],
            "no memories yet: `sessionkit remember` stores one",
        ),
        (&["memories", "--kind", "decision"], "no memories match"),
        (
            &["status"],
            "no agent is working (`sessionkit status --all` lists the finished ones too)",
        ),
        (&["recall", "anything"], "no memories match"),
    ];
    for (args, said) in cases {
        let (code, out, err) = env.run(&[args, &["--format", "table"]].concat());
        assert_eq!((code, out.as_str()), (0, ""), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
    }
    // With sessions stored, a filter that matches none says that instead.
    env.ingest(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pi-0.73/sessions"));
    let (code, out, err) = env.run(&["sessions", "--project", "nope", "--format", "table"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("no sessions match"), "{err}");
    let (code, out, err) = env.run(&["cost", "--since", "2030-01-01", "--format", "table"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(
        err.contains("no messages in this period or selection"),
        "{err}"
    );
}

#[test]
fn schema_and_config_alone_list() {
    let env = Env::new();
    let (code, out, err) = env.run(&["schema"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
    let names: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    for c in ["sessions", "cost", "tree", "config", "sources"] {
        assert!(names.contains(&c), "{c}: {out}");
    }
    let (code, out, err) = env.run(&["config", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let rows: Value = serde_json::from_str(&out).unwrap();
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .any(|r| r["key"] == "watchdog.minutes"),
        "{out}"
    );
}

/// `--until` a date includes that day (as `--since` a date starts it):
/// the pi fixture's responses fall on 2026-12-04 and 2026-12-05.
#[test]
fn until_a_date_includes_that_day() {
    let env = Env::new();
    env.ingest(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pi-0.73/sessions"));
    let days = |args: &[&str]| -> Vec<String> {
        let v = env.json(&[&["cost", "--by", "day", "--tz", "UTC"], args].concat());
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| r["day"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(days(&[]), ["2026-12-04", "2026-12-05"]);
    assert_eq!(days(&["--until", "2026-12-04"]), ["2026-12-04"]);
    assert_eq!(days(&["--since", "2026-12-05"]), ["2026-12-05"]);
    assert_eq!(
        days(&["--since", "2026-12-04", "--until", "2026-12-05"]),
        ["2026-12-04", "2026-12-05"]
    );
    let (_, out, _) = env.run(&["sessions", "--until", "2026-12-04", "--format", "json"]);
    assert_eq!(
        serde_json::from_str::<Value>(&out)
            .unwrap()
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

/// `sessions` shows each session's harness and status, and `--harness`
/// keeps one agent's sessions.
#[test]
fn sessions_show_harness_and_status_and_filter_by_harness() {
    let env = Env::new();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    env.ingest(&fixtures.join("pi-0.73/sessions"));
    env.ingest(&fixtures.join("qwen-0.24/projects"));
    let (code, out, err) = env.run(&["sessions", "--format", "table"]);
    assert_eq!(code, 0, "{err}");
    let head = out.lines().next().unwrap();
    assert!(
        head.starts_with("SESSION") && head.contains("HARNESS") && head.contains("STATUS"),
        "{head}"
    );
    assert!(out.contains("qwen-code") && out.contains(" pi "), "{out}");
    let only = env.json(&["sessions", "--harness", "pi"]);
    let harnesses: Vec<&str> = only
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["harness"].as_str().unwrap())
        .collect();
    assert_eq!(harnesses, ["pi"]);
    let (code, _, err) = env.run(&["sessions", "--harness", "nope"]);
    assert_eq!(code, 2, "{err}");
}

/// README's quick start for the user's own data runs as written on a fresh
/// home whose agents' folders hold the fixtures: each command it names
/// exits 0, the ingest finds the sessions, the cost has rows, and the
/// hooks land in the agents' settings.
#[test]
fn the_readme_quick_start_runs_as_written() {
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(repo.join("README.md")).unwrap();
    let (at, line) = readme
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("Then, on your own agents' data"))
        .expect("the quick start line");
    assert!(
        at < 15,
        "the quick start is within the first 15 lines ({at})"
    );
    let commands: Vec<Vec<&str>> = line
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|c| c.starts_with("sessionkit "))
        .map(|c| c.split_whitespace().skip(1).collect())
        .collect();
    assert_eq!(commands.len(), 3, "{line}");
    let env = Env::new();
    let home = env.path("home");
    copy_tree(
        &repo.join("fixtures/claude/projects"),
        &home.join(".claude/projects"),
    );
    copy_tree(
        &repo.join("fixtures/pi-0.73/sessions"),
        &home.join(".pi/agent/sessions"),
    );
    let db = home.join(".local/share/sessionkit/sessionkit.db");
    for args in &commands {
        let out = env
            .std_cmd()
            .env_remove("SESSIONKIT_DB")
            .env("HOME", &home)
            .env_remove("XDG_DATA_HOME")
            .args(args.iter().filter(|a| !a.starts_with("--db")))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(db.exists(), "the database is where README says");
    let c = rusqlite::Connection::open(&db).unwrap();
    let sessions: i64 = c
        .query_row("SELECT COUNT(*) FROM sessions", [], |r| r.get(0))
        .unwrap();
    assert!(sessions >= 2, "{sessions}");
    let settings = std::fs::read_to_string(home.join(".claude/settings.json")).unwrap();
    assert!(settings.contains("sessionkit"), "{settings}");
}

/// A first sweep over sessions silent for months settles them without
/// listing each as a change: history, not news (one line says how many);
/// a session silent for less than `sweep.history_hours` is still listed.
#[test]
fn a_sweep_settles_history_without_listing_it() {
    let env = Env::new();
    env.ingest(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pi-0.73/sessions"));
    let sweep = |now: &str| {
        let out = env
            .cmd()
            .env("SESSIONKIT_NOW", now)
            .args(["sweep", "--dry-run", "--format", "json"])
            .output()
            .unwrap();
        let rows: Value = serde_json::from_slice(&out.stdout).unwrap();
        let watchdog = rows
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["action"] == "watchdog")
            .count();
        (watchdog, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    // The fixture's last activity is 2026-12-05T09:00:05Z.
    let (listed, err) = sweep("2027-03-01T00:00:00Z");
    assert_eq!(listed, 0, "{err}");
    assert!(err.contains("1 agent(s) silent for more than sweep.history_hours would be settled as unknown without a listing"), "{err}");
    let (listed, err) = sweep("2026-12-05T10:00:00Z");
    assert_eq!(listed, 1, "{err}");
}

/// A table that fits a width shows ids as their shortest unique prefix
/// (which `show` takes); `--wide` shows them whole; a pipe without
/// `COLUMNS` gets whole ids too.
#[test]
fn tables_shorten_ids_to_unique_prefixes() {
    let env = Env::new();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    env.ingest(&fixtures.join("pi-0.73/sessions"));
    env.ingest(&fixtures.join("qwen-0.24/projects"));
    let table = |extra: &[&str]| -> String {
        let o = env
            .cmd()
            .env("COLUMNS", "250")
            .args([&["sessions", "--format", "table"], extra].concat())
            .output()
            .unwrap();
        String::from_utf8(o.stdout).unwrap()
    };
    let short = table(&[]);
    let first: Vec<&str> = short
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(first.len(), 2, "{short}");
    for id in &first {
        assert!(id.ends_with('…') && id.chars().count() == 9, "{id}");
        let prefix = id.trim_end_matches('…');
        let show = env.json(&["show", prefix]);
        assert!(show["session_id"].as_str().unwrap().starts_with(prefix));
    }
    let wide = table(&["--wide"]);
    assert!(
        wide.contains("01a24232-e13b-774b-bf98-007af842d15e"),
        "{wide}"
    );
    let (_, piped, _) = env.run(&["sessions", "--format", "table"]);
    assert!(
        piped.contains("01a24232-e13b-774b-bf98-007af842d15e"),
        "{piped}"
    );
}
