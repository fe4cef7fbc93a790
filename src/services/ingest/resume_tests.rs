//! Tail resume against a cold ingest: after any sequence of
//! appends, truncations and re-reads, what an incremental database holds
//! equals what one cold ingest of the same files gives. Parts are made tiny
//! here, so one run writes a session in many parts too.

use std::collections::BTreeSet;
use std::path::Path;

use proptest::prelude::*;

use super::{Options, Root, resolve_roots, run};
use crate::store::Store;

const S: &str = "aaaaaaaa-0000-4000-8000-00000000000a";
const T: &str = "aaaaaaaa-0000-4000-8000-00000000000b";

/// A small deterministic generator (the property's seed drives it).
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn ts(i: u64) -> String {
    let t = jiff::Timestamp::from_second(1_767_225_600 + i as i64 * 37).unwrap();
    t.to_string()
}

fn assistant(sid: &str, mid: &str, model: &str, i: u64, out: u64, extra: &str) -> String {
    format!(
        r#"{{"type":"assistant","sessionId":"{sid}","uuid":"u{i}","timestamp":"{}","cwd":"/w/p","version":"2.1.9","message":{{"id":"{mid}","model":"{model}","content":[{{"type":"text","text":"t{i}"}}{extra}],"usage":{{"input_tokens":{},"output_tokens":{out},"cache_read_input_tokens":{},"cache_creation":{{"ephemeral_5m_input_tokens":{},"ephemeral_1h_input_tokens":{}}}}}}}}}"#,
        ts(i),
        i % 7 + 1,
        i * 3,
        i % 5,
        i % 2
    )
}

/// The final contents of a session's files: the main transcript (messages
/// of one to three streamed records, a spawn call and its result far
/// apart, a compaction, a damaged line, a copy from another session), a
/// subagent with its sidecar, and a second session holding copies of some
/// of the first one's messages.
fn corpus(g: &mut Gen) -> Vec<(String, String)> {
    let models = [
        "claude-sonnet-4-5-20250929",
        "claude-opus-4-5-20251101",
        "model-without-a-price",
    ];
    let mut main = Vec::new();
    let mut copies = Vec::new();
    let n = 6 + g.below(20);
    let spawn_at = g.below(n);
    let result_at = spawn_at + 1 + g.below(n - spawn_at);
    for i in 0..n {
        main.push(format!(
            r#"{{"type":"user","sessionId":"{S}","uuid":"q{i}","timestamp":"{}","cwd":"/w/p","message":{{"role":"user","content":"ask {i}"}}}}"#,
            ts(i * 10)
        ));
        let model = models[g.below(3) as usize];
        let mid = format!("msg_{i}");
        let full = 10 + g.below(90);
        let records = 1 + g.below(3);
        for r in 0..records {
            let extra = if i == spawn_at && r == 0 {
                r#",{"type":"tool_use","id":"toolu_A","name":"Agent","input":{"prompt":"go","subagent_type":"general-purpose","description":"look"}}"#
            } else {
                ""
            };
            let out = full * (r + 1) / records;
            let line = assistant(S, &mid, model, i * 10 + r + 1, out, extra);
            if g.below(4) == 0 {
                copies.push(line.clone());
            }
            main.push(line);
        }
        if i == result_at {
            main.push(format!(
                r#"{{"type":"user","sessionId":"{S}","timestamp":"{}","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_A","content":"done"}}]}},"toolUseResult":{{"status":"completed","agentId":"a1","totalTokens":9}}}}"#,
                ts(i * 10 + 5)
            ));
        }
        match g.below(12) {
            0 => main.push("{not json".to_string()),
            1 => main.push(format!(
                r#"{{"type":"system","subtype":"compact_boundary","sessionId":"{S}","timestamp":"{}","compactMetadata":{{"trigger":"auto","preTokens":{}}}}}"#,
                ts(i * 10 + 6),
                1000 + i
            )),
            2 => main.push(assistant("OLD", &format!("old_{i}"), models[0], i, 3, "")),
            _ => {}
        }
    }
    let mut agent = Vec::new();
    for i in 0..(1 + g.below(6)) {
        agent.push(assistant(
            S,
            &format!("sub_{i}"),
            models[0],
            spawn_at * 10 + i + 2,
            5 + i,
            "",
        ));
    }
    let mut other = vec![assistant(T, "t_own", models[1], 3, 4, "")];
    other.extend(copies);
    let lines = |v: Vec<String>| v.iter().map(|l| format!("{l}\n")).collect::<String>();
    vec![
        (format!("-w-p/{S}.jsonl"), lines(main)),
        (format!("-w-p/{S}/subagents/agent-a1.jsonl"), lines(agent)),
        (
            format!("-w-p/{S}/subagents/agent-a1.meta.json"),
            r#"{"agentType":"general-purpose","description":"look","toolUseId":"toolu_A"}"#
                .to_string(),
        ),
        (format!("-w-p/{T}.jsonl"), lines(other)),
    ]
}

