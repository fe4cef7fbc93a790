//! `sessions`, `show`, `prune` and the output formats.

use crate::common::*;
use serde_json::Value;

fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s["session_id"].as_str().unwrap()[..4].to_string())
        .collect()
}

#[test]
fn sessions_filters() {
    let env = Env::new();
    env.ingest(&fixtures());
    assert_eq!(
        ids(&env.json(&["sessions"])),
        ["4444", "3333", "2222", "1111"]
    );
    assert_eq!(
        ids(&env.json(&["sessions", "--project", "alpha"])),
        ["2222", "1111"]
    );
    assert_eq!(
        ids(&env.json(&["sessions", "--project=-home-dev-beta"])),
        ["4444", "3333"]
    );
    assert_eq!(
        ids(&env.json(&["sessions", "--since", "2026-01-12"])),
        ["4444", "3333"]
    );
    assert_eq!(
        ids(&env.json(&["sessions", "--until", "2026-01-11T09:00:00Z"])),
        ["2222", "1111"]
    );
    // SESSIONKIT_NOW is 2026-02-01: 21 days back is 2026-01-11T00:00Z.
    assert_eq!(
        ids(&env.json(&["sessions", "--since", "21d"])),
        ["4444", "3333", "2222"]
    );
    assert_eq!(ids(&env.json(&["sessions", "--limit", "1"])), ["4444"]);
    assert_eq!(
        env.json(&["sessions", "--project", "nope"]),
        serde_json::json!([])
    );
    let (code, _, err) = env.run(&["sessions", "--since", "last tuesday"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not a time"), "{err}");
}

#[test]
fn piped_output_is_json_lines_and_csv_is_flat() {
    let env = Env::new();
    env.ingest(&fixtures());
    let (code, out, _) = env.run(&["sessions", "--project", "beta"]);
    assert_eq!(code, 0);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["session_id"], C);
    let (_, csv, _) = env.run(&["sessions", "--project", "alpha", "--format", "csv"]);
    let expected = format!(
        "session_id,title,harness,status,project,started_at,last_activity_at,agents,models,input_tokens,output_tokens,cache_write_5m_tokens,cache_write_1h_tokens,cache_read_tokens,total_tokens,cost_usd,unpriced_tokens,degraded_lines\n\
         {B},Run the tests,claude-code,unknown,alpha,2026-01-11T09:00:00.000Z,2026-01-11T09:01:00.000Z,2,claude-haiku-4-5-20251001;claude-sonnet-4-5-20250929,8,81,700,0,7111,7900,0.005863,0,0\n\
         {A},Where is the config?,claude-code,unknown,alpha,2026-01-10T10:00:00.000Z,2026-01-10T10:02:00.000Z,2,<synthetic>;claude-haiku-4-5-20251001;claude-sonnet-4-5-20250929,20,130,150,300,850,1450,0.004103,0,0\n"
    );
    assert_eq!(csv, expected);
}

#[test]
fn table_output_is_aligned_and_grouped() {
    let env = Env::new();
    env.ingest(&fixtures());
    let (_, out, _) = env.run(&[
        "sessions",
        "--project",
        "beta",
        "--format",
        "table",
        "--color",
        "never",
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("SESSION"), "{out}");
    assert!(lines[2].starts_with(C), "{out}");
    assert!(lines[2].contains("15,000"), "{out}");
    assert!(!out.contains('\x1b'));
}

#[test]
fn show_resolves_prefixes_and_refuses_csv() {
    let env = Env::new();
    env.ingest(&fixtures());
    assert_eq!(env.json(&["show", "2222"])["session_id"], B);
    let (code, _, err) = env.run(&["show", "9999"]);
    assert_eq!(code, 2);
    assert!(err.contains("no session matches \"9999\""), "{err}");
    let (code, _, err) = env.run(&["show", ""]);
    assert_eq!(code, 2);
    assert!(err.contains("matches 4 sessions"), "{err}");
    let (code, _, err) = env.run(&["show", A, "--format", "csv"]);
    assert_eq!(code, 2);
    assert!(err.contains("invalid value 'csv'"), "{err}");
    // Asked for where every command's formats are taken, the same answer.
    let (code, _, err) = env.run(&["--format", "csv", "show", A]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot be printed as csv"), "{err}");
    let (code, out, _) = env.run(&["show", A, "--format", "table"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("\nAgents\n") && out.contains("side-root-1"),
        "{out}"
    );
}

#[test]
fn prune_removes_old_sessions_and_keeps_them_out() {
    let env = Env::new();
    env.ingest(&fixtures());
    let (code, out, _) = env.run(&[
        "prune",
        "--before",
        "2026-01-12",
        "--dry-run",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "a dry run that would change things exits 1");
    let r: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (
            r["sessions"].as_u64(),
            r["agents"].as_u64(),
            r["token_rows"].as_u64()
        ),
        (Some(2), Some(4), Some(7))
    );
    assert_eq!(
        ids(&env.json(&["sessions"])).len(),
        4,
        "dry run changed nothing"
    );
    let r = env.json(&["prune", "--before", "2026-01-12", "--project", "alpha"]);
    assert_eq!(r["sessions"], 2);
    assert_eq!(ids(&env.json(&["sessions"])), ["4444", "3333"]);
    // Unchanged files stay out on the next ingest; replay brings them back.
    let s = env.ingest(&fixtures());
    assert_eq!(
        (s["sessions_new"].as_u64(), s["sessions_unchanged"].as_u64()),
        (Some(0), Some(4))
    );
    env.json(&["replay", "--root", fixtures().to_str().unwrap()]);
    assert_eq!(ids(&env.json(&["sessions"])).len(), 4);
}

#[test]
fn replay_keeps_sessions_whose_files_are_gone() {
    let env = Env::new();
    let root = env.path("corpus");
    copy_tree(&fixtures(), &root);
    env.ingest(&root);
    // Claude Code's 30-day cleanup deletes A's transcript.
    std::fs::remove_file(root.join(format!("-home-dev-alpha/{A}.jsonl"))).unwrap();
    let r = env.json(&["replay", "--root", root.to_str().unwrap()]);
    assert_eq!(
        (
            r["sessions_updated"].as_u64(),
            r["sessions_retained"].as_u64()
        ),
        (Some(3), Some(1))
    );
    assert_eq!(db_by_session(&env)[A], [20, 130, 150, 300, 850]);
}

#[test]
fn costs_are_exact_and_unknown_models_stay_unpriced() {
    let env = Env::new();
    env.ingest(&fixtures());
    let b = env.json(&["show", B]);
    // msg_B1 (Sonnet 4.5: 3/15/3.75/0.3 $/MTok): 7×3 + 70×15 + 700×3.75 + 7000×0.3 = 5,796
    // msg_F1 (Haiku 4.5: 1/5/0.1):               1×1 + 11×5 + 111×0.1          =    67.1
    // → $0.0058631 = 5,863,100 nano-dollars.
    assert_eq!(b["cost_nanousd"], 5_863_100);
    assert_eq!(b["cost_usd"], 0.005863);
    assert_eq!(b["unpriced_tokens"], 0);
    // an unknown model keeps its tokens and has no cost, never 0.
    let root = env.path("unknown");
    let sid = "cccccccc-0000-4000-8000-000000000001";
    let line = |mid: &str, model: &str, out: u64| {
        format!(
            r#"{{"type":"assistant","sessionId":"{sid}","timestamp":"2026-01-05T00:00:00Z","message":{{"id":"{mid}","model":"{model}","usage":{{"input_tokens":10,"output_tokens":{out}}}}}}}"#
        )
    };
    std::fs::create_dir_all(root.join("-w")).unwrap();
    std::fs::write(
        root.join(format!("-w/{sid}.jsonl")),
        format!(
            "{}\n{}\n",
            line("u1", "claude-made-up-9", 5),
            line("u2", "claude-haiku-4-5-20251001", 100)
        ),
    )
    .unwrap();
    env.ingest(&root);
    let s = env.json(&["show", sid]);
    assert_eq!(
        s["unpriced_tokens"], 15,
        "10 in + 5 out of the unknown model"
    );
    assert_eq!(
        s["cost_nanousd"], 510_000,
        "10×1 + 100×5 for the priced message only"
    );
    let by: Vec<(String, Value)> = s["by_model"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["model"].as_str().unwrap().to_string(),
                m["cost_usd"].clone(),
            )
        })
        .collect();
    assert_eq!(by[1], ("claude-made-up-9".to_string(), Value::Null));
    // For CI, --strict-pricing halts such a session instead (exit 1).
    let strict = Env::new();
    let (code, out, _) = strict.run(&[
        "ingest",
        "--strict-pricing",
        "--root",
        root.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    let s: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(s["sessions_failed"], 1);
    assert_eq!(
        s["failures"][0]["reason"],
        "--strict-pricing: model \"claude-made-up-9\" has no price (sessionkit pricing set)"
    );
    let (code, out, _) = env.run(&["check", "--no-recount", "--format", "jsonl"]);
    assert_eq!(code, 1, "check reports unpriced tokens");
    let f: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(f["kind"], "unpriced-model");
    assert_eq!(
        f["detail"],
        "claude-made-up-9: 15 tokens in 1 messages have no price (sessionkit pricing set claude-made-up-9 --input USD --output USD)"
    );
    // `cost` and `show` name it too, with the command that prices it.
    let fix = "no price for model \"claude-made-up-9\": its cost is left out (-); set one with `sessionkit pricing set claude-made-up-9 --input USD --output USD`";
    let (_, _, err) = env.run(&["cost", "--format", "json"]);
    assert!(err.contains(fix), "{err}");
    let sessions = env.json(&["sessions"]);
    let named = sessions
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| {
            let (_, _, err) = env.run(&[
                "show",
                s["session_id"].as_str().unwrap(),
                "--format",
                "json",
            ]);
            err.contains(fix)
        })
        .count();
    assert_eq!(named, 1, "the one session with the model");
}
