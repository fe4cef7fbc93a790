//! Ingest in any order and in parts equals one cold ingest, for the
//! readers of pi, Qwen Code, Copilot CLI, OpenCode, Kimi CLI and Factory
//! Droid, on sessions from
//! `tests/bench/agentgen.py` (each client's shape, with its traps: repeated
//! and cumulative records, telemetry copies, abandoned branches, tagged
//! subagents). The cold ingest equals the generator's totals; then, in a
//! fresh database, the sessions arrive in a shuffled order, each file in
//! pieces cut at random byte offsets (mid-line too), or for OpenCode its
//! rows in batches, with an ingest after each: at the end every token row
//! and agent is the cold ingest's. Needs python3.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

/// A tiny deterministic generator (xorshift), so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Generates `format`'s sessions into `out`; the expected totals, or
/// `None` (and a skip said) without python3.
fn generate(format: &str, out: &Path) -> Option<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bench/agentgen.py");
    let Ok(o) = std::process::Command::new("python3")
        .arg(script)
        .args([
            format,
            out.to_str().unwrap(),
            "--sessions",
            "4",
            "--responses",
            "9",
            "--seed",
            "7",
        ])
        .output()
    else {
        crate::support::skip("python3 is not available");
        return None;
    };
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    Some(serde_json::from_slice(&o.stdout).unwrap())
}

/// What an ingest stored, in a fixed order: every counted message and
/// every agent with its parent.
fn stored(env: &Env) -> (Vec<String>, Vec<String>) {
    (
        env.rows(
            "SELECT session_id, message_id, agent_id, model, input_tokens, output_tokens,
                    cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens
             FROM token_usage ORDER BY session_id, message_id",
        ),
        env.rows(
            "SELECT session_id, agent_id, parent_agent_id, layout, join_path, agent_type
             FROM agents ORDER BY session_id, agent_id",
        ),
    )
}

fn totals(env: &Env) -> [i64; 4] {
    let v = |c: &str| env.scalar(&format!("SELECT COALESCE(SUM({c}), 0) FROM token_usage"));
    [
        v("input_tokens"),
        v("output_tokens"),
        v("cache_read_tokens"),
        v("cache_write_5m_tokens"),
    ]
}

fn expected(e: &Value) -> [i64; 4] {
    ["input", "output", "cache_read", "cache_write"].map(|k| e[k].as_i64().unwrap())
}

/// Every file under `dir`, relative to it, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

fn in_parts(format: &str, folder: &str) {
    in_parts_with(format, folder, &|_| false);
}

/// `in_parts`, the files `first` holds arriving before the others (each
/// group in a shuffled order): what a client writes first.
fn in_parts_with(format: &str, folder: &str, first: &dyn Fn(&Path) -> bool) {
    let cold = Env::new();
    let corpus = cold.path("corpus");
    let Some(want) = generate(format, &corpus) else {
        return;
    };
    let root = corpus.join(folder);
    let s = cold.ingest(&root);
    assert_eq!(s["sessions_degraded"], 0, "{format}: {s}");
    assert_eq!(
        totals(&cold),
        expected(&want),
        "{format}: cold ingest vs the generator"
    );
    let whole = stored(&cold);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let env = Env::new();
    let target = env.path("parts").join(folder);
    std::fs::create_dir_all(&target).unwrap();
    // Sessions in a shuffled order; each file in two to four pieces.
    let mut all = files(&root);
    for i in (1..all.len()).rev() {
        all.swap(i, rng.below(i as u64 + 1) as usize);
    }
    all.sort_by_key(|rel| !first(&root.join(rel)));
    for rel in &all {
        let bytes = std::fs::read(root.join(rel)).unwrap();
        let to = target.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let pieces = 2 + rng.below(3);
        let mut cuts: Vec<usize> = (0..pieces - 1)
            .map(|_| rng.below(bytes.len() as u64) as usize)
            .collect();
        cuts.sort_unstable();
        cuts.push(bytes.len());
        let mut written = 0;
        for cut in cuts {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&to)
                .unwrap();
            f.write_all(&bytes[written..cut]).unwrap();
            written = cut;
            drop(f);
            env.ingest(&target);
        }
    }
    let s = env.ingest(&target);
    assert_eq!(s["sessions_degraded"], 0, "{format}: {s}");
    assert_eq!(stored(&env), whole, "{format}: in parts vs cold");
}

#[test]
fn pi_in_parts_equals_cold() {
    in_parts("pi", "sessions");
}

#[test]
fn qwen_in_parts_equals_cold() {
    in_parts("qwen", "projects");
}

#[test]
fn copilot_in_parts_equals_cold() {
    in_parts("copilot", "session-state");
}

#[test]
fn kimi_in_parts_equals_cold() {
    in_parts("kimi", "sessions");
}

/// A Droid subagent's transcript is written after the one of the session
/// that called it (which its first line names).
#[test]
fn droid_in_parts_equals_cold() {
    in_parts_with("droid", "sessions", &|p| {
        p.extension().is_some_and(|e| e == "jsonl")
            && !std::fs::read_to_string(p)
                .unwrap()
                .lines()
                .next()
                .is_some_and(|l| l.contains("callingSessionId"))
    });
}

/// OpenCode's database filled a batch of rows at a time (sessions in a
/// shuffled order, a tree's messages in two halves, its session rows
/// updated as OpenCode updates them), with an ingest after each.
#[test]
fn opencode_in_parts_equals_cold() {
    let cold = Env::new();
    let corpus = cold.path("corpus");
    let Some(want) = generate("opencode", &corpus) else {
        return;
    };
    cold.ingest(&corpus);
    assert_eq!(
        totals(&cold),
        expected(&want),
        "opencode: cold ingest vs the generator"
    );
    let whole = stored(&cold);
    let env = Env::new();
    let target = env.path("parts");
    std::fs::create_dir_all(&target).unwrap();
    let src = rusqlite::Connection::open(corpus.join("opencode.db")).unwrap();
    let dst = rusqlite::Connection::open(target.join("opencode.db")).unwrap();
    let schema: Vec<String> = src
        .prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for sql in &schema {
        dst.execute_batch(sql).unwrap();
    }
    dst.execute_batch(&format!(
        "ATTACH '{}' AS src; INSERT INTO project SELECT * FROM src.project;",
        corpus.join("opencode.db").display()
    ))
    .unwrap();
    let mut tops: Vec<String> = src
        .prepare("SELECT id FROM session WHERE parent_id IS NULL ORDER BY id")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for i in (1..tops.len()).rev() {
        tops.swap(i, rng.below(i as u64 + 1) as usize);
    }
    for top in &tops {
        let tree =
            format!("(SELECT id FROM src.session WHERE id = '{top}' OR parent_id = '{top}')");
        // The sessions first, as OpenCode creates them, with no messages.
        dst.execute_batch(&format!(
            "INSERT INTO session SELECT * FROM src.session WHERE id IN {tree};
             UPDATE session SET time_updated = time_created, tokens_input = 0 WHERE id IN {tree};"
        ))
        .unwrap();
        env.ingest(&target);
        // Half the messages, the session rows moved on; then the rest.
        for half in ["rowid % 2 = 0", "rowid % 2 = 1"] {
            dst.execute_batch(&format!(
                "INSERT INTO message SELECT * FROM src.message WHERE session_id IN {tree} AND {half};
                 UPDATE session SET time_updated = time_updated + 1 WHERE id IN {tree};"
            ))
            .unwrap();
            env.ingest(&target);
        }
    }
    env.ingest(&target);
    assert_eq!(stored(&env), whole, "opencode: in parts vs cold");
}
