//! Reading ahead: a file read by a second thread, which also
//! scans each block's later lines, parses exactly as the same file read in
//! turn on one thread. Blocks are a kilobyte here (`stream::BLOCK`), so a
//! file of a few hundred kilobytes is hundreds of blocks, and lines cross
//! block boundaries in every way: a line longer than a block, an overlong
//! line skipped across several, line endings of `\r\n`, blank lines, a
//! byte-order mark, damaged lines and an unfinished last line.

use std::sync::atomic::Ordering;

use proptest::prelude::*;

use super::Options;
use super::stream::{AHEAD_SCANS, BLOCK, Buffers, read_session};
use crate::domain::corpus::{PlannedFile, SessionFiles};
use crate::domain::transcript::{FileRole, SpareCores};

const S: &str = "aaaaaaaa-0000-4000-8000-0000000000a1";

/// A small deterministic generator (the property's seed drives it).
struct Gen(u64);

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// What a generated file holds, for the assertions on facts.
struct Made {
    text: Vec<u8>,
    /// Line numbers (1-based) of the lines that are degraded.
    bad: Vec<u64>,
    /// Distinct message ids on complete, readable lines.
    messages: usize,
}

/// `lines` lines of a main transcript; `overlong` puts lines over `cap`
/// bytes among them.
fn transcript(g: &mut Gen, lines: u64, cap: usize, overlong: bool) -> Made {
    let mut text = Vec::new();
    if g.below(2) == 0 {
        text.extend_from_slice("\u{feff}".as_bytes());
    }
    let mut bad = Vec::new();
    let mut ids = std::collections::BTreeSet::new();
    // Most lines are a small part of a block; one in eight is up to
    // `max` long.
    let pad = |g: &mut Gen, max: u64| -> String {
        let words = [
            "tok ",
            "a\\\"q\\\" ",
            "line\\n",
            "caf\\u00e9 ",
            "\u{e9}t\u{e9} ",
            "x",
        ];
        let mut s = String::new();
        let len = if g.below(8) == 0 {
            g.below(max)
        } else {
            g.below(BLOCK / 8)
        };
        while (s.len() as u64) < len {
            s.push_str(words[g.below(words.len() as u64) as usize]);
        }
        s
    };
    for n in 1..=lines {
        let end = if g.below(9) == 0 { "\r\n" } else { "\n" };
        let line = match g.below(20) {
            0 => String::new(),
            1 => "{not json".to_string(),
            2 if overlong => format!(
                r#"{{"type":"user","sessionId":"{S}","pad":"{}"}}"#,
                "o".repeat(cap + g.below(3 * BLOCK) as usize)
            ),
            3..=6 => format!(
                r#"{{"type":"user","sessionId":"{S}","uuid":"u{n}","timestamp":"2026-01-02T00:00:{:02}Z","message":{{"role":"user","content":"{}"}}}}"#,
                n % 60,
                pad(g, 2 * BLOCK)
            ),
            _ => {
                let id = format!("msg_{}", g.below(lines / 2 + 1));
                let line = format!(
                    r#"{{"type":"assistant","sessionId":"{S}","uuid":"a{n}","timestamp":"2026-01-02T00:01:{:02}Z","message":{{"id":"{id}","model":"claude-sonnet-4-5-20250929","role":"assistant","content":[{{"type":"text","text":"{}"}}],"usage":{{"input_tokens":{},"output_tokens":{}}}}}}}"#,
                    n % 60,
                    pad(g, 3 * BLOCK),
                    g.below(50),
                    1 + g.below(500)
                );
                if line.len() + end.len() <= cap {
                    ids.insert(id);
                }
                line
            }
        };
        if line.starts_with("{not") || line.len() + end.len() > cap {
            bad.push(n);
        }
        text.extend_from_slice(line.as_bytes());
        text.extend_from_slice(end.as_bytes());
    }
    if g.below(2) == 0 {
        text.extend_from_slice(br#"{"type":"assistant","unfinished"#);
    }
    Made {
        text,
        bad,
        messages: ids.len(),
    }
}

/// Session `sid` of one Claude Code main file in `dir` holding `text`
/// (written now), as the walk plans it: its size and modification time.
pub(super) fn claude_session(dir: &std::path::Path, sid: &str, text: &[u8]) -> SessionFiles {
    let rel = format!("-w-p/{sid}.jsonl");
    let abs = dir.join(&rel);
    std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
    std::fs::write(&abs, text).unwrap();
    let mtime = std::fs::metadata(&abs)
        .unwrap()
        .modified()
        .unwrap()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    SessionFiles {
        session_id: sid.to_string(),
        slug: "-w-p".to_string(),
        root: 0,
        main: PlannedFile {
            format: crate::domain::transcript::Format::ClaudeCode,
            rel,
            abs,
            size: text.len() as u64,
            mtime_ns: mtime.as_nanos() as i128,
            role: FileRole::Main,
            sidecar: None,
        },
        agents: Vec::new(),
        cwd_hint: None,
    }
}

/// Every event reading `text` as session `S` hands on, as text; with a
/// spare core, the file is read ahead.
fn read(dir: &std::path::Path, text: &[u8], o: &Options, spare: bool) -> Vec<String> {
    let mut files = claude_session(dir, S, text);
    // Each reading writes the file again: the same state either way.
    files.main.mtime_ns = 0;
    let spare = spare.then(|| SpareCores::new(1));
    let mut buf = match &spare {
        Some(s) => Buffers::sharing(std::sync::Arc::clone(s)),
        None => Buffers::default(),
    };
    let mut events = Vec::new();
    read_session(&files, o, None, &mut buf, &mut |ev| {
        let result = match ev.result {
            Ok(p) => format!("{:?}\n{}\n{}", p.parsed, p.state, p.last),
            Err(f) => format!("{f:?}"),
        };
        events.push(format!("{result}\n{:?}\n{}", ev.skips, ev.bytes));
        true
    });
    if let Some(s) = spare {
        assert_eq!(s.0.load(Ordering::SeqCst), 1, "the core is given back");
    }
    events
}

pub(super) fn opts(cap: usize, part_bytes: u64) -> Options {
    Options {
        strict: false,
        max_line_size: cap as u64,
        replay: false,
        only: Default::default(),
        strict_pricing: false,
        bulk_bytes: u64::MAX,
        part_bytes,
        max_bytes: None,
        one: None,
        harness: None,
        said: None,
        said_only: false,
    }
}

/// One file read both ways, in one part: the same session, byte for byte,
/// and the facts the generator knows. With `scans`, the file is known to
/// have blocks of whole lines, so some must have been scanned ahead (a
/// random file may have none: lines longer than a block).
fn check_whole(seed: u64, lines: u64, scans: bool) {
    let mut g = Gen(seed);
    let cap = 2 * BLOCK as usize + 500;
    let made = transcript(&mut g, lines, cap, true);
    let dir = tempfile::tempdir().unwrap();
    let o = opts(cap, u64::MAX / 4);
    let before = AHEAD_SCANS.with(std::cell::Cell::get);
    let ahead = read(dir.path(), &made.text, &o, true);
    assert!(
        !scans || AHEAD_SCANS.with(std::cell::Cell::get) > before,
        "blocks were scanned ahead"
    );
    let in_turn = read(dir.path(), &made.text, &o, false);
    assert_eq!(ahead.len(), 1);
    assert_eq!(ahead, in_turn, "seed {seed}");
    // The facts themselves, not only their equality.
    let mut p = crate::domain::transcript::SessionParser::new(S, false);
    p.set_line_cap(o.max_line_size);
    let f = p.begin_main(&format!("-w-p/{S}.jsonl"));
    let used = p.block(f, &made.text).unwrap();
    let whole = p.finish();
    let last_newline = made.text.iter().rposition(|&b| b == b'\n').unwrap() + 1;
    assert_eq!(used as usize, last_newline);
    // (A byte-order mark before an overlong first line counts in its
    // length when the line spans blocks, so only the usage is compared.)
    assert!(ahead[0].contains(&format!("usage: {:?}", whole.usage)));
    assert_eq!(whole.usage.len(), made.messages, "seed {seed}");
    let bad: Vec<u64> = whole.bad_lines.iter().map(|b| b.line).collect();
    assert_eq!(bad, made.bad, "seed {seed}");
}

#[test]
fn a_file_read_ahead_parses_as_read_in_turn() {
    check_whole(7, 600, true);
}

#[test]
fn parts_read_ahead_are_the_parts_read_in_turn() {
    // Without overlong lines, a part ends after the same block either way.
    let mut g = Gen(11);
    let made = transcript(&mut g, 500, usize::MAX / 2, false);
    let dir = tempfile::tempdir().unwrap();
    let o = opts(usize::MAX / 2, 9 * BLOCK + 100);
    let ahead = read(dir.path(), &made.text, &o, true);
    let in_turn = read(dir.path(), &made.text, &o, false);
    assert!(ahead.len() > 10, "{} parts", ahead.len());
    assert_eq!(ahead, in_turn);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn any_file_read_ahead_parses_as_read_in_turn(seed in any::<u64>(), lines in 20u64..400) {
        check_whole(seed, lines, false);
    }
}