fn opts(part_bytes: u64, bulk_bytes: u64) -> Options {
    Options {
        strict: false,
        max_line_size: 1 << 20,
        replay: false,
        only: BTreeSet::new(),
        strict_pricing: false,
        bulk_bytes,
        part_bytes,
        max_bytes: None,
        one: None,
        harness: None,
        said: None,
        said_only: false,
    }
}

/// Every projected table, row by row, in key order; `statuses` false leaves
/// out the status columns.
fn dump(db: &Path, statuses: bool) -> Vec<String> {
    let c = rusqlite::Connection::open(db).unwrap();
    // A session holds one row per message, whatever band it was written to.
    let twice: Vec<(String, String, i64)> = c
        .prepare(
            "SELECT session_id, message_id, COUNT(*) FROM usage_observations
             GROUP BY session_id, message_id HAVING COUNT(*) > 1",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        twice.is_empty(),
        "messages held twice by a session: {twice:?}"
    );
    let tables = [
        (
            "sessions",
            "session_id, project_slug, cwd, project, git_branch, harness_version, started_at, last_activity_at, records, unknown_records, synthetic_messages, bytes, degraded_lines",
        ),
        (
            "agents",
            "session_id, agent_id, parent_agent_id, layout, agent_type, description, spawn_depth, sidecar_tool_use_id, transcript_path, first_seen_at, last_seen_at, records, join_path, spawn_tool_use_id",
        ),
        // Not `band`: where a row sits is the writer's business (a resumed
        // session has more bands than a cold one), what it says is not.
        (
            "usage_observations",
            "session_id, message_id, agent_id, record_session_id, model, occurred_at, input_tokens, output_tokens, cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, counted, t_model, t_occurred_at, t_input_tokens, t_output_tokens, t_cache_write_5m_tokens, t_cache_write_1h_tokens, t_cache_read_tokens, cost_nanousd, billing, web_searches",
        ),
        ("usage_rollup", "*"),
        ("compactions", "*"),
        ("degraded_lines", "*"),
        ("orchestration_edges", "*"),
        ("spawn_calls", "*"),
    ];
    let mut out = Vec::new();
    for (t, cols) in tables {
        let mut stmt = c
            .prepare(&format!("SELECT {cols} FROM {t} ORDER BY 1, 2, 3, 4"))
            .unwrap();
        let n = stmt.column_count();
        let rows = stmt
            .query_map([], |r| {
                let vals: Vec<String> = (0..n)
                    .map(|i| match r.get_ref(i).unwrap() {
                        rusqlite::types::ValueRef::Text(t) => {
                            String::from_utf8_lossy(t).into_owned()
                        }
                        v => format!("{v:?}"),
                    })
                    .collect();
                Ok(format!("{t}: {}", vals.join(" | ")))
            })
            .unwrap();
        out.extend(rows.map(Result::unwrap));
    }
    if statuses {
        let mut stmt = c
            .prepare("SELECT session_id, agent_id, status, status_at, outcome_cause FROM agents ORDER BY 1, 2")
            .unwrap();
        let rows = stmt
            .query_map([], |r| {
                Ok(format!(
                    "status: {} {} {} {:?} {:?}",
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<i64>>(3)?,
                    r.get::<_, Option<String>>(4)?
                ))
            })
            .unwrap();
        out.extend(rows.map(Result::unwrap));
    }
    out
}

