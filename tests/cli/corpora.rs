//! Shared corpora: the synthetic generator's exact totals and the public
//! transcripts. Both live in `../shared`; each test skips cleanly without it.

use std::path::{Path, PathBuf};

use crate::common::*;
use serde_json::Value;

fn shared() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    p.is_dir().then_some(p)
}

fn python3() -> bool {
    std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Generates a small corpus; `None` (skip) without python3 or ../shared.
fn generate(env: &Env, streaming: bool) -> Option<(PathBuf, Value)> {
    let Some(shared) = shared() else {
        skip("the reference corpora beside the repository are absent");
        return None;
    };
    if !python3() {
        skip("python3 is absent");
        return None;
    }
    let out = env.path("gen");
    let mut cmd = std::process::Command::new("python3");
    cmd.arg(shared.join("bench/gen_corpus.py")).args([
        "--out",
        out.to_str().unwrap(),
        "--sessions",
        "6",
        "--mib-per-session",
        "0.6",
        "--seed",
        "7",
    ]);
    if streaming {
        cmd.arg("--streaming-snapshots");
    }
    let st = cmd.output().unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let expected: Value =
        serde_json::from_slice(&std::fs::read(out.join("expected_totals.json")).unwrap()).unwrap();
    Some((out.join("projects"), expected))
}

fn expected_tok(v: &Value) -> Tok {
    let g = |k: &str| v[k].as_u64().unwrap();
    [
        g("input"),
        g("output"),
        g("cache_create_5m"),
        g("cache_create_1h"),
        g("cache_read"),
    ]
}

fn reconcile(streaming: bool) {
    let env = Env::new();
    let Some((root, expected)) = generate(&env, streaming) else {
        return;
    };
    let s = env.ingest(&root);
    assert_eq!(s["sessions_new"], 6);
    assert_eq!(s["sessions_degraded"], 0);
    let flat = expected["subagent_files"]["flat"].as_u64().unwrap();
    let nested = expected["subagent_files"]["nested"].as_u64().unwrap();
    assert_eq!(s["agents"].as_u64().unwrap(), 6 + flat + nested);
    assert_eq!(
        s["token_rows"].as_u64().unwrap(),
        expected["unique_responses"].as_u64().unwrap()
            + expected["synthetic_error_records"].as_u64().unwrap()
    );
    let db = db_by_session(&env);
    let exp_sessions = expected["by_session"].as_object().unwrap();
    assert_eq!(db.len(), exp_sessions.len());
    for (sid, e) in exp_sessions {
        assert_eq!(db[sid.as_str()], expected_tok(&e["total"]), "session {sid}");
    }
    let mut by_model = db_by_model(&env);
    let synthetic = by_model.remove("<synthetic>").unwrap_or_default();
    assert_eq!(synthetic, [0; 5]);
    for (model, e) in expected["by_model"].as_object().unwrap() {
        assert_eq!(by_model[model.as_str()], expected_tok(e), "model {model}");
    }
    // Cost with the embedded table (the generator's pinned prices equal it for
    // these three models): exact nano-dollars against its float sum, rounded to 6.
    let nano: i64 = env
        .json(&["sessions"])
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["cost_nanousd"].as_i64().unwrap())
        .sum();
    let expected_usd = expected["cost_usd_pinned_prices"].as_f64().unwrap();
    assert!(
        ((nano as f64) / 1e9 - expected_usd).abs() < 1e-6,
        "{nano} nano-dollars vs ${expected_usd}"
    );
    // The independent reader agrees too.
    let r = Reader::read(&root);
    assert_eq!(db, r.by_session());
    let mut rm = r.by_model();
    rm.remove("<synthetic>");
    assert_eq!(by_model, rm);
    // Subagent tokens: each agent's own, as the generator wrote per file.
    let sid = exp_sessions.keys().next().unwrap();
    let show = env.json(&["show", sid]);
    for a in exp_sessions[sid]["agents"].as_array().unwrap() {
        let id = a["agentId"].as_str().unwrap();
        let got = show["by_agent"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["agent_id"] == id)
            .unwrap();
        assert_eq!(tok(got), expected_tok(a), "agent {id}");
    }
}

#[test]
fn generated_corpus_reconciles_exactly() {
    reconcile(false);
}

#[test]
fn generated_corpus_with_streaming_snapshots_reconciles_exactly() {
    reconcile(true);
}

#[test]
fn public_claude_code_transcripts_equal_the_independent_reader() {
    let Some(shared) = shared() else {
        skip("the reference corpora beside the repository are absent");
        return;
    };
    let env = Env::new();
    // The public files are used in place, arranged as Claude Code lays them out
    // by symlink-free copies into a scratch root (never into the repository).
    let root = env.path("projects/-path-to-Demo");
    std::fs::create_dir_all(&root).unwrap();
    let viewer = shared.join("corpus/public/claude-code-viewer");
    for f in std::fs::read_dir(&viewer).unwrap() {
        let p = f.unwrap().path();
        if p.extension().is_some_and(|e| e == "jsonl") {
            std::fs::copy(&p, root.join(p.file_name().unwrap())).unwrap();
        }
    }
    let codex = env.path("projects/-codex");
    std::fs::create_dir_all(&codex).unwrap();
    std::fs::copy(
        shared.join("corpus/public/ccusage/codex-session-alpha.jsonl"),
        codex.join("codex-session-alpha.jsonl"),
    )
    .unwrap();
    std::fs::copy(
        shared.join("corpus/public/claude-code-transcripts/sample_codex_session.jsonl"),
        codex.join("sample_codex_session.jsonl"),
    )
    .unwrap();
    let s = env.ingest(&env.path("projects"));
    assert_eq!(s["sessions_new"], 2);
    assert_eq!(s["sessions_degraded"], 0);
    assert_eq!(
        s["skipped"]["non-artifact"], 2,
        "Codex rollouts wait for Codex ingest"
    );
    let r = Reader::read(&root);
    assert_eq!(db_by_session(&env), r.by_session());
    // The 1.0.108 session: two inline sidechains with their own tokens, and the
    // old flat agent-test-hash-123.jsonl (which names this session).
    let show = env.json(&["show", "5c0375b4"]);
    let layouts: Vec<(&str, &str)> = show["by_agent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a["agent_id"].as_str().unwrap(),
                a["layout"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        layouts,
        vec![
            ("5c0375b4-57a5-4f26-b12d-d022ee4e51b7", "main"),
            ("test-hash-123", "flat"),
            ("6340ddef-f656-4b72-a065-82390f637678", "inline"),
            ("83e2917c-8940-4df6-a5a5-f2514f0d08c5", "inline"),
        ]
    );
}
