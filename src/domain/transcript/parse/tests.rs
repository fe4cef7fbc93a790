//! The parser's unit tests.

use super::lines::{Lines, complete_body};
use std::sync::atomic::Ordering;

use super::*;
use crate::domain::clock::parse_instant;
use crate::domain::transcript::wire::Record;
use crate::domain::transcript::{Buckets, SessionFile};

fn main_file(text: &str) -> SessionInput {
    SessionInput {
        session_id: "S".into(),
        files: vec![SessionFile {
            rel_path: "p/S.jsonl".into(),
            role: FileRole::Main,
            bytes: text.as_bytes().to_vec(),
            sidecar: None,
        }],
    }
}

const A1: &str = r#"{"type":"assistant","sessionId":"S","timestamp":"2026-01-15T10:00:00.000Z","message":{"id":"m1","model":"x","usage":{"input_tokens":1,"output_tokens":2,"cache_read_input_tokens":3,"cache_creation_input_tokens":9,"cache_creation":{"ephemeral_5m_input_tokens":4,"ephemeral_1h_input_tokens":5}}}}"#;

/// The lines a file is read as: the same numbers and contents as a plain
/// split on newlines (blank lines and a final segment without a newline
/// left out, a byte-order mark and one carriage return per line dropped),
/// whether or not the scanner read each line.
#[test]
fn lines_equal_a_plain_split() {
    use proptest::prelude::*;
    let piece = prop::sample::select(vec![
        r#"{"type":"user","uuid":"a"}"#,
        r#"  {"type":"assistant" , "message":{"id":"m","usage":{"input_tokens":1}}} "#,
        "",
        "   ",
        "\t",
        "{\"type\":\"user\",\"bad\":}",
        "not json",
        "{\"a\":\"tab\there\"}",
        "[1,2]",
        "{\"t\\u0079pe\":\"user\"}",
    ]);
    let file = (
        any::<bool>(),
        proptest::collection::vec((piece, any::<bool>()), 0..8),
        prop::sample::select(vec!["", "{\"type\":\"us", "{}"]),
    );
    let mut runner = proptest::test_runner::TestRunner::default();
    runner
        .run(&file, |(bom, lines, tail)| {
            let mut bytes = Vec::new();
            if bom {
                bytes.extend_from_slice(BOM);
            }
            for (l, crlf) in &lines {
                bytes.extend_from_slice(l.as_bytes());
                bytes.extend_from_slice(if *crlf { b"\r\n" } else { b"\n" });
            }
            bytes.extend_from_slice(tail.as_bytes());
            let (body, complete) = complete_body(&bytes, true);
            let through_last_newline = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            prop_assert_eq!(complete as usize, through_last_newline);
            let mut got: Vec<(u64, Vec<u8>)> = Vec::new();
            let mut reader = Lines {
                body,
                at: 0,
                n: 0,
                blocks: false,
                gaps: Default::default(),
            };
            let mut rec = Record::default();
            while let Some((n, l, scanned)) = reader.next_into(&mut rec) {
                // The two well-formed records are the scanner's to read.
                let record = l.starts_with(br#"{"type":"user","uuid""#)
                    || l.starts_with(br#"  {"type":"assistant""#);
                prop_assert_eq!(
                    scanned.is_some(),
                    record,
                    "{:?}",
                    String::from_utf8_lossy(l)
                );
                got.push((n, l.to_vec()));
            }
            let want: Vec<(u64, Vec<u8>)> = lines
                .iter()
                .enumerate()
                .filter(|(_, (l, _))| !l.bytes().all(|b| b.is_ascii_whitespace()))
                .map(|(i, (l, _))| (i as u64 + 1, l.as_bytes().to_vec()))
                .collect();
            prop_assert_eq!(got, want);
            Ok(())
        })
        .unwrap();
}

/// Content is kept for the records that want it whichever path reads
/// the line: the scanner (line 1), serde for a key the scanner leaves to
/// it (line 2). Content nobody wants is not checked (line 3: invalid
/// UTF-8 in a user message); wanted content is (line 4).
#[test]
fn wanted_content_is_kept_and_checked_on_either_path() {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(br#"{"type":"queue-operation","sessionId":"S","content":"<task-id>c1</task-id><tool-use-id>toolu_Q</tool-use-id>"}"#);
    bytes.extend_from_slice(b"\n");
    bytes.extend_from_slice(
        br#"{"t\u0079pe":"queue-operation","sessionId":"S","content":"<task-id>c2</task-id>"}"#,
    );
    bytes.extend_from_slice(
        b"\n{\"type\":\"user\",\"sessionId\":\"S\",\"message\":{\"content\":\"a\xffb\"}}\n",
    );
    bytes.extend_from_slice(b"{\"type\":\"queue-operation\",\"content\":\"\xff\"}\n");
    let input = SessionInput {
        session_id: "S".into(),
        files: vec![SessionFile {
            rel_path: "p/S.jsonl".into(),
            role: FileRole::Main,
            bytes,
            sidecar: None,
        }],
    };
    let p = parse_session(&input, false).unwrap();
    let ops: Vec<_> = p
        .queue_ops
        .iter()
        .map(|q| (q.task_id.as_deref(), q.tool_use_id.as_deref()))
        .collect();
    assert_eq!(ops, [(Some("c1"), Some("toolu_Q")), (Some("c2"), None)]);
    let bad: Vec<u64> = p.bad_lines.iter().map(|b| b.line).collect();
    assert_eq!(bad, [4]);
    assert!(
        p.bad_lines[0].reason.starts_with("unexpected value"),
        "{}",
        p.bad_lines[0].reason
    );
}

/// Local command output is not activity on either reading path: the
/// scanner's (line 2) and serde's (line 3, an escaped key).
#[test]
fn local_command_output_is_not_activity() {
    let text = [
        r#"{"type":"user","sessionId":"S","timestamp":"2026-01-15T10:00:00Z","message":{"role":"user","content":"go"}}"#,
        r#"{"type":"user","sessionId":"S","timestamp":"2026-01-15T11:00:00Z","message":{"role":"user","content":"<local-command-stdout>Bye!</local-command-stdout>"}}"#,
        r#"{"t\u0079pe":"user","sessionId":"S","timestamp":"2026-01-15T12:00:00Z","message":{"role":"user","content":"<local-command-stdout>again</local-command-stdout>"}}"#,
    ]
    .join("\n")
        + "\n";
    let p = parse_session(&main_file(&text), false).unwrap();
    let at = parse_instant("2026-01-15T10:00:00Z");
    assert_eq!((p.agents[0].last_seen, p.last_activity_at), (at, at));
    assert_eq!((p.records, p.agents[0].records), (3, 3));
}

#[test]
fn cache_creation_object_wins_over_flat_count() {
    let p = parse_session(&main_file(&format!("{A1}\n")), false).unwrap();
    let u = &p.usage[0];
    assert_eq!(
        u.buckets,
        Buckets {
            input: 1,
            output: 2,
            cache_write_5m: 4,
            cache_write_1h: 5,
            cache_read: 3,
            reasoning: 0
        }
    );
}

#[test]
fn flat_cache_creation_counts_as_5m() {
    let line =
        r#"{"type":"assistant","message":{"id":"m","usage":{"cache_creation_input_tokens":7}}}"#;
    let p = parse_session(&main_file(&format!("{line}\n")), false).unwrap();
    assert_eq!(p.usage[0].buckets.cache_write_5m, 7);
    assert_eq!(p.usage[0].buckets.cache_write_1h, 0);
}

#[test]
fn truncated_final_line_is_ignored_and_middle_damage_is_recorded() {
    let text = format!("{A1}\n{{not json\n{A1}\n{{\"type\":\"assist");
    let p = parse_session(&main_file(&text), false).unwrap();
    assert_eq!(p.bad_lines.len(), 1);
    assert_eq!(p.bad_lines[0].line, 2);
    assert!(
        p.bad_lines[0].reason.starts_with("invalid JSON"),
        "{}",
        p.bad_lines[0].reason
    );
    assert_eq!(p.records, 2);
    assert_eq!(p.usage.len(), 1);
    let strict = parse_session(&main_file(&text), true).unwrap_err();
    assert_eq!(strict.line, 2);
}

#[test]
fn unknown_types_and_non_objects_are_counted_not_damage() {
    let text = "{\"type\":\"brand-new\"}\n[1,2]\n{\"no_type\":1}\n";
    let p = parse_session(&main_file(text), false).unwrap();
    assert_eq!((p.records, p.unknown_records, p.bad_lines.len()), (3, 3, 0));
}

#[test]
fn negative_token_count_is_a_bad_line() {
    let text =
        "{\"type\":\"assistant\",\"message\":{\"id\":\"m\",\"usage\":{\"input_tokens\":-1}}}\n";
    let p = parse_session(&main_file(text), false).unwrap();
    assert_eq!(p.usage.len(), 0);
    assert!(p.bad_lines[0].reason.starts_with("unexpected value"));
}

#[test]
fn inline_sidechains_are_agents_with_their_own_tokens() {
    let text = [
        r#"{"type":"user","sessionId":"S","uuid":"u0","parentUuid":null,"isSidechain":false,"timestamp":"2026-01-15T10:00:00Z"}"#,
        r#"{"type":"user","sessionId":"S","uuid":"r1","parentUuid":null,"isSidechain":true,"timestamp":"2026-01-15T10:00:01Z"}"#,
        r#"{"type":"user","sessionId":"S","uuid":"r2","parentUuid":null,"isSidechain":true,"timestamp":"2026-01-15T10:00:02Z"}"#,
        r#"{"type":"assistant","sessionId":"S","uuid":"c2","parentUuid":"r2","isSidechain":true,"timestamp":"2026-01-15T10:00:04Z","message":{"id":"m2","usage":{"output_tokens":20}}}"#,
        r#"{"type":"assistant","sessionId":"S","uuid":"c1","parentUuid":"r1","isSidechain":true,"timestamp":"2026-01-15T10:00:03Z","message":{"id":"m1","usage":{"output_tokens":10}}}"#,
        r#"{"type":"assistant","sessionId":"S","uuid":"c1b","parentUuid":"c1","isSidechain":true,"timestamp":"2026-01-15T10:00:05Z","message":{"id":"m3","usage":{"output_tokens":30}}}"#,
    ]
    .join("\n")
        + "\n";
    let p = parse_session(&main_file(&text), false).unwrap();
    let ids: Vec<_> = p
        .agents
        .iter()
        .map(|a| (a.agent_id.as_str(), a.layout, a.records))
        .collect();
    assert_eq!(
        ids,
        vec![
            ("S", AgentLayout::Main, 1),
            ("r1", AgentLayout::Inline, 3),
            ("r2", AgentLayout::Inline, 2)
        ]
    );
    let owners: Vec<_> = p
        .usage
        .iter()
        .map(|u| (u.message_id.as_str(), u.agent_id.as_str()))
        .collect();
    assert_eq!(owners, vec![("m2", "r2"), ("m1", "r1"), ("m3", "r1")]);
}

#[test]
fn copied_records_keep_their_session_and_do_not_move_the_span() {
    let text = [
        r#"{"type":"assistant","sessionId":"OLD","timestamp":"2026-01-01T00:00:00Z","message":{"id":"m0","usage":{"output_tokens":1}}}"#,
        r#"{"type":"user","sessionId":"S","timestamp":"2026-01-15T10:00:00Z"}"#,
    ]
    .join("\n")
        + "\n";
    let p = parse_session(&main_file(&text), false).unwrap();
    assert_eq!(p.usage[0].record_session_id, "OLD");
    assert_eq!(p.started_at, parse_instant("2026-01-15T10:00:00Z"));
}

/// A large block is read by two threads when a core is spare (the later
/// lines scanned by a helper, every record then taken in order), and that
/// reads exactly what one thread reads: the same messages, line numbers of
/// degraded lines, spawn call and result across the split, sidechains,
/// blank and CRLF lines, a line over the cap, unknown records and the
/// file's cursor — wherever the split falls among them.
#[test]
fn a_block_split_with_a_helper_reads_as_one_thread_does() {
    let ts = |i: usize| {
        format!(
            "2026-01-15T{:02}:{:02}:{:02}.000Z",
            10 + i / 3600 % 10,
            i / 60 % 60,
            i % 60
        )
    };
    let filler = |i: usize| {
        format!(
            r#"{{"type":"assistant","sessionId":"S","uuid":"f{i}","timestamp":"{}","message":{{"id":"m{i}","model":"claude-sonnet-4-5","usage":{{"input_tokens":{i},"output_tokens":7,"cache_read_input_tokens":3}},"content":[{{"type":"text","text":"{}"}}]}}}}"#,
            ts(i),
            "a \\\"quoted\\\" line\\nwith escapes ".repeat(40)
        )
    };
    for lines in [1_500usize, 1_601, 1_777] {
        let mut text = String::new();
        text.push_str(r#"{"type":"user","sessionId":"S","uuid":"u0","parentUuid":null,"timestamp":"2026-01-15T09:59:00.000Z","message":{"role":"user","content":"first prompt"}}"#);
        text.push('\n');
        text.push_str(r#"{"type":"assistant","sessionId":"S","uuid":"a1","timestamp":"2026-01-15T09:59:01.000Z","message":{"id":"m_spawn","model":"claude-sonnet-4-5","usage":{"input_tokens":5,"output_tokens":6},"content":[{"type":"tool_use","id":"toolu_1","name":"Agent","input":{"description":"d","prompt":"p","subagent_type":"general-purpose"}}]}}"#);
        text.push('\n');
        for i in 0..lines {
            match i % 211 {
                17 => text.push('\n'),
                29 => text.push_str("{\"type\":\"user\",bad}\n"),
                31 => text.push_str("[1,2]\n"),
                37 => {
                    text.push_str(&format!(r#"{{"type":"user","sessionId":"S","uuid":"s{i}","parentUuid":null,"isSidechain":true,"timestamp":"{}","message":{{"role":"user","content":"side"}}}}"#, ts(i)));
                    text.push('\n');
                    text.push_str(&format!(r#"{{"type":"assistant","sessionId":"S","uuid":"sa{i}","parentUuid":"s{i}","isSidechain":true,"timestamp":"{}","message":{{"id":"side{i}","usage":{{"output_tokens":2}}}}}}"#, ts(i)));
                    text.push('\n');
                }
                41 => text.push_str(&format!("{}\r\n", filler(i))),
                43 => text.push_str(&format!(
                    "{{\"type\":\"user\",\"pad\":\"{}\"}}\n",
                    "x".repeat(9_000)
                )),
                _ => {
                    text.push_str(&filler(i));
                    text.push('\n');
                }
            }
            if i == lines * 4 / 5 {
                text.push_str(r#"{"type":"user","sessionId":"S","uuid":"r1","timestamp":"2026-01-15T11:00:00.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"done"}]},"toolUseResult":{"agentId":"abc","status":"completed","usage":{"input_tokens":2,"output_tokens":10}}}"#);
                text.push('\n');
            }
        }
        text.push_str("{\"type\":\"assistant\",\"unfinished");
        assert!(text.len() > 2 * prescan::SPLIT_MIN, "{}", text.len());
        let read = |spare: Option<Arc<SpareCores>>| {
            let mut p = SessionParser::new("S", false);
            p.share_cores(spare);
            p.set_line_cap(8_192);
            let f = p.begin_main("p/S.jsonl");
            let used = p.block(f, text.as_bytes()).unwrap();
            (used, format!("{:?}", p.finish()))
        };
        let before = prescan::SPLITS.with(std::cell::Cell::get);
        let spare = SpareCores::new(1);
        let (used, two) = read(Some(Arc::clone(&spare)));
        assert_eq!(
            prescan::SPLITS.with(std::cell::Cell::get),
            before + 1,
            "the helper read"
        );
        assert_eq!(spare.0.load(Ordering::SeqCst), 1, "the core is given back");
        let (used_one, one) = read(None);
        assert_eq!(used, used_one);
        assert_eq!(used as usize, text.rfind('\n').unwrap() + 1);
        assert_eq!(two, one, "{lines} lines");
        // The facts themselves, not only their equality.
        let mut p = SessionParser::new("S", false);
        p.share_cores(Some(SpareCores::new(1)));
        p.set_line_cap(8_192);
        let f = p.begin_main("p/S.jsonl");
        p.block(f, text.as_bytes()).unwrap();
        let s = p.finish();
        let bad: Vec<u64> = s.bad_lines.iter().map(|b| b.line).collect();
        let expected: Vec<u64> = {
            // Line numbers as a plain split counts them.
            text.split('\n')
                .enumerate()
                .filter(|(_, l)| l.starts_with("{\"type\":\"user\",bad}") || l.len() > 8_191)
                .map(|(i, _)| i as u64 + 1)
                .collect()
        };
        assert_eq!(bad, expected);
        assert_eq!(s.spawns.len(), 1);
        assert_eq!(
            s.spawns[0]
                .result
                .as_ref()
                .and_then(|r| r.child_agent_id.as_deref()),
            Some("abc")
        );
        let fillers = (0..lines)
            .filter(|i| !matches!(i % 211, 17 | 29 | 31 | 37 | 43))
            .count();
        assert_eq!(
            s.usage.len(),
            fillers + 1 + (0..lines).filter(|i| i % 211 == 37).count()
        );
        assert_eq!(s.files[0].line, text.matches('\n').count() as u64);
    }
}

/// What a Claude Code transcript's records say when read for the index:
/// a record whose content is not UTF-8 throughout (here inside a tool
/// result nobody indexes) says nothing, as serde reads it, whether or not
/// the rest of its content has words (u1, u2); a valid one says its words
/// (u0, u3, and u4 nothing).
#[test]
fn content_that_is_not_utf8_says_nothing() {
    let line = |uuid: &str, output: &[u8], text: &str| -> Vec<u8> {
        let mut l = format!(
            r#"{{"type":"user","uuid":"{uuid}","sessionId":"S","timestamp":"2026-12-03T06:47:44.385Z","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t1","content":"a"#
        )
        .into_bytes();
        l.extend_from_slice(output);
        l.extend_from_slice(b"b\"}");
        if !text.is_empty() {
            l.extend_from_slice(format!(r#",{{"type":"text","text":"{text}"}}"#).as_bytes());
        }
        l.extend_from_slice(b"]}}\n");
        l
    };
    // The first prompt is read by serde too (for the session's start).
    let mut bytes = line("u0", b"ok", "opening words");
    bytes.extend(line("u1", b"\xff", "first words"));
    bytes.extend(line("u2", b"\xff", ""));
    bytes.extend(line("u3", b"ok", "second words"));
    bytes.extend(line("u4", b"ok", ""));
    let read = |outputs: bool| {
        let mut p = SessionParser::new("S", false);
        p.read_said(Some(crate::domain::transcript::said::SaidOptions {
            outputs,
        }));
        let file = p.begin_main("p/S.jsonl");
        p.block(file, &bytes).unwrap();
        let parsed = p.finish();
        assert!(parsed.bad_lines.is_empty());
        parsed
            .said
            .iter()
            .filter(|s| !s.pieces.is_empty())
            .map(|s| {
                let texts = s.pieces.iter().map(|p| p.text.clone()).collect();
                (s.record.clone(), texts)
            })
            .collect::<Vec<(String, Vec<String>)>>()
    };
    let said = |want: &[(&str, &[&str])]| -> Vec<(String, Vec<String>)> {
        want.iter()
            .map(|(r, t)| (r.to_string(), t.iter().map(ToString::to_string).collect()))
            .collect()
    };
    assert_eq!(
        read(false),
        said(&[("u0", &["opening words"]), ("u3", &["second words"])])
    );
    assert_eq!(
        read(true),
        said(&[
            ("u0", &["aokb", "opening words"]),
            ("u3", &["aokb", "second words"]),
            ("u4", &["aokb"])
        ])
    );
}

/// A reader for the search index alone reads no token counts, and what
/// the records say is the same as when it does: every main transcript of
/// the Claude Code fixtures, with and without tool outputs.
#[test]
fn words_are_read_the_same_without_token_counts() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/golden/claude/corpus/projects");
    let mut files = Vec::new();
    for project in std::fs::read_dir(&dir).unwrap() {
        for f in std::fs::read_dir(project.unwrap().path()).unwrap() {
            let path = f.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            if name.ends_with(".jsonl") && !name.starts_with("agent-") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    let mut counted = 0;
    for path in &files {
        let sid = path.file_stem().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(path).unwrap();
        for outputs in [false, true] {
            let read = |usage: bool| {
                let mut p = SessionParser::new(&sid, false);
                p.read_said(Some(crate::domain::transcript::said::SaidOptions {
                    outputs,
                }));
                p.read_usage(usage);
                let file = p.begin_main("p/S.jsonl");
                p.block(file, &bytes).unwrap();
                p.finish()
            };
            let (with, without) = (read(true), read(false));
            assert_eq!(with.said, without.said, "{path:?}");
            assert!(without.usage.is_empty(), "{path:?}");
            counted += with.usage.len();
        }
    }
    assert!(counted > 0);
}
