use crate::domain::transcript::kit::SessionParser;
use crate::domain::transcript::{Ending, FileRole};

const S: &str = "01a23d7f-0000-7000-8000-000000000001";

fn line(kind: &str, payload: &str) -> String {
    format!(
        r#"{{"timestamp":"2026-12-03T20:01:09.000Z","ordinal":0,"type":"{kind}","payload":{payload}}}"#
    )
}

fn parse(lines: &[String]) -> crate::domain::transcript::ParsedSession {
    let mut p = SessionParser::new(S, false);
    let f = p.begin_main(&format!("2026/12/03/rollout-2026-12-03T20-01-09-{S}.jsonl"));
    let text = lines.join("\n") + "\n";
    let read = p.block(f, text.as_bytes()).unwrap();
    assert_eq!(read, text.len() as u64);
    p.finish()
}

/// Only `token_usage_record` is a message: `token_count` repeats the
/// numbers as running totals. The model is the last `turn_context`'s; a
/// record without a response id is still one message, named by its
/// thread and line.
#[test]
fn usage_records_are_the_messages() {
    let usage = r#"{"input_tokens":100,"cached_input_tokens":20,"cache_write_input_tokens":10,"output_tokens":5,"reasoning_output_tokens":2,"total_tokens":105}"#;
    let p = parse(&[
        line(
            "session_meta",
            &format!(r#"{{"id":"{S}","session_id":"{S}","cwd":"/w","cli_version":"0.171.0"}}"#),
        ),
        line("turn_context", r#"{"model":"gpt-5"}"#),
        line(
            "token_usage_record",
            &format!(r#"{{"response_id":"resp_1","usage":{usage}}}"#),
        ),
        line(
            "event_msg",
            &format!(
                r#"{{"type":"token_count","info":{{"total_token_usage":{usage},"last_token_usage":{usage}}}}}"#
            ),
        ),
        line("turn_context", r#"{"model":"gpt-5-mini"}"#),
        line("token_usage_record", &format!(r#"{{"usage":{usage}}}"#)),
        "not json".to_string(),
    ]);
    assert_eq!(p.usage.len(), 2);
    assert_eq!(p.usage[0].message_id, "resp_1");
    assert_eq!(p.usage[0].model, "gpt-5");
    let b = p.usage[0].buckets;
    assert_eq!(
        (b.input, b.cache_read, b.cache_write_5m, b.output),
        (70, 20, 10, 5)
    );
    assert_eq!(p.usage[1].message_id, format!("{S}:6"));
    assert_eq!(p.usage[1].model, "gpt-5-mini");
    assert_eq!(p.cwd.as_deref(), Some("/w"));
    assert_eq!(p.harness_version.as_deref(), Some("0.171.0"));
    assert_eq!(p.bad_lines.len(), 1);
    assert_eq!(p.bad_lines[0].line, 7);
    assert_eq!(p.files[0].model.as_deref(), Some("gpt-5-mini"));
}

/// A rollout from before `token_usage_record`: each `token_count`'s
/// last usage is a message, a row written again unchanged counts once,
/// a row with no `info` says nothing, a row without `last_token_usage`
/// counts the growth of the running total; the model is the row's own,
/// else the last `turn_context`'s.
#[test]
fn token_counts_are_the_messages_of_older_rollouts() {
    let count = |total: (u64, u64, u64), last: Option<(u64, u64, u64)>, model: &str| {
        let u = |(i, c, o): (u64, u64, u64)| {
            format!(
                r#"{{"input_tokens":{i},"cached_input_tokens":{c},"output_tokens":{o},"reasoning_output_tokens":1,"total_tokens":{}}}"#,
                i + o
            )
        };
        let last = last.map_or(String::new(), |l| {
            format!(r#","last_token_usage":{}"#, u(l))
        });
        let model = if model.is_empty() {
            String::new()
        } else {
            format!(r#","model":"{model}""#)
        };
        line(
            "event_msg",
            &format!(
                r#"{{"type":"token_count","info":{{"total_token_usage":{}{last}{model}}}}}"#,
                u(total)
            ),
        )
    };
    let p = parse(&[
        line("turn_context", r#"{"model":"gpt-5.2-codex"}"#),
        line(
            "event_msg",
            r#"{"type":"token_count","info":null,"rate_limits":{}}"#,
        ),
        count((1000, 250, 125), Some((1000, 250, 125)), ""),
        count((1000, 250, 125), Some((1000, 250, 125)), ""),
        count((3500, 750, 425), Some((2500, 500, 300)), "gpt-5.3-codex"),
        count((4000, 750, 500), None, ""),
    ]);
    let rows: Vec<(&str, u64, u64, u64)> = p
        .usage
        .iter()
        .map(|u| {
            (
                u.model.as_str(),
                u.buckets.input,
                u.buckets.cache_read,
                u.buckets.output,
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("gpt-5.2-codex", 750, 250, 125),
            ("gpt-5.3-codex", 2000, 500, 300),
            ("gpt-5.2-codex", 500, 0, 75)
        ]
    );
    assert_eq!(p.files[0].running_total, Some([4000, 750, 500]));
}

/// An aborted turn ends the thread as interrupted; a later completed
/// task takes that back. A subagent thread is finished by its
/// `task_complete`.
#[test]
fn endings_and_finished_threads() {
    let p = parse(&[line(
        "event_msg",
        r#"{"type":"turn_aborted","reason":"interrupted"}"#,
    )]);
    assert_eq!(p.agents[0].ending.map(|e| e.0), Some(Ending::Interrupt));
    let p = parse(&[
        line("event_msg", r#"{"type":"turn_aborted"}"#),
        line("event_msg", r#"{"type":"task_complete"}"#),
    ]);
    assert_eq!(p.agents[0].ending.map(|e| e.0), Some(Ending::TurnEnd));
    assert!(!p.agents[0].finished, "the root thread is not a subagent");
    // A turn the API refused: Codex 0.171 writes the error into the
    // task_complete (`error: null` when there is none).
    let p = parse(&[line(
        "event_msg",
        r#"{"type":"task_complete","last_agent_message":null,"error":{"message":"fake bad request","codex_error_info":"other"}}"#,
    )]);
    assert_eq!(p.agents[0].ending.map(|e| e.0), Some(Ending::ApiError));
    let p = parse(&[
        line(
            "event_msg",
            r#"{"type":"task_complete","error":{"message":"x"}}"#,
        ),
        line("event_msg", r#"{"type":"task_complete","error":null}"#),
    ]);
    assert_eq!(
        p.agents[0].ending.map(|e| e.0),
        Some(Ending::TurnEnd),
        "a later turn that ended well"
    );

    let mut p = SessionParser::new(S, false);
    p.begin_main(&format!("d/rollout-x-{S}.jsonl"));
    let role = FileRole::Agent {
        agent_id: "child".into(),
        layout: crate::domain::transcript::AgentLayout::Thread,
        workflow_id: None,
    };
    let f = p
        .begin_agent("d/rollout-x-child.jsonl", &role, None)
        .unwrap();
    let text = [
        line(
            "session_meta",
            r#"{"id":"child","session_id":"x","agent_nickname":"Hume","agent_role":"explorer"}"#,
        ),
        line("event_msg", r#"{"type":"task_complete"}"#),
    ]
    .join("\n")
        + "\n";
    p.block(f, text.as_bytes()).unwrap();
    let out = p.finish();
    let child = &out.agents[1];
    assert!(child.finished);
    assert_eq!(child.agent_type.as_deref(), Some("explorer"));
    assert_eq!(child.description.as_deref(), Some("Hume"));
}

/// A fork of the older kind replays its parent's turns at its start, all
/// written within seconds, each `task_started` keeping its turn's start of
/// long before: none of that is the fork's usage (its parent's rollout is
/// not here to be told from). The fork's own turn, started as it is
/// written, counts, and only its own response.
#[test]
fn a_fork_s_replayed_turns_are_not_its_usage() {
    let at = |t: &str, kind: &str, payload: &str| {
        format!(r#"{{"timestamp":"{t}","ordinal":0,"type":"{kind}","payload":{payload}}}"#)
    };
    let total = |i: u64, o: u64| {
        format!(
            r#"{{"type":"token_count","info":{{"total_token_usage":{{"input_tokens":{i},"cached_input_tokens":0,"output_tokens":{o}}},"last_token_usage":{{"input_tokens":{i},"cached_input_tokens":0,"output_tokens":{o}}}}}}}"#
        )
    };
    // 2026-12-03T20:01:09Z is 1796328069 s; the parent's turn began 3 h before.
    let p = parse(&[
        at(
            "2026-12-03T20:01:09.000Z",
            "session_meta",
            &format!(r#"{{"id":"{S}"}}"#),
        ),
        at(
            "2026-12-03T20:01:09.010Z",
            "session_meta",
            r#"{"id":"parent"}"#,
        ),
        at(
            "2026-12-03T20:01:09.020Z",
            "event_msg",
            r#"{"type":"task_started","started_at":1796317269}"#,
        ),
        at(
            "2026-12-03T20:01:09.030Z",
            "event_msg",
            &total(40_000_000, 90_000),
        ),
        at(
            "2026-12-03T20:01:09.040Z",
            "event_msg",
            r#"{"type":"task_complete"}"#,
        ),
        at(
            "2026-12-03T20:01:15.000Z",
            "event_msg",
            r#"{"type":"task_started","started_at":1796328075}"#,
        ),
        at("2026-12-03T20:01:20.000Z", "event_msg", &total(1_000, 50)),
    ]);
    assert_eq!(p.usage.len(), 1, "{:?}", p.usage);
    assert_eq!(
        (p.usage[0].buckets.input, p.usage[0].buckets.output),
        (1_000, 50)
    );
    assert!(
        p.usage[0].message_id.starts_with(S),
        "{}",
        p.usage[0].message_id
    );
}
