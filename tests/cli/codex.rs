//! Codex rollouts, from a fixture cut
//! from a real Codex 0.171 run through ../shared/harness-rig (`spawn`: the
//! root thread calls `spawn_agent`, then `wait_agent`; the child answers;
//! see fixtures/README.md): discovery of the `YYYY/MM/DD` tree, the session
//! grouped from its threads, exact tokens, the tree, tail resume.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

const MAIN: &str = "01a23d7f-1853-7c10-87f6-12c6d9670f77";
const CHILD: &str = "01a23d7f-18e2-7242-b120-ff42ee4c16ee";
const DAY: &str = "2026/12/03";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/codex-0.171/sessions")
}

fn rollout(root: &Path, thread: &str) -> PathBuf {
    root.join(DAY)
        .join(format!("rollout-2026-12-03T20-01-09-{thread}.jsonl"))
}

fn session(env: &Env) -> Value {
    let all = env.json(&["sessions"]);
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), 1, "{all:?}");
    all[0].clone()
}

/// Four responses of 100 input tokens (20 cached) and 5 output tokens: three
/// of the root thread, one of the child. OpenAI counts cached input inside
/// `input_tokens`; it is kept as cache reads, the rest as input, so the
/// buckets add up to what the rollouts state and the cached part is priced
/// as cached (gpt-4.1: $2 input, $0.50 cached input, $8 output a million).
#[test]
fn a_codex_session_ingests_with_its_threads_and_exact_tokens() {
    let env = Env::new();
    let sum = env.ingest(&fixture());
    assert_eq!(sum["sessions_new"], 1, "{sum}");
    assert_eq!(sum["agents"], 2, "{sum}");
    assert_eq!(sum["token_rows"], 4, "{sum}");
    assert_eq!(sum["skipped_paths"], Value::Array(vec![]), "{sum}");
    let s = session(&env);
    assert_eq!(s["session_id"], MAIN);
    assert_eq!(s["harness"], "codex");
    assert_eq!(s["harness_version"], "0.171.0");
    assert_eq!(s["cwd"], "/home/dev/work/cxproj");
    assert_eq!(s["project_slug"], DAY);
    assert_eq!(s["models"], serde_json::json!(["gpt-4.1"]));
    assert_eq!(
        (
            s["messages"].as_u64(),
            s["input_tokens"].as_u64(),
            s["cache_read_tokens"].as_u64(),
            s["cache_write_5m_tokens"].as_u64(),
            s["output_tokens"].as_u64(),
            s["total_tokens"].as_u64(),
        ),
        (Some(4), Some(320), Some(80), Some(0), Some(20), Some(420))
    );
    // 320 × $2 + 80 × $0.50 + 20 × $8, per million: $0.00084.
    assert_eq!(s["cost_nanousd"], 840_000);
    assert_eq!(s["unpriced_tokens"], 0);
    // Each response is one message, under its response id.
    assert_eq!(
        env.scalar("SELECT count(*) FROM token_usage WHERE message_id LIKE 'resp_rig%'"),
        4
    );
}

/// The child thread hangs under the root thread by the `spawn_agent` call
/// whose output named it; it finished at its `task_complete`.
#[test]
fn a_codex_subagent_thread_is_joined_by_its_spawn_call() {
    let env = Env::new();
    env.ingest(&fixture());
    let tree = env.json(&["tree", MAIN]);
    let root = &tree["roots"][0];
    assert_eq!(root["agent_id"], MAIN);
    assert_eq!(root["messages"], 3);
    let kids = root["children"].as_array().unwrap();
    assert_eq!(kids.len(), 1, "{tree}");
    let child = &kids[0];
    assert_eq!(child["agent_id"], CHILD);
    assert_eq!(child["layout"], "thread");
    assert_eq!(child["join_path"], "tool_use");
    assert_eq!(child["tool_use_id"], "call_rig0ad5e65f634e4104");
    assert_eq!(child["status"], "completed");
    assert_eq!(child["description"], "Hume");
    assert_eq!(
        (
            child["messages"].as_u64(),
            child["input_tokens"].as_u64(),
            child["cache_read_tokens"].as_u64()
        ),
        (Some(1), Some(80), Some(20))
    );
    assert_eq!(root["subtree"]["messages"], 4);
}

