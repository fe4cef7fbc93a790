//! Every client sessionkit reads is declared whole: `--harness` takes its
//! name and its aliases the same way on every command, a golden directory
//! holds its sessions, README's agents table names it; a name it does not
//! know is refused everywhere, with the names it knows.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

use crate::common::*;

/// The harness names `--harness` takes, as its refusal lists them.
fn names(env: &Env) -> Vec<String> {
    let (code, _, err) = env.run(&["sessions", "--harness", "no-such-client"]);
    assert_eq!(code, 2);
    let list = err
        .split("[possible values: ")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .unwrap_or_else(|| panic!("{err}"));
    list.split(", ").map(str::to_string).collect()
}

/// The harness of every session `env` holds.
fn harnesses(env: &Env) -> BTreeSet<String> {
    env.json(&["sessions"])
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["harness"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_client_has_a_golden_directory_and_a_row_in_readme() {
    let env = Env::new();
    let names = names(&env);
    assert!(names.len() >= 7, "{names:?}");
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/golden");
    for e in std::fs::read_dir(&golden).unwrap() {
        let corpus = e.unwrap().path().join("corpus");
        for root in std::fs::read_dir(&corpus).unwrap() {
            let root = root.unwrap().path();
            if root.is_dir() {
                env.ingest(&root);
            }
        }
    }
    let read = harnesses(&env);
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let table: Vec<&str> = readme
        .split("### The agents it reads")
        .nth(1)
        .expect("README has its agents table")
        .lines()
        .filter(|l| l.starts_with("| "))
        .collect();
    for name in &names {
        assert!(
            read.contains(name),
            "no golden directory holds a {name} session: {read:?}"
        );
        assert!(
            table.iter().any(|row| row.contains(&format!("`{name}`"))),
            "README's agents table has no row for {name}"
        );
    }
}

#[test]
fn an_alias_is_its_client_s_name_on_every_command() {
    let env = Env::with_fixtures(&["claude/projects", "codex-0.171/sessions"]);
    let ids = |args: &[&str]| -> Vec<String> {
        let v: Value = env.json(args);
        let mut ids: Vec<String> = v
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["session_id"].as_str().unwrap().to_string())
            .collect();
        ids.sort();
        ids
    };
    let by_name = ids(&["sessions", "--harness", "claude-code"]);
    assert_eq!(by_name.len(), 4);
    assert_eq!(ids(&["sessions", "--harness", "claude"]), by_name);
    let search = |h: &str| {
        let (code, out, err) = env.run(&["search", "--harness", h, "--format", "json", "hello"]);
        (code, out, err.lines().next().unwrap_or("").to_string())
    };
    // The first search indexes what the sessions said (and says so).
    let (_, _, first) = search("claude-code");
    assert!(
        first.starts_with("sessionkit: indexed what was said in"),
        "{first}"
    );
    assert_eq!(search("claude"), search("claude-code"));
    // `ingest --harness` takes the alias too, and reads only that client.
    let fresh = Env::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let (code, _, err) = fresh.run(&[
        "ingest",
        "--harness",
        "claude",
        "--root",
        root.join("claude/projects").to_str().unwrap(),
        "--root",
        root.join("codex-0.171/sessions").to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let harnesses = harnesses(&fresh);
    assert_eq!(harnesses, BTreeSet::from(["claude-code".to_string()]));
    // A name no client has is refused by each, with the names it knows.
    for args in [
        &["sessions", "--harness", "claud"][..],
        &["search", "--harness", "claud", "x"],
        &["ingest", "--harness", "claud"],
    ] {
        let (code, _, err) = env.run(args);
        assert_eq!(code, 2, "{args:?}");
        assert!(
            err.contains("possible values: claude-code, codex"),
            "{args:?}: {err}"
        );
    }
}
