//! Reading around holes: a build of the index that passes the holes
//! ingest noted reads exactly what reading every line reads (the same
//! records say the same words, line numbers included), on one thread or
//! read ahead, in one part or many, and reads every line again where the
//! file is not the one ingest read.

use super::Options;
use super::ahead_tests::claude_session;
use super::stream::{BLOCK, Buffers, ResumeState, read_session};
use crate::domain::corpus::SessionFiles;
use crate::domain::transcript::SpareCores;
use crate::domain::transcript::said::{Said, SaidOptions};

const S: &str = "aaaaaaaa-0000-4000-8000-0000000000c3";

/// A main transcript of `lines` records: prompts, answers, tool calls,
/// outputs and reasoning of every length (most over `HOLE_MIN` here),
/// progress records, records without a uuid (named by their line), blank
/// lines and `\r\n` endings, inline sidechain chains with their own
/// outputs, and a byte-order mark.
fn transcript(seed: u64, lines: u64) -> Vec<u8> {
    let mut s = seed;
    let mut below = move |n: u64| {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (s >> 33) % n
    };
    let mut text = "\u{feff}".as_bytes().to_vec();
    let mut side_parent = String::from("null");
    for n in 1..=lines {
        let pad = "p".repeat(below(3 * BLOCK) as usize);
        let side = below(6) == 0;
        let uuid = if below(10) == 0 {
            String::new()
        } else {
            format!(r#""uuid":"r{n}","#)
        };
        let head = |kind: &str| {
            let parent = if side {
                side_parent.clone()
            } else {
                "null".into()
            };
            format!(
                r#"{{"type":"{kind}","sessionId":"{S}",{uuid}"parentUuid":{parent},"isSidechain":{side},"timestamp":"2026-01-02T00:{:02}:00Z","message":{{"role":"{kind}","content":"#,
                n % 60
            )
        };
        let line = match below(8) {
            0 => format!(
                r#"{}"ask {n} {}"}}}}"#,
                head("user"),
                &pad[..pad.len().min(40)]
            ),
            1 => format!(
                r#"{}[{{"type":"text","text":"answer {n} {pad}"}}]}}}}"#,
                head("assistant")
            ),
            2 => format!(
                r#"{}[{{"type":"tool_use","id":"t{n}","name":"Read","input":{{"path":"f{n}"}}}}]}}}}"#,
                head("assistant")
            ),
            3 => format!(
                r#"{}[{{"type":"thinking","thinking":"{pad}"}}]}}}}"#,
                head("assistant")
            ),
            4 => format!(r#"{{"type":"progress","sessionId":"{S}","data":"{pad}"}}"#),
            5 => String::new(),
            _ => format!(
                r#"{}[{{"type":"tool_result","tool_use_id":"t{n}","content":"out {n} {pad}"}}]}}}}"#,
                head("user")
            ),
        };
        if side && !uuid.is_empty() {
            side_parent = format!(r#""r{n}""#);
        }
        text.extend_from_slice(line.as_bytes());
        text.extend_from_slice(if below(7) == 0 { b"\r\n" } else { b"\n" });
    }
    text
}

fn files(dir: &std::path::Path, text: &[u8]) -> SessionFiles {
    claude_session(dir, S, text)
}

/// Reading as ingest does, or (`said_only`) as a build of the index does
/// with tool outputs left out; a part every `part_bytes`.
fn opts(said_only: bool, part_bytes: u64) -> Options {
    Options {
        said: said_only.then_some(SaidOptions { outputs: false }),
        said_only,
        ..super::ahead_tests::opts(usize::MAX / 4, part_bytes)
    }
}

/// Each place said, shortly: agent, record, and each piece's role and
/// first words; in order of record (an inline sidechain's records are
/// handed on after the block they end, and blocks end elsewhere when
/// holes are left out of them).
fn short(said: &[Said]) -> Vec<String> {
    let mut all: Vec<String> = said
        .iter()
        .map(|s| {
            let pieces: Vec<String> = s
                .pieces
                .iter()
                .map(|p| format!("{:?} {}", p.role, &p.text[..p.text.len().min(12)]))
                .collect();
            format!("{} {} {:?} {pieces:?}", s.record, s.agent_id, s.at)
        })
        .collect();
    all.sort();
    all
}

/// Every place said, in order of record and agent.
fn sorted(mut said: Vec<Said>) -> Vec<Said> {
    said.sort_by(|a, b| (&a.record, &a.agent_id).cmp(&(&b.record, &b.agent_id)));
    said
}

/// What reading `files` hands on: every part's words, the records read,
/// the bytes counted, and the last part's state.
fn read(
    files: &SessionFiles,
    o: &Options,
    resume: Option<ResumeState>,
    spare: bool,
) -> (Vec<Said>, u64, u64, String) {
    let spare = spare.then(|| SpareCores::new(1));
    let mut buf = match &spare {
        Some(s) => Buffers::sharing(std::sync::Arc::clone(s)),
        None => Buffers::default(),
    };
    let (mut said, mut records, mut bytes, mut state) = (Vec::new(), 0, 0, String::new());
    read_session(files, o, resume, &mut buf, &mut |ev| {
        bytes += ev.bytes;
        let p = ev.result.expect("read");
        said.extend(p.parsed.said);
        records = p.parsed.records;
        state = p.state;
        true
    });
    (said, records, bytes, state)
}

#[test]
fn a_build_around_the_holes_reads_what_it_reads_of_every_line() {
    let mut passed = 0;
    for seed in 1..=6 {
        let dir = tempfile::tempdir().unwrap();
        let text = transcript(seed, 300);
        let f = files(dir.path(), &text);
        let (_, _, _, state) = read(&f, &opts(false, u64::MAX / 4), None, false);
        let state: ResumeState = serde_json::from_str(&state).unwrap();
        let holes = &state.session.files[0].holes;
        // Ingest read ahead (its blocks' later lines scanned on another
        // thread) notes the same holes.
        let (_, _, _, ahead) = read(&f, &opts(false, u64::MAX / 4), None, true);
        let ahead: ResumeState = serde_json::from_str(&ahead).unwrap();
        assert_eq!(&ahead.session.files[0].holes, holes, "seed {seed}");
        let hole_lines: u64 = holes.iter().map(|h| h.lines).sum();
        assert!(holes.len() > 10, "seed {seed}: {} holes", holes.len());
        let whole = read(&f, &opts(true, u64::MAX / 4), None, false);
        assert!(whole.0.len() > 50, "seed {seed}");
        for (spare, part_bytes) in [
            (false, u64::MAX / 4),
            (true, u64::MAX / 4),
            (false, 5 * BLOCK),
            (true, 5 * BLOCK),
        ] {
            let around = read(&f, &opts(true, part_bytes), Some(state.clone()), spare);
            assert_eq!(
                short(&around.0),
                short(&whole.0),
                "seed {seed}, spare {spare}, parts {part_bytes}"
            );
            assert_eq!(sorted(around.0), sorted(whole.0.clone()));
            // The lines in holes are not read, and count as read.
            assert_eq!(around.1, whole.1 - hole_lines, "seed {seed}");
            // Counted as read (each part adds its marks' checks).
            if part_bytes > text.len() as u64 {
                assert_eq!(around.2, whole.2, "seed {seed}");
            }
            passed += 1;
        }
        // Appended to: the holes of what ingest read hold, the rest is
        // read line by line.
        let mut grown = text.clone();
        grown.extend_from_slice(&transcript(seed + 100, 40)[3..]);
        let g = files(dir.path(), &grown);
        let around = read(&g, &opts(true, u64::MAX / 4), Some(state.clone()), true);
        let whole = read(&g, &opts(true, u64::MAX / 4), None, true);
        assert_eq!(short(&around.0), short(&whole.0), "seed {seed}");
        assert_eq!(around.1, whole.1 - hole_lines, "seed {seed}");
        // Rewritten (the same length, other bytes): no hole is trusted.
        let mut other = text.clone();
        other[10..20].copy_from_slice(b"0123456789");
        other[text.len() - 3] = b'q';
        let o = files(dir.path(), &other);
        let around = read(&o, &opts(true, u64::MAX / 4), Some(state.clone()), false);
        let whole = read(&o, &opts(true, u64::MAX / 4), None, false);
        assert_eq!(
            (short(&around.0), around.1),
            (short(&whole.0), whole.1),
            "seed {seed}"
        );
        // Tool outputs kept: the holes do not hold (they are outputs).
        let with = Options {
            said: Some(SaidOptions { outputs: true }),
            ..opts(true, u64::MAX / 4)
        };
        let around = read(&f, &with, Some(state.clone()), false);
        let whole = read(&f, &with, None, false);
        assert_eq!(
            (short(&around.0), around.1),
            (short(&whole.0), whole.1),
            "seed {seed}"
        );
        assert!(around.0.iter().any(|s| s.pieces.iter().any(|p| p.output)));
    }
    assert_eq!(passed, 24);
}

/// Claude Code transcripts written by real clients (the golden fixtures,
/// and the captured and public corpora beside the repository when they
/// are there), each read as a session's main file: around its holes, a
/// build reads what it reads of every line.
#[test]
fn real_transcripts_read_around_their_holes_say_the_same() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.join("fixtures/golden/claude/corpus")];
    let shared = root.join("../shared/corpus");
    if shared.is_dir() {
        dirs.push(shared.join("captured/claude-code-2.1.197"));
        dirs.push(shared.join("captured/claude-code-2.1.332"));
        dirs.push(shared.join("public/claude-code-viewer"));
        dirs.push(shared.join("public/ccusage"));
    } else {
        crate::domain::test_skipped(
            "in part: the transcript corpora beside the repository are absent: the fixtures only",
        );
    }
    let paths = crate::domain::test_jsonl_files(dirs);
    let (mut holes, mut said) = (0, 0);
    for path in &paths {
        let text = std::fs::read(path).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let f = files(dir.path(), &text);
        let (_, _, _, state) = read(&f, &opts(false, u64::MAX / 4), None, false);
        let state: ResumeState = serde_json::from_str(&state).unwrap();
        let hole_lines: u64 = state.session.files[0].holes.iter().map(|h| h.lines).sum();
        for spare in [false, true] {
            let around = read(&f, &opts(true, u64::MAX / 4), Some(state.clone()), spare);
            let whole = read(&f, &opts(true, u64::MAX / 4), None, spare);
            assert_eq!(short(&around.0), short(&whole.0), "{path:?}");
            assert_eq!(around.1, whole.1 - hole_lines, "{path:?}");
            said += whole.0.len();
        }
        holes += state.session.files[0].holes.len();
    }
    assert!(paths.len() >= 4, "{paths:?}");
    assert!(
        holes > 10 && said > 100,
        "{holes} holes, {said} records said"
    );
}