/// A rollout that grew is read from where the last run stopped: the second
/// run reads only the appended bytes, and the totals equal a cold ingest.
#[test]
fn a_grown_rollout_is_read_from_where_the_last_run_stopped() {
    let env = Env::new();
    let root = env.path("sessions");
    copy_tree(&fixture(), &root);
    let main = rollout(&root, MAIN);
    let whole = std::fs::read(&main).unwrap();
    // Cut after the first response's usage record (the line holding it).
    let text = String::from_utf8(whole.clone()).unwrap();
    let first = text.find("\"type\":\"token_usage_record\"").unwrap();
    let cut = first + text[first..].find('\n').unwrap() + 1;
    std::fs::write(&main, &whole[..cut]).unwrap();
    let one = env.ingest(&root);
    assert_eq!(one["token_rows"], 2, "{one}"); // the root's first and the child's
    let s = session(&env);
    assert_eq!(s["messages"], 2);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&main)
        .unwrap();
    f.write_all(&whole[cut..]).unwrap();
    drop(f);
    let two = env.ingest(&root);
    assert_eq!(two["sessions_updated"], 1, "{two}");
    // The appended bytes, plus the 4 KiB at the start and the 4 KiB before
    // the offset hashed twice: checked before reading on, marked after.
    assert!(cut > 4096);
    assert_eq!(
        two["bytes_read"].as_u64(),
        Some((whole.len() - cut) as u64 + 4 * 4096),
        "{two}"
    );
    let grown = session(&env);
    let cold = Env::new();
    cold.ingest(&root);
    let want = session(&cold);
    for k in [
        "messages",
        "input_tokens",
        "cache_read_tokens",
        "output_tokens",
        "cost_nanousd",
        "agents",
        "records",
    ] {
        assert_eq!(grown[k], want[k], "{k}");
    }
    assert_eq!(grown["messages"], 4);
}

/// A subagent thread whose root thread's rollout is not there is named as
/// an orphan, not lost silently, and not made a session of its own.
#[test]
fn a_thread_without_its_root_is_named_an_orphan() {
    let env = Env::new();
    let root = env.path("sessions");
    copy_tree(&fixture(), &root);
    std::fs::remove_file(rollout(&root, MAIN)).unwrap();
    let sum = env.ingest(&root);
    assert_eq!(sum["sessions_new"], 0, "{sum}");
    assert_eq!(sum["skipped"]["orphan-agent"], 1, "{sum}");
    let paths = sum["skipped_paths"].to_string();
    assert!(
        paths.contains(&format!("{DAY}/rollout-2026-12-03T20-01-09-{CHILD}.jsonl")),
        "{paths}"
    );
}

/// Claude Code's projects and Codex's sessions in one run: each session
/// under its own harness.
#[test]
fn claude_and_codex_roots_ingest_together() {
    let env = Env::new();
    let claude = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/claude-2.1.332/projects");
    let out = env.json(&[
        "ingest",
        "--root",
        claude.to_str().unwrap(),
        "--root",
        fixture().to_str().unwrap(),
    ]);
    assert_eq!(
        out["skipped_paths"].as_array().map(Vec::len),
        Some(0),
        "{out}"
    );
    let harnesses = env.text(
        "SELECT group_concat(harness || ':' || n, ',') FROM (SELECT harness, count(*) n FROM sessions GROUP BY harness ORDER BY harness) WHERE ?1 = ?1",
        "",
    );
    assert!(harnesses.starts_with("claude-code:"), "{harnesses}");
    assert!(harnesses.ends_with(",codex:1"), "{harnesses}");
}

