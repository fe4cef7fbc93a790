//! `sessionkit sources`: the agents found in their default folders, their
//! sessions, how many the database holds, and what is not read and why.

use std::path::Path;

use serde_json::Value;

use crate::common::*;

fn fixture(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

#[test]
fn sources_lists_each_agent_found_and_what_is_ingested() {
    let env = Env::new();
    copy_tree(
        &fixture("pi-0.73/sessions"),
        &env.path("home/.pi/agent/sessions"),
    );
    copy_tree(
        &fixture("qwen-0.24/projects"),
        &env.path("home/.qwen/projects"),
    );
    copy_tree(
        &fixture("copilot-1.0/session-state"),
        &env.path("home/.copilot/session-state"),
    );
    copy_tree(
        &fixture("claude/projects"),
        &env.path("home/.claude/projects"),
    );
    std::fs::write(env.path("home/.claude/projects/notes.txt"), "x").unwrap();
    let rows = |env: &Env| -> Vec<(String, u64, Value, Value)> {
        let (code, out, err) = env.run(&["sources", "--format", "jsonl"]);
        assert_eq!(code, 0, "{err}");
        out.lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .map(|r| {
                (
                    r["harness"].as_str().unwrap().to_string(),
                    r["sessions"].as_u64().unwrap(),
                    r["ingested"].clone(),
                    r["skipped"].clone(),
                )
            })
            .collect()
    };
    // No database yet: nothing ingested is known, and none is created.
    assert_eq!(
        rows(&env),
        [
            (
                "claude-code".into(),
                4,
                Value::Null,
                serde_json::json!({"non-artifact": 1})
            ),
            ("copilot".into(), 1, Value::Null, serde_json::json!({})),
            ("qwen-code".into(), 1, Value::Null, serde_json::json!({})),
            ("pi".into(), 1, Value::Null, serde_json::json!({})),
        ]
    );
    assert!(!env.db().exists());
    env.ingest_defaults(&[]);
    let after: Vec<Value> = rows(&env).into_iter().map(|r| r.2).collect();
    assert_eq!(after, [4, 1, 1, 1]);
}

#[test]
fn sources_with_nothing_found_says_so() {
    let env = Env::new();
    std::fs::create_dir_all(env.path("home")).unwrap();
    let (code, out, err) = env.run(&["sources"]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(err.contains("no agent's transcripts found"), "{err}");
}

/// With `COLUMNS`, a table's cells wrap to fit it, a wrapped cell's
/// continuation staying under its own column; without, a pipe gets whole
/// lines.
#[test]
fn tables_fit_columns_when_it_is_set() {
    let env = Env::new();
    copy_tree(
        &fixture("pi-0.73/sessions"),
        &env.path("home/.pi/agent/sessions"),
    );
    env.ingest_defaults(&[]);
    let table = |columns: Option<&str>, args: &[&str]| -> String {
        let mut c = env.cmd();
        if let Some(w) = columns {
            c.env("COLUMNS", w);
        }
        let out = c.args(args).args(["--format", "table"]).output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    for args in [&["sources"][..], &["sessions"][..]] {
        let narrow = table(Some("80"), args);
        let widest = narrow.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= 80, "{args:?} at 80 columns:\n{narrow}");
        // Without a width the lines are whole: wider than 80.
        let whole = table(None, args);
        let whole_widest = whole.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(whole_widest > 80, "{whole}\n{narrow}");
    }
    // At 80 `sources` leaves out its bytes and ingested counts first; the
    // root, still too long, wraps under the ROOT header.
    let narrow = table(Some("80"), &["sources"]);
    assert!(!narrow.contains("BYTES"), "{narrow}");
    let col = narrow.lines().next().unwrap().find("ROOT").unwrap();
    let continued: Vec<&str> = narrow.lines().skip(2).collect();
    assert!(
        continued
            .iter()
            .any(|l| l.len() > col && l[..col].trim().is_empty()),
        "{narrow}"
    );
}
