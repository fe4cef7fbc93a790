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
fn gemini_in_parts_equals_cold() {
    in_parts("gemini", "tmp");
}

#[test]
fn codex_in_parts_equals_cold() {
    in_parts("codex", "sessions");
}

/// Mistral Vibe's store as Vibe writes it: each session's snapshot whole
/// (its running totals final from the start), its journal appended a few
/// records at a time, with an ingest after each: the calls the journal
/// holds are read as they come, the totals supply the rest, never twice.
#[test]
fn vibe_journal_in_parts_equals_cold() {
    let cold = Env::new();
    let corpus = cold.path("corpus");
    let Some(want) = generate("vibe", &corpus) else {
        return;
    };
    let root = corpus.join("unified");
    cold.ingest(&root);
    assert_eq!(
        totals(&cold),
        expected(&want),
        "vibe: cold ingest vs the generator"
    );
    let whole = stored(&cold);
    let env = Env::new();
    let target = env.path("parts").join("unified");
    let mut journals = Vec::new();
    for rel in files(&root) {
        let to = target.join(&rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        if rel.components().any(|c| c.as_os_str() == "journal") {
            journals.push(rel);
        } else {
            std::fs::copy(root.join(&rel), &to).unwrap();
        }
    }
    let mut rng = Rng(0x7b1b_e000_0000_0003);
    for rel in &journals {
        let text = std::fs::read_to_string(root.join(rel)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut n = 0;
        while n < lines.len() {
            n = (n + 1 + rng.below(3) as usize).min(lines.len());
            std::fs::write(target.join(rel), lines[..n].join("\n") + "\n").unwrap();
            env.ingest(&target);
        }
    }
    let s = env.ingest(&target);
    assert_eq!(s["sessions_degraded"], 0, "vibe: {s}");
    assert_eq!(stored(&env), whole, "vibe: journal in parts vs cold");
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
    store_in_parts("opencode", "opencode.db");
}

/// Kilo's database (OpenCode's tables under its own name), the same way.
#[test]
fn kilo_in_parts_equals_cold() {
    store_in_parts("kilo", "kilo.db");
}

fn store_in_parts(format: &str, db: &str) {
    let cold = Env::new();
    let corpus = cold.path("corpus");
    let Some(want) = generate(format, &corpus) else {
        return;
    };
    cold.ingest(&corpus);
    assert_eq!(
        totals(&cold),
        expected(&want),
        "{format}: cold ingest vs the generator"
    );
    let whole = stored(&cold);
    let env = Env::new();
    let target = env.path("parts");
    std::fs::create_dir_all(&target).unwrap();
    let src = rusqlite::Connection::open(corpus.join(db)).unwrap();
    let dst = rusqlite::Connection::open(target.join(db)).unwrap();
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
        corpus.join(db).display()
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
    assert_eq!(stored(&env), whole, "{format}: in parts vs cold");
}

/// Cline's documents rewritten whole as a session goes on (each version
/// holding more of its messages), lead and subagent in a shuffled order,
/// with an ingest after each version: the same as one cold ingest.
#[test]
fn cline_rewritten_in_versions_equals_cold() {
    let cold = Env::new();
    let corpus = cold.path("corpus");
    let Some(want) = generate("cline", &corpus) else {
        return;
    };
    let root = corpus.join("sessions");
    cold.ingest(&root);
    assert_eq!(
        totals(&cold),
        expected(&want),
        "cline: cold ingest vs the generator"
    );
    let whole = stored(&cold);
    let env = Env::new();
    let target = env.path("parts").join("sessions");
    let mut rng = Rng(0x0bad_5eed_1234_5678);
    let mut docs = files(&root);
    for i in (1..docs.len()).rev() {
        docs.swap(i, rng.below(i as u64 + 1) as usize);
    }
    for rel in &docs {
        let to = target.join(rel);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let text = std::fs::read_to_string(root.join(rel)).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        let Some(messages) = doc["messages"].as_array() else {
            // The manifest: written once.
            std::fs::write(&to, &text).unwrap();
            continue;
        };
        let mut n = 1 + rng.below(3) as usize;
        while n < messages.len() {
            let mut part = doc.clone();
            part["messages"] = Value::Array(messages[..n].to_vec());
            std::fs::write(&to, part.to_string()).unwrap();
            env.ingest(&target);
            n += 1 + rng.below(4) as usize;
        }
        std::fs::write(&to, &text).unwrap();
        env.ingest(&target);
    }
    let s = env.ingest(&target);
    assert_eq!(s["sessions_degraded"], 0, "cline: {s}");
    assert_eq!(stored(&env), whole, "cline: in versions vs cold");
}

/// Hermes Agent's running totals, as it rewrites a session's row after
/// each response: each row first at part of its final figures, ingested,
/// then at the rest. Only the last figures count, never their sum.
#[test]
fn hermes_growing_totals_equal_cold() {
    let cold = Env::new();
    let corpus = cold.path("corpus");
    let Some(want) = generate("hermes", &corpus) else {
        return;
    };
    cold.ingest(&corpus);
    assert_eq!(
        totals(&cold),
        expected(&want),
        "hermes: cold ingest vs the generator"
    );
    let whole = stored(&cold);
    let env = Env::new();
    let target = env.path("parts");
    std::fs::create_dir_all(&target).unwrap();
    std::fs::copy(corpus.join("state.db"), target.join("state.db")).unwrap();
    let db = rusqlite::Connection::open(target.join("state.db")).unwrap();
    let cols = "input_tokens, output_tokens, cache_read_tokens, reasoning_tokens, api_call_count";
    db.execute_batch(&format!(
        "CREATE TABLE final AS SELECT id, {cols} FROM sessions;
         UPDATE sessions SET input_tokens = input_tokens / 3, output_tokens = output_tokens / 3,
             cache_read_tokens = cache_read_tokens / 3, reasoning_tokens = reasoning_tokens / 3,
             api_call_count = 1;"
    ))
    .unwrap();
    env.ingest(&target);
    db.execute_batch(
        "UPDATE sessions SET input_tokens = (SELECT input_tokens FROM final f WHERE f.id = sessions.id) / 2
         WHERE rowid % 2 = 0;",
    )
    .unwrap();
    env.ingest(&target);
    db.execute_batch(&format!(
        "UPDATE sessions SET ({cols}) = (SELECT {cols} FROM final f WHERE f.id = sessions.id);
         DROP TABLE final;"
    ))
    .unwrap();
    env.ingest(&target);
    assert_eq!(stored(&env), whole, "hermes: growing vs cold");
}

/// An OpenClaw agent's database filled as OpenClaw writes it: each
/// session's window, then its events a batch at a time, with an ingest
/// after each batch.
#[test]
fn openclaw_in_batches_equals_cold() {
    let cold = Env::new();
    let corpus = cold.path("corpus");
    let Some(want) = generate("openclaw", &corpus) else {
        return;
    };
    cold.ingest(&corpus);
    assert_eq!(
        totals(&cold),
        expected(&want),
        "openclaw: cold ingest vs the generator"
    );
    let whole = stored(&cold);
    let env = Env::new();
    let target = env.path("parts");
    let rel = "agents/main/agent/openclaw-agent.sqlite";
    std::fs::create_dir_all(target.join(rel).parent().unwrap()).unwrap();
    let src = corpus.join(rel);
    std::fs::copy(&src, target.join(rel)).unwrap();
    let db = rusqlite::Connection::open(target.join(rel)).unwrap();
    db.execute_batch(&format!(
        "DELETE FROM transcript_events; ATTACH '{}' AS src;",
        src.display()
    ))
    .unwrap();
    let mut rng = Rng(0x5eed_0c1a_0000_0001);
    let max: i64 = db
        .query_row("SELECT MAX(seq) FROM src.transcript_events", [], |r| {
            r.get(0)
        })
        .unwrap();
    let mut from = 0;
    while from <= max {
        let to = from + 1 + rng.below(6) as i64;
        db.execute_batch(&format!(
            "INSERT INTO transcript_events SELECT * FROM src.transcript_events
             WHERE seq >= {from} AND seq < {to};"
        ))
        .unwrap();
        env.ingest(&target);
        from = to;
    }
    env.ingest(&target);
    assert_eq!(stored(&env), whole, "openclaw: in batches vs cold");
}