/// Equal dumps, or a panic naming only the rows that differ.
fn assert_same(inc: &[String], cold: &[String], what: &str) {
    if inc == cold {
        return;
    }
    let only = |a: &[String], b: &[String]| -> Vec<String> {
        a.iter().filter(|r| !b.contains(r)).cloned().collect()
    };
    panic!(
        "{what}\nincremental only:\n  {}\ncold only:\n  {}",
        only(inc, cold).join("\n  "),
        only(cold, inc).join("\n  ")
    );
}

fn write_prefixes(root: &Path, files: &[(String, String)], lens: &[usize]) {
    for ((rel, text), &len) in files.iter().zip(lens) {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        // Rewritten in place, as an appending writer leaves it (same inode).
        std::fs::write(&path, &text.as_bytes()[..len]).unwrap();
    }
}

/// An ingest with a (hidden) progress bar, which ends full: its total is
/// the bytes the run read, however the files grew or the parts fell.
fn ingest(db: &Path, roots: &[Root], o: &Options) -> super::Summary {
    let mut store = Store::open(db).unwrap();
    let pb = indicatif::ProgressBar::hidden();
    let s = run(&mut store, roots, o, Some(&pb)).unwrap();
    assert_eq!(
        Some(pb.position()),
        pb.length(),
        "the bar ends at its total"
    );
    s
}