/// With no `--root`, Codex's sessions are read from `$CODEX_HOME/sessions`,
/// else `~/.codex/sessions`, beside Claude Code's projects.
#[test]
fn codex_sessions_are_a_default_root() {
    Env::assert_default_root(
        &fixture(),
        ".codex/sessions",
        ("CODEX_HOME", "cx", "sessions"),
    );
}

/// A rollout from a Codex version before `token_usage_record` (the shape
/// ccusage's own test fixture shows: `turn_context` and
/// `event_msg/token_count` with `info.total_token_usage`,
/// `last_token_usage` and `model`): each response counted once from its
/// `token_count`, the cached part out of the input, the row's model.
#[test]
fn an_older_rollout_counts_its_token_count_events() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/public/ccusage/codex-session-alpha.jsonl");
    if !sample.exists() {
        crate::support::skip("ccusage's Codex sample is not beside the repository");
        return;
    }
    let env = Env::new();
    let root = env.path("sessions");
    let thread = "01a00000-0000-7000-8000-00000000c0de";
    let path = root.join(format!(
        "2026/05/13/rollout-2026-05-13T09-00-00-{thread}.jsonl"
    ));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::copy(&sample, &path).unwrap();
    let s = env.ingest(&root);
    assert_eq!(
        (s["sessions_new"].as_u64(), s["messages_read"].as_u64()),
        (Some(1), Some(2)),
        "{s}"
    );
    // 1,000 - 250 and 2,500 - 500 input; 250 + 500 cached; 125 + 300 output.
    assert_eq!(db_by_session(&env)[thread], [2750, 425, 0, 0, 750]);
    let by_model = db_by_model(&env);
    assert_eq!(by_model["gpt-5.2-codex"], [750, 125, 0, 0, 250]);
    assert_eq!(by_model["gpt-5.3-codex"], [2000, 300, 0, 0, 500]);
}

/// An archived Codex session (`~/.codex/archived_sessions/rollout-*.jsonl`,
/// flat, its subagent thread's rollout beside it): read with its thread and
/// the same tokens as from the date tree, and found with no `--root`.
#[test]
fn archived_rollouts_are_read_flat_and_by_default() {
    let env = Env::new();
    let archived = env.path("home/.codex/archived_sessions");
    std::fs::create_dir_all(&archived).unwrap();
    for thread in [MAIN, CHILD] {
        let from = rollout(&fixture(), thread);
        std::fs::copy(&from, archived.join(from.file_name().unwrap())).unwrap();
    }
    let s = env.ingest_defaults(&[]);
    assert_eq!(
        (
            s["roots"].as_u64(),
            s["sessions_new"].as_u64(),
            s["agents"].as_u64(),
            s["skipped_paths"].as_array().map(Vec::len)
        ),
        (Some(1), Some(1), Some(2), Some(0)),
        "{s}"
    );
    let from_archive = db_by_session(&env)[MAIN];
    let fresh = Env::new();
    fresh.ingest(&fixture());
    assert_eq!(from_archive, db_by_session(&fresh)[MAIN]);
}