/// Runs one sequence: each step sets every file to a prefix of its final
/// contents, ingests incrementally, and compares with a cold ingest.
fn check_sequence(seed: u64, steps: &[(u8, u8, f64)], truncate: bool, bulk: bool) {
    let mut g = Gen(seed);
    let files = corpus(&mut g);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("projects");
    let mut lens: Vec<usize> = vec![0; files.len()];
    // The sidecar is whole or absent.
    let sidecar = 2;
    let o = opts(1 + seed % 700, if bulk { 0 } else { u64::MAX });
    let inc = dir.path().join("inc.db");
    let mut history_only_grew = true;
    let mut all: Vec<(u8, u8, f64)> = steps.to_vec();
    all.push((0, 255, 1.0));
    for (k, &(op, which, frac)) in all.iter().enumerate() {
        let targets: Vec<usize> = if which == 255 {
            (0..files.len()).collect()
        } else {
            vec![which as usize % files.len()]
        };
        for f in targets {
            let full = files[f].1.len();
            let cur = lens[f];
            lens[f] = if f == sidecar {
                if frac > 0.5 { full } else { cur }
            } else if truncate && op == 2 {
                history_only_grew = false;
                (cur as f64 * frac) as usize
            } else {
                cur + ((full - cur) as f64 * frac).ceil() as usize
            };
        }
        // A session exists once its main transcript has a byte.
        write_prefixes(&root, &files, &lens);
        let roots = resolve_roots(std::slice::from_ref(&root)).unwrap();
        ingest(&inc, &roots, &o);
        // The reference reads every file in one part, on one thread.
        let cold = dir.path().join(format!("cold{k}.db"));
        ingest(
            &cold,
            &roots,
            &Options {
                part_bytes: u64::MAX / 4,
                max_bytes: None,
                one: None,
                ..o.clone()
            },
        );
        // An emptied main transcript holds nothing to read: its session is
        // retained as it stood, as when the file is deleted,
        // where a cold ingest never saw it.
        let emptied: Vec<&str> = [(0, S), (3, T)]
            .into_iter()
            .filter(|&(f, _)| lens[f] == 0)
            .map(|(_, sid)| sid)
            .collect();
        let seen = |r: &String| {
            let first = r.split_once(": ").map_or("", |(_, v)| v);
            !emptied.iter().any(|sid| first.starts_with(sid))
        };
        let inc_rows: Vec<String> = dump(&inc, history_only_grew)
            .into_iter()
            .filter(seen)
            .collect();
        assert_same(
            &inc_rows,
            &dump(&cold, history_only_grew),
            &format!("seed {seed}, step {k}, lengths {lens:?}"),
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Appends only (cut anywhere, mid-line included): everything equal,
    /// statuses too.
    #[test]
    fn appends_equal_a_cold_ingest(
        seed in any::<u64>(),
        steps in proptest::collection::vec((0u8..2, 0u8..4, 0.0f64..1.0), 1..7),
        bulk in any::<bool>(),
    ) {
        check_sequence(seed, &steps, false, bulk);
    }

    /// Appends and truncations: every total and row equal.
    #[test]
    fn appends_and_truncations_equal_a_cold_ingest(
        seed in any::<u64>(),
        steps in proptest::collection::vec((0u8..3, 0u8..4, 0.0f64..1.0), 1..7),
    ) {
        check_sequence(seed, &steps, true, false);
    }
}

/// A session that only grew is read from where the last run stopped: the
/// second run reads the appended bytes and the 4 KiB checked before them,
/// not the file, and gives what a cold ingest gives.
#[test]
fn an_append_reads_only_the_new_bytes() {
    let mut g = Gen(7);
    let files = corpus(&mut g);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("projects");
    let mut main = files[0].1.clone();
    while main.len() < 200_000 {
        main.push_str(&files[0].1);
    }
    let only_main = vec![(files[0].0.clone(), main.clone())];
    write_prefixes(&root, &only_main, &[main.len()]);
    let roots = resolve_roots(std::slice::from_ref(&root)).unwrap();
    let inc = dir.path().join("inc.db");
    let o = opts(super::PART_BYTES, u64::MAX);
    let first = ingest(&inc, &roots, &o);
    assert_eq!(first.bytes_read, main.len() as u64 + 2 * 4096);
    let extra = assistant(S, "msg_new", "claude-sonnet-4-5-20250929", 999, 7, "");
    let grown = format!("{main}{extra}\n");
    let only_main = vec![(files[0].0.clone(), grown.clone())];
    write_prefixes(&root, &only_main, &[grown.len()]);
    let second = ingest(&inc, &roots, &o);
    assert_eq!(second.updated, 1);
    // The head and tail checks at the old offset, the new line, the head
    // and tail marks at the new one.
    assert_eq!(
        second.bytes_read,
        2 * 4096 + extra.len() as u64 + 1 + 2 * 4096
    );
    let cold = dir.path().join("cold.db");
    ingest(&cold, &roots, &o);
    assert_same(&dump(&inc, true), &dump(&cold, true), "after the append");
    // Nothing changed: nothing read.
    let third = ingest(&inc, &roots, &o);
    assert_eq!((third.unchanged, third.bytes_read), (1, 0));
}

/// A file replaced by another of the same length (new inode), or rewritten
/// in place before the offset, is read again whole.
#[test]
fn a_replaced_or_rewritten_file_is_read_whole() {
    let mut g = Gen(11);
    let files = corpus(&mut g);
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("projects");
    let main = files[0].1.clone();
    let rel = files[0].0.clone();
    write_prefixes(&root, &[(rel.clone(), main.clone())], &[main.len()]);
    let roots = resolve_roots(std::slice::from_ref(&root)).unwrap();
    let inc = dir.path().join("inc.db");
    let o = opts(super::PART_BYTES, u64::MAX);
    ingest(&inc, &roots, &o);
    // Same bytes up to a changed token count in the first message, then more.
    let edited = main.replacen("\"input_tokens\":", "\"input_tokens\":9", 1);
    let extra = assistant(S, "msg_new", "claude-sonnet-4-5-20250929", 999, 7, "");
    let grown = format!("{edited}{extra}\n");
    let path = root.join(&rel);
    let tmp = root.join("tmp");
    std::fs::write(&tmp, &grown).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    let s = ingest(&inc, &roots, &o);
    assert!(s.bytes_read >= grown.len() as u64, "{}", s.bytes_read);
    let cold = dir.path().join("cold.db");
    ingest(&cold, &roots, &o);
    assert_same(
        &dump(&inc, true),
        &dump(&cold, true),
        "after the replacement",
    );
    // In place (same inode): a change in the 4 KiB before the offset, and
    // one in the file's first 4 KiB, each with more appended.
    let tail_edit = {
        let at = grown.len() - 100;
        let mut b = grown.clone().into_bytes();
        assert_eq!(b[at].is_ascii_digit(), b[at].is_ascii_digit());
        b[at] = if b[at] == b'x' { b'y' } else { b'x' };
        String::from_utf8(b).unwrap()
    };
    let head_edit = grown.replacen("\"input_tokens\":9", "\"input_tokens\":8", 1);
    for (k, edited) in [tail_edit, head_edit].into_iter().enumerate() {
        std::fs::write(&path, &grown).unwrap();
        ingest(&inc, &roots, &o);
        let more = format!("{edited}{extra}\n");
        std::fs::write(&path, &more).unwrap();
        let s = ingest(&inc, &roots, &o);
        assert!(
            s.bytes_read >= more.len() as u64,
            "edit {k}: {}",
            s.bytes_read
        );
        let cold = dir.path().join(format!("cold-edit{k}.db"));
        ingest(&cold, &roots, &o);
        assert_same(&dump(&inc, true), &dump(&cold, true), &format!("edit {k}"));
    }
}

/// Every layout of the fixture corpora (inline sidechains, flat, nested and
/// workflow agents, copies across sessions) gives the same database read in
/// parts of a few hundred bytes, split across two threads, as in one part.
#[test]
fn the_fixture_corpora_in_tiny_parts_equal_one_part() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for corpus in [
        "claude/projects",
        "claude-tree/projects",
        "claude-2.1.332/projects",
    ] {
        let roots = resolve_roots(&[here.join(corpus)]).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let whole = dir.path().join("whole.db");
        ingest(&whole, &roots, &opts(u64::MAX / 4, u64::MAX));
        let want = dump(&whole, true);
        for part in [97, 300, 1000, 5000] {
            let parts = dir.path().join(format!("parts{part}.db"));
            ingest(&parts, &roots, &opts(part, u64::MAX));
            assert_same(
                &dump(&parts, true),
                &want,
                &format!("{corpus} in {part}-byte parts"),
            );
            // Small parts wrote a session's rows to more than one band (two
            // rows each in unit tests), and the dumps still agree.
            let last: i64 = rusqlite::Connection::open(&parts)
                .unwrap()
                .query_row("SELECT MAX(band) FROM usage_observations", [], |r| r.get(0))
                .unwrap();
            assert!(
                last >= 1 || part > 300,
                "{corpus} in {part}-byte parts: one band"
            );
        }
    }
}

/// A main transcript cut to nothing is no evidence that its history is
/// gone: the session stays as it stood, counted as retained, and the empty
/// file is named among the skipped paths. When the file grows
/// again it is read whole.
#[test]
fn an_emptied_transcript_keeps_its_session() {
    let mut g = Gen(3);
    let files = corpus(&mut g);
    let other = vec![files[3].clone()];
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("projects");
    let db = dir.path().join("db");
    write_prefixes(&root, &other, &[other[0].1.len()]);
    let roots = resolve_roots(std::slice::from_ref(&root)).unwrap();
    let o = opts(super::PART_BYTES, u64::MAX);
    ingest(&db, &roots, &o);
    let before = dump(&db, true);
    write_prefixes(&root, &other, &[0]);
    let sum = ingest(&db, &roots, &o);
    assert_eq!(dump(&db, true), before);
    assert_eq!((sum.retained, sum.updated, sum.new), (1, 0, 0));
    assert_eq!(
        sum.skipped_paths
            .iter()
            .map(|p| (p.path.as_str(), p.reason))
            .collect::<Vec<_>>(),
        [(other[0].0.as_str(), "empty")]
    );
    let line = assistant(T, "t_new", "claude-opus-4-5-20251101", 9, 2, "");
    write_prefixes(
        &root,
        &[(other[0].0.clone(), format!("{line}\n"))],
        &[line.len() + 1],
    );
    ingest(&db, &roots, &o);
    let cold = dir.path().join("cold");
    ingest(&cold, &roots, &o);
    // Statuses aside: older evidence does not undo newer.
    assert_same(&dump(&db, false), &dump(&cold, false), "grown again");
}

/// Found by the property in CI: a session file cut to nothing.
#[test]
fn regression_truncated_to_nothing() {
    check_sequence(
        13_487_378_351_355_181,
        &[(0, 3, 0.573_265_650_777_020_1), (2, 3, 0.0), (0, 0, 0.0)],
        true,
        false,
    );
}