/// A fork (`codex fork`, or a subagent started from its parent's context)
/// in a Codex version that copies the parent's history into the new
/// rollout: the fork's own `session_meta` (with `forked_from_id`), then the
/// parent's items as they were, its `session_meta` first, then the fork's
/// own turns, whose running totals go on from the parent's. The copied
/// `token_count` events are the parent's messages: with both rollouts read
/// (in either order, or in two runs) they count once; the fork read alone
/// still counts them once.
#[test]
fn a_fork_does_not_count_its_parents_history_again() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/public/ccusage/codex-session-alpha.jsonl");
    if !sample.exists() {
        crate::support::skip("ccusage's Codex sample is not beside the repository");
        return;
    }
    let parent = "01a00000-0000-7000-8000-0000000000aa";
    let fork = "01a00000-0000-7000-8000-0000000000bb";
    let meta = |id: &str, extra: &str| {
        format!(
            r#"{{"timestamp":"2026-05-13T09:00:00.000Z","type":"session_meta","payload":{{"id":"{id}","cwd":"/w","cli_version":"0.98.0"{extra}}}}}"#
        )
    };
    let history = std::fs::read_to_string(&sample).unwrap();
    let parent_text = format!("{}\n{history}", meta(parent, ""));
    let own = r#"{"timestamp":"2026-05-15T08:00:00.000Z","type":"event_msg","payload":{"type":"token_count","info":{"model":"gpt-5.3-codex","last_token_usage":{"input_tokens":4000,"cached_input_tokens":3000,"output_tokens":50,"total_tokens":4050},"total_token_usage":{"input_tokens":7500,"cached_input_tokens":3750,"output_tokens":475,"total_tokens":7975}}}}"#;
    let fork_text = format!(
        "{}\n{parent_text}{own}\n",
        meta(fork, &format!(r#","forked_from_id":"{parent}""#))
    );
    let write = |root: &Path, id: &str, text: &str| {
        let path = root.join(format!("2026/05/15/rollout-2026-05-15T08-00-00-{id}.jsonl"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    let parent_tokens = [2750, 425, 0, 0, 750];
    // 4,000 input of which 3,000 cached; 50 output.
    let own_tokens = [1000, 50, 0, 0, 3000];

    // Both, in one run.
    let env = Env::new();
    let root = env.path("sessions");
    write(&root, parent, &parent_text);
    write(&root, fork, &fork_text);
    env.ingest(&root);
    let both = db_by_session(&env);
    assert_eq!(both[parent], parent_tokens);
    assert_eq!(both[fork], own_tokens);

    // The fork first, then its parent: the same.
    let env = Env::new();
    let root = env.path("sessions");
    write(&root, fork, &fork_text);
    env.ingest(&root);
    let alone = db_by_session(&env);
    let sum: Vec<u64> = (0..5).map(|i| parent_tokens[i] + own_tokens[i]).collect();
    assert_eq!(
        alone[fork].to_vec(),
        sum,
        "read alone, the copy counts once"
    );
    write(&root, parent, &parent_text);
    env.ingest(&root);
    let total: Vec<u64> = (0..5)
        .map(|i| db_by_session(&env).values().map(|t| t[i]).sum())
        .collect();
    assert_eq!(total, sum, "the copied history is not counted twice");
}

/// A real fork by Codex 0.171 (see fixtures/README.md): the fork's rollout
/// names its parent and does not copy it; its own response counts, and the
/// running total it carries on from the parent's is not read.
#[test]
fn a_real_codex_fork_counts_its_own_response() {
    let env = Env::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/codex-0.171-fork/sessions");
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"].as_u64(), Some(2), "{s}");
    let by = db_by_session(&env);
    assert_eq!(
        by["01a24400-92f7-7452-9d11-8db3c5707d05"],
        [80, 5, 0, 0, 20]
    );
    assert_eq!(
        by["01a24400-cca1-7c32-aed3-086cf21bb188"],
        [80, 5, 0, 0, 20]
    );
}

/// A client's home given as the root (`--root ~/.codex`, `--root
/// ~/.claude`) is read where that client keeps its sessions, and says so.
#[test]
fn a_clients_home_as_the_root_reads_its_sessions() {
    let env = Env::new();
    let home = env.path("home");
    copy_tree(&fixture(), &home.join(".codex/sessions"));
    std::fs::write(home.join(".codex/config.toml"), "model = \"gpt-4.1\"\n").unwrap();
    copy_tree(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/claude/projects"),
        &home.join(".claude/projects"),
    );
    for (dir, sessions) in [(".codex", 1), (".claude", 4)] {
        let root = home.join(dir);
        let (code, out, err) = env.run(&[
            "ingest",
            "--root",
            root.to_str().unwrap(),
            "--format",
            "json",
        ]);
        assert_eq!(code, 0, "{err}");
        let s: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(s["sessions_new"].as_u64(), Some(sessions), "{dir}: {s}");
        assert!(err.contains("is a client's home: reading"), "{err}");
    }
    assert_eq!(env.json(&["sessions"]).as_array().unwrap().len(), 5);
}
