//! Agent status as evidence with a time : the status
//! matrix through the binary, hooks before ingest, the watchdog's boundary,
//! transcript endings, and the `status` report.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{C, Env, copy_tree, fixtures, skip};
use crate::hooks::{events, hook_ok};

const DAY: &str = "2026-01-12T";
/// The subagent of session C whose spawning call has no result (working).
const W: &str = "def456";
/// The subagent of session C finished by its tool_result at 08:05:00.
const X: &str = "abc123";

/// Session C of the fixture corpus alone, copied so lines can be appended.
struct Case {
    env: Env,
    corpus: PathBuf,
}

impl Case {
    fn new() -> Case {
        let env = Env::new();
        let corpus = corpus_of_c(&env);
        let c = Case { env, corpus };
        c.ingest();
        c
    }

    fn ingest(&self) {
        let (code, _, err) = self
            .env
            .run(&["ingest", "--root", self.corpus.to_str().unwrap()]);
        assert_eq!(code, 0, "{err}");
    }

    fn main_file(&self) -> PathBuf {
        self.corpus.join(format!("-home-dev-beta/{C}.jsonl"))
    }

    fn agent_file(&self) -> PathBuf {
        self.corpus.join(format!(
            "-home-dev-beta/{C}/subagents/workflows/wf_001/agent-{W}.jsonl"
        ))
    }

    fn append(&self, file: &Path, line: &Value) {
        let mut f = std::fs::OpenOptions::new().append(true).open(file).unwrap();
        writeln!(f, "{line}").unwrap();
    }

    /// A plain user line of the main transcript at `hms`.
    fn main_line(&self, hms: &str) {
        self.append(
            &self.main_file(),
            &json!({"type": "user", "sessionId": C, "uuid": format!("u-{hms}"), "parentUuid": "c-a2",
                   "timestamp": format!("{DAY}{hms}.000Z"), "message": {"role": "user", "content": "more"}}),
        );
        self.ingest();
    }

    fn agent_line(&self, hms: &str) {
        self.append(
            &self.agent_file(),
            &json!({"type": "user", "sessionId": C, "agentId": W, "isSidechain": true, "uuid": format!("w-{hms}"),
                   "parentUuid": "w-a1", "timestamp": format!("{DAY}{hms}.000Z"),
                   "message": {"role": "user", "content": "more"}}),
        );
        self.ingest();
    }

    fn hook(&self, hms: &str, payload: &Value) {
        hook_ok(&self.env, &format!("{DAY}{hms}Z"), payload, &[]);
    }

    fn main_hook(&self, hms: &str, event: &str) {
        self.hook(hms, &json!({"session_id": C, "hook_event_name": event}));
    }

    fn subagent_stop(&self, hms: &str, agent: &str) {
        self.hook(
            hms,
            &json!({"session_id": C, "hook_event_name": "SubagentStop", "agent_id": agent, "agent_type": "general-purpose"}),
        );
    }

    fn sweep(&self, hms: &str) -> (i32, String) {
        let out = self
            .env
            .cmd()
            .env("SESSIONKIT_NOW", format!("{DAY}{hms}Z"))
            .args(["sweep", "--format", "jsonl"])
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
        )
    }

    /// (status, status_at as HH:MM:SS, evidence) as stored.
    fn stored(&self, agent: &str) -> (String, String, String) {
        let c = rusqlite::Connection::open(self.env.db()).unwrap();
        let (s, at, cause): (String, Option<i64>, String) = c
            .query_row(
                "SELECT status, status_at, outcome_cause FROM agents WHERE session_id = ?1 AND agent_id = ?2",
                [C, agent],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        let at = at.map(|t| sessionkit::format_instant(t)[11..19].to_string());
        (s, at.unwrap_or_default(), cause)
    }

    fn session_status(&self) -> (String, String) {
        let c = rusqlite::Connection::open(self.env.db()).unwrap();
        let (s, at): (String, i64) = c
            .query_row(
                "SELECT status, status_at FROM sessions WHERE session_id = ?1",
                [C],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        (s, sessionkit::format_instant(at)[11..19].to_string())
    }
}

fn corpus_of_c(env: &Env) -> PathBuf {
    let corpus = env.path("corpus");
    let beta = corpus.join("-home-dev-beta");
    let from = fixtures().join("-home-dev-beta");
    copy_tree(&from.join(C), &beta.join(C));
    std::fs::copy(
        from.join(format!("{C}.jsonl")),
        beta.join(format!("{C}.jsonl")),
    )
    .unwrap();
    corpus
}

/// An expected (status, time, evidence); None: unchanged.
type Want<'a> = Option<(&'a str, &'a str, &'a str)>;

fn st(s: &str, at: &str, cause: &str) -> (String, String, String) {
    (s.to_string(), at.to_string(), cause.to_string())
}

#[test]
fn main_agent_status_matrix() {
    type Step = fn(&Case);
    let setups: [(&str, Step, (&str, &str, &str)); 5] = [
        ("working", |_| {}, ("working", "08:05:02", "transcript")),
        (
            "waiting",
            |c| c.main_hook("08:06:00", "Stop"),
            ("waiting", "08:06:00", "stop_hook"),
        ),
        (
            "error",
            |c| c.main_hook("08:06:00", "StopFailure"),
            ("error", "08:06:00", "stop_failure"),
        ),
        (
            "completed",
            |c| c.main_hook("08:06:00", "SessionEnd"),
            ("completed", "08:06:00", "session_end"),
        ),
        (
            "unknown",
            |c| assert_eq!(c.sweep("08:30:00").0, 0),
            ("unknown", "08:05:02", "watchdog"),
        ),
    ];
    let evidence: [(&str, Step); 6] = [
        ("transcript line at 08:05:30", |c| c.main_line("08:05:30")),
        ("transcript line at 08:07:00", |c| c.main_line("08:07:00")),
        ("Stop at 08:05:01", |c| c.main_hook("08:05:01", "Stop")),
        ("Stop at 08:07:00", |c| c.main_hook("08:07:00", "Stop")),
        ("UserPromptSubmit at 08:07:00", |c| {
            c.main_hook("08:07:00", "UserPromptSubmit");
        }),
        ("sweep at 08:30:00", |c| {
            c.sweep("08:30:00");
        }),
    ];
    // Expected status after each evidence, per current status (None: unchanged).
    let newer_line = Some(("working", "08:07:00", "transcript"));
    let stop = Some(("waiting", "08:07:00", "stop_hook"));
    let prompt = Some(("working", "08:07:00", "prompt_submit"));
    let expected: [[Want; 6]; 5] = [
        // working@08:05:02 (inferred): any newer evidence wins.
        [
            Some(("working", "08:05:30", "transcript")),
            newer_line,
            None,
            stop,
            prompt,
            Some(("unknown", "08:05:02", "watchdog")),
        ],
        // waiting@08:06 (Stop): an older transcript line does not undo it.
        [
            None,
            newer_line,
            None,
            stop,
            prompt,
            // A turn that ended, and nothing since: the session is over.
            Some(("completed", "08:06:00", "watchdog")),
        ],
        // error@08:06 (StopFailure, inferred): newer evidence revives; the watchdog leaves it.
        [None, newer_line, None, stop, prompt, None],
        // completed@08:06 (SessionEnd, inferred): the same.
        [None, newer_line, None, stop, prompt, None],
        // unknown@08:05:02: anything newer than the silence revives it.
        [
            Some(("working", "08:05:30", "transcript")),
            newer_line,
            None,
            stop,
            prompt,
            None,
        ],
    ];
    for (i, (name, setup, current)) in setups.iter().enumerate() {
        for (j, (what, step)) in evidence.iter().enumerate() {
            let c = Case::new();
            setup(&c);
            let cur = st(current.0, current.1, current.2);
            assert_eq!(c.stored(C), cur, "setup {name}");
            step(&c);
            let want = expected[i][j].map_or(cur.clone(), |(s, at, cause)| st(s, at, cause));
            assert_eq!(c.stored(C), want, "{name} + {what}");
            // The session mirrors its main agent.
            assert_eq!(
                c.session_status(),
                (want.0.clone(), want.1.clone()),
                "{name} + {what}"
            );
        }
    }
}

#[test]
fn subagent_status_matrix() {
    type Step = fn(&Case);
    let setups: [(&str, Step, (&str, &str, &str)); 3] = [
        ("working", |_| {}, ("working", "08:03:00", "transcript")),
        (
            "completed",
            |c| c.subagent_stop("08:04:00", W),
            ("completed", "08:04:00", "subagent_stop"),
        ),
        (
            "unknown",
            |c| assert_eq!(c.sweep("08:30:00").0, 0),
            ("unknown", "08:03:00", "watchdog"),
        ),
    ];
    let evidence: [(&str, Step); 4] = [
        ("transcript line at 08:09:00", |c| c.agent_line("08:09:00")),
        ("SubagentStop at 08:02:00", |c| {
            c.subagent_stop("08:02:00", W);
        }),
        ("SubagentStop at 08:09:00", |c| {
            c.subagent_stop("08:09:00", W);
        }),
        ("sweep at 08:40:00", |c| {
            c.sweep("08:40:00");
        }),
    ];
    let expected: [[Want; 4]; 3] = [
        // An observed stop wins over inferred working whatever its time.
        [
            Some(("working", "08:09:00", "transcript")),
            Some(("completed", "08:02:00", "subagent_stop")),
            Some(("completed", "08:09:00", "subagent_stop")),
            Some(("unknown", "08:03:00", "watchdog")),
        ],
        // Observed terminals are sticky.
        [None, None, None, None],
        [
            Some(("working", "08:09:00", "transcript")),
            Some(("completed", "08:02:00", "subagent_stop")),
            Some(("completed", "08:09:00", "subagent_stop")),
            None,
        ],
    ];
    for (i, (name, setup, current)) in setups.iter().enumerate() {
        for (j, (what, step)) in evidence.iter().enumerate() {
            let c = Case::new();
            setup(&c);
            let cur = st(current.0, current.1, current.2);
            assert_eq!(c.stored(W), cur, "setup {name}");
            step(&c);
            let want = expected[i][j].map_or(cur.clone(), |(s, at, cause)| st(s, at, cause));
            assert_eq!(c.stored(W), want, "{name} + {what}");
        }
    }
    // A tool_result already finished abc123: a later SubagentStop keeps that evidence.
    let c = Case::new();
    assert_eq!(c.stored(X), st("completed", "08:05:00", "tool_result"));
    c.subagent_stop("08:09:00", X);
    assert_eq!(c.stored(X), st("completed", "08:05:00", "tool_result"));
}

#[test]
fn hooks_before_ingest_apply_when_the_agent_appears() {
    let env = Env::new();
    let corpus = corpus_of_c(&env);
    // Both arrive before any transcript is read: stored, nothing to update.
    let stop = json!({"session_id": C, "hook_event_name": "Stop"});
    let sub = json!({"session_id": C, "hook_event_name": "SubagentStop", "agent_transcript_path": format!("/p/{C}/subagents/agent-{W}.jsonl")});
    hook_ok(&env, "2026-01-12T08:06:00Z", &stop, &[]);
    hook_ok(&env, "2026-01-12T08:03:30Z", &sub, &[]);
    assert_eq!(events(&env).len(), 2);
    let (code, _, err) = env.run(&["ingest", "--root", corpus.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let c = Case { env, corpus };
    assert_eq!(c.stored(W), st("completed", "08:03:30", "subagent_stop"));
    assert_eq!(c.stored(C), st("waiting", "08:06:00", "stop_hook"));
    assert_eq!(
        c.session_status(),
        ("waiting".to_string(), "08:06:00".to_string())
    );
    // An unchanged replay changes nothing at all.
    let before = c.env.dump();
    let (code, _, err) = c.env.run(&["replay", "--root", c.corpus.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(c.env.dump(), before);
}

#[test]
fn a_subagent_stop_naming_the_main_agent_is_refused() {
    let c = Case::new();
    for payload in [
        json!({"session_id": C, "hook_event_name": "SubagentStop", "agent_id": C}),
        json!({"session_id": C, "hook_event_name": "SubagentStop"}),
    ] {
        c.hook("08:07:00", &payload);
    }
    assert_eq!(events(&c.env).len(), 2, "stored");
    assert_eq!(
        c.stored(C),
        st("working", "08:05:02", "transcript"),
        "no status change"
    );
    // A hook for an agent nobody has ingested changes nothing either.
    c.subagent_stop("08:07:00", "never-seen");
    assert_eq!(events(&c.env).len(), 3);
}

#[test]
fn watchdog_boundary_dry_run_and_idempotence() {
    let c = Case::new();
    // C's main agent: working@08:05:02; W: working@08:03:00; both 10 minutes by default.
    let dry = |hms: &str| {
        let out = c
            .env
            .cmd()
            .env("SESSIONKIT_NOW", format!("{DAY}{hms}Z"))
            .args(["sweep", "--dry-run", "--format", "jsonl"])
            .output()
            .unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
        )
    };
    let row = |agent: &str, from: &str, at: &str, dry_run: bool| {
        format!(
            "{{\"action\":\"watchdog\",\"agent_id\":\"{agent}\",\"dry_run\":{dry_run},\"evidence_at\":\"{DAY}{at}.000Z\",\"from\":\"{from}\",\"schema\":\"sessionkit.sweep/1\",\"session_id\":\"{C}\",\"to\":\"unknown\"}}\n"
        )
    };
    assert_eq!(
        dry("08:13:00.000"),
        (0, String::new()),
        "W exactly at its window"
    );
    assert_eq!(
        dry("08:13:00.001"),
        (1, row(W, "working", "08:03:00", true))
    );
    let before = c.env.dump();
    assert_eq!(
        dry("08:15:02.001"),
        (
            1,
            row(C, "working", "08:05:02", true) + &row(W, "working", "08:03:00", true)
        )
    );
    assert_eq!(c.env.dump(), before, "--dry-run changes nothing");
    assert_eq!(
        c.sweep("08:15:02.000"),
        (0, row(W, "working", "08:03:00", false))
    );
    assert_eq!(
        c.sweep("08:15:02.001"),
        (0, row(C, "working", "08:05:02", false))
    );
    assert_eq!(c.sweep("09:00:00"), (0, String::new()), "idempotent");
    assert_eq!(dry("09:00:00"), (0, String::new()));
    assert_eq!(
        c.session_status(),
        ("unknown".to_string(), "08:05:02".to_string())
    );
}

#[test]
fn the_watchdog_window_is_a_setting() {
    let c = Case::new();
    let (code, _, err) = c.env.run(&["config", "set", "watchdog.minutes", "60"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        c.sweep("09:03:00").1,
        "",
        "W is 60 minutes old: not older than the window"
    );
    let out = c
        .env
        .cmd()
        .env("SESSIONKIT_NOW", format!("{DAY}09:03:00Z"))
        .env("SESSIONKIT_WATCHDOG_MINUTES", "1")
        .args(["sweep", "--format", "jsonl"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().lines().count(),
        2,
        "the environment overrides"
    );
}

#[test]
fn a_transcript_that_ends_on_a_failure_is_an_error_and_an_interrupt_is_not() {
    let c = Case::new();
    let api_error = json!({"type": "assistant", "sessionId": C, "uuid": "e1", "parentUuid": "c-a2", "isApiErrorMessage": true,
        "timestamp": format!("{DAY}08:06:00.000Z"),
        "message": {"id": "msg_err", "role": "assistant", "model": "<synthetic>", "content": [{"type": "text", "text": "API Error: 529 overloaded"}],
                    "usage": {"input_tokens": 0, "output_tokens": 0}}});
    c.append(&c.main_file(), &api_error);
    c.ingest();
    assert_eq!(c.stored(C), st("error", "08:06:00", "api_error"));
    // The user comes back: the session goes on.
    c.main_line("08:08:00");
    assert_eq!(c.stored(C), st("working", "08:08:00", "transcript"));
    let interrupt = json!({"type": "user", "sessionId": C, "uuid": "i1", "parentUuid": "u-08:08:00",
        "timestamp": format!("{DAY}08:09:00.000Z"),
        "message": {"role": "user", "content": [{"type": "text", "text": "[Request interrupted by user]"}]}});
    c.append(&c.main_file(), &interrupt);
    c.ingest();
    assert_eq!(c.stored(C), st("waiting", "08:09:00", "user_interrupt"));
    // A subagent transcript ending on an API error: error.
    let sub_error = json!({"type": "assistant", "sessionId": C, "agentId": W, "isSidechain": true, "uuid": "we", "parentUuid": "w-a1",
        "isApiErrorMessage": true, "timestamp": format!("{DAY}08:04:00.000Z"),
        "message": {"id": "msg_werr", "role": "assistant", "model": "<synthetic>", "content": [{"type": "text", "text": "API Error: 500"}],
                    "usage": {"input_tokens": 0, "output_tokens": 0}}});
    c.append(&c.agent_file(), &sub_error);
    c.ingest();
    assert_eq!(c.stored(W), st("error", "08:04:00", "api_error"));
}

#[test]
fn status_lists_live_agents_and_all_with_evidence() {
    let c = Case::new();
    c.main_hook("08:06:00", "Stop");
    let status = |now: &str, args: &[&str]| -> Value {
        let out = c
            .env
            .cmd()
            .env("SESSIONKIT_NOW", now)
            .args(["status", "--format", "json"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let pick = |v: &Value| -> Vec<(String, String, String, String, Value)> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["session_id"].as_str().unwrap()[..8].to_string(),
                    r["agent_id"].as_str().unwrap().to_string(),
                    r["status"].as_str().unwrap().to_string(),
                    r["evidence"].as_str().unwrap().to_string(),
                    r["age"].clone(),
                )
            })
            .collect()
    };
    let at = |session: &str, agent: &str, status: &str, evidence: &str, age: &str| {
        (
            session.to_string(),
            agent.to_string(),
            status.to_string(),
            evidence.to_string(),
            json!(age),
        )
    };
    // 08:08: C's main agent waits (Stop), W still works; every other session is silent.
    let live = status("2026-01-12T08:08:00Z", &[]);
    assert_eq!(
        pick(&live),
        vec![
            at("33333333", C, "waiting", "stop_hook", "2m00s"),
            at("33333333", W, "working", "transcript", "5m00s")
        ]
    );
    let first = &live[0];
    assert_eq!(first["status_at"], json!("2026-01-12T08:06:00.000Z"));
    assert_eq!(first["last_activity_at"], json!("2026-01-12T08:05:02.000Z"));
    assert_eq!(first["project"], json!("beta"));
    assert_eq!(first["total_tokens"], json!(6672));
    // 08:14: W has been silent for 11 minutes: shown unknown before any sweep.
    assert_eq!(
        pick(&status("2026-01-12T08:14:00Z", &[])),
        vec![at("33333333", C, "waiting", "stop_hook", "8m00s")]
    );
    let all = pick(&status(
        "2026-01-12T08:14:00Z",
        &["--all", "--project", "beta"],
    ));
    assert_eq!(
        all,
        vec![
            at("33333333", C, "waiting", "stop_hook", "8m00s"),
            at("33333333", X, "completed", "tool_result", "9m00s"),
            at("33333333", W, "unknown", "watchdog", "11m00s"),
        ]
    );
    assert_eq!(
        pick(&status("2026-01-12T08:14:00Z", &["--project", "nope"])),
        vec![]
    );
}

/// A session the hooks have seen and ingest has not (a client killed
/// mid-turn, an API error that fires no end event) is listed at once by
/// `status` and `sessions`, its status from its events, with a note that
/// no transcript is read yet.
#[test]
fn status_lists_sessions_only_hooks_have_seen() {
    let env = Env::new();
    hook_ok(
        &env,
        "2026-03-01T10:00:00Z",
        &json!({"session_id": "codex-1", "hook_event_name": "Stop", "turn_id": "t", "cwd": "/w/shop"}),
        &[],
    );
    let at = |now: &str, args: &[&str]| {
        let (code, out, err) = env.run_at(now, args);
        assert_eq!(code, 0, "{err}");
        (out, err)
    };
    let (out, err) = at("2026-03-01T10:01:00Z", &["status", "--format", "jsonl"]);
    let row: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (
            &row["session_id"],
            &row["agent"],
            &row["status"],
            &row["evidence"],
            &row["total_tokens"]
        ),
        (
            &json!("codex-1"),
            &json!("main"),
            &json!("waiting"),
            &json!("stop_hook"),
            &json!(0)
        )
    );
    assert_eq!(
        err,
        "sessionkit: 1 session(s) are shown from hook events alone (no transcript read yet, so no tokens): `sessionkit sweep` or `sessionkit ingest` reads them\n"
    );
    let (out, err) = at("2026-03-01T10:01:00Z", &["sessions", "--format", "jsonl"]);
    let row: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (
            &row["session_id"],
            &row["harness"],
            &row["cwd"],
            &row["status"],
            &row["records"],
            &row["total_tokens"]
        ),
        (
            &json!("codex-1"),
            &json!("codex"),
            &json!("/w/shop"),
            &json!("waiting"),
            &json!(0),
            &json!(0)
        )
    );
    assert_eq!(row["started_at"], "2026-03-01T10:00:00.000Z");
    assert!(
        err.contains("1 session(s) listed from hook events alone"),
        "{err}"
    );
    // Past the watchdog window its ended turn makes it completed, sweep or
    // no sweep.
    let (out, _) = at(
        "2026-03-01T11:00:00Z",
        &["status", "--all", "--format", "jsonl"],
    );
    let row: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(row["status"], "completed");
    let (out, _) = at("2026-03-01T11:00:00Z", &["status", "--format", "jsonl"]);
    assert_eq!(out, "", "not live any more");
}

/// `sweep` catches up the transcript of a session only the hooks have
/// seen (its client died before any end event), by tail resume: the tokens
/// equal an ingest's, and the watchdog then ends it as unknown.
#[test]
fn sweep_catches_up_a_session_whose_client_died() {
    let env = Env::new();
    let corpus = corpus_of_c(&env);
    let main = corpus.join(format!("-home-dev-beta/{C}.jsonl"));
    let prompt = json!({"session_id": C, "hook_event_name": "UserPromptSubmit", "prompt": "go on",
                        "cwd": "/home/dev/beta", "transcript_path": main.to_str().unwrap()});
    hook_ok(&env, "2026-01-12T08:10:00Z", &prompt, &[]);
    let sweep = |now: &str| {
        let (code, out, err) = env.run_at(now, &["sweep", "--format", "jsonl"]);
        assert_eq!(code, 0, "{err}");
        (out, err)
    };
    let (out, err) = sweep("2026-01-12T08:11:00Z");
    assert_eq!(out, "", "nothing stale yet");
    assert!(
        err.contains("caught up 1 open session transcript(s)"),
        "{err}"
    );
    // Exactly what an ingest of the same files counts.
    let reference = Env::new();
    reference.ingest(&corpus_of_c(&reference));
    let ours = crate::common::db_by_session(&env);
    assert_eq!(ours, crate::common::db_by_session(&reference));
    assert!(ours[C][0] > 0, "{ours:?}");
    assert_eq!(
        env.text(
            "SELECT status || ' ' || status_at FROM sessions WHERE session_id = ?1",
            C
        ),
        "working 1768205400000",
        "the prompt (08:10) is newer than the transcript"
    );
    // A second pass reads nothing new.
    let (_, err) = sweep("2026-01-12T08:12:00Z");
    assert!(!err.contains("caught up"), "{err}");
    // Silent past the window: the watchdog ends it.
    let (out, _) = sweep("2026-01-12T09:00:00Z");
    let main_row = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| r["agent_id"] == C)
        .unwrap();
    assert_eq!(
        (&main_row["from"], &main_row["to"]),
        (&json!("working"), &json!("unknown"))
    );
}

/// A session whose run is open and whose transcript grew since it was
/// ingested: `sweep` reads the new bytes, within `sweep.catch_up_bytes`.
#[test]
fn sweep_catches_up_an_open_run_within_its_budget() {
    let c = Case::new();
    let start = json!({"session_id": C, "hook_event_name": "SessionStart", "source": "startup",
                       "cwd": "/home/dev/beta", "transcript_path": c.main_file().to_str().unwrap()});
    let out = c
        .env
        .cmd()
        .env("SESSIONKIT_NOW", "2026-01-12T08:10:00Z")
        .args(["hook", "session-start", "--harness", "claude-code"])
        .write_stdin(start.to_string())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let before = crate::common::db_by_session(&c.env)[C];
    c.append(
        &c.main_file(),
        &json!({"type": "assistant", "sessionId": C, "uuid": "late-1", "parentUuid": "c-a2",
                "timestamp": format!("{DAY}08:11:00.000Z"),
                "message": {"id": "msg_late_1", "role": "assistant", "model": "claude-sonnet-4-5",
                            "content": [{"type": "text", "text": "late"}],
                            "usage": {"input_tokens": 1000, "output_tokens": 20}}}),
    );
    // A budget smaller than what is new: nothing read, the pass says so.
    c.env.run(&["config", "set", "sweep.catch_up_bytes", "10"]);
    let (code, _, err) = c.env.run_at("2026-01-12T08:12:00Z", &["sweep"]);
    assert_eq!(code, 0);
    assert!(
        err.contains("1 open session transcript(s) hold more than this pass could read"),
        "{err}"
    );
    assert_eq!(crate::common::db_by_session(&c.env)[C], before);
    c.env.run(&["config", "unset", "sweep.catch_up_bytes"]);
    let (_, _, err) = c.env.run_at("2026-01-12T08:12:00Z", &["sweep"]);
    assert!(
        err.contains("caught up 1 open session transcript(s)"),
        "{err}"
    );
    let after = crate::common::db_by_session(&c.env)[C];
    assert_eq!((after[0] - before[0], after[1] - before[1]), (1000, 20));
}

/// a turn that failed
/// (StopFailure) and then a SessionEnd: the session ended in error, not
/// completed. A later good turn ends completed as before.
#[test]
fn stop_failure_then_session_end_ends_as_error() {
    let c = Case::new();
    c.main_hook("08:06:00", "StopFailure");
    c.main_hook("08:06:05", "SessionEnd");
    assert_eq!(c.stored(C), st("error", "08:06:00", "stop_failure"));
    let c = Case::new();
    c.main_hook("08:06:00", "StopFailure");
    c.main_hook("08:06:10", "UserPromptSubmit");
    c.main_hook("08:06:20", "Stop");
    c.main_hook("08:06:30", "SessionEnd");
    assert_eq!(c.stored(C), st("completed", "08:06:30", "session_end"));
}

/// `/compact` forks summarizers
/// that fire SubagentStop with an empty agent_type and no transcript: they
/// are recorded, and no agent comes of them, then or when one appears.
#[test]
fn compact_subagent_stops_are_not_subagents() {
    let c = Case::new();
    c.hook(
        "08:07:00",
        &json!({"session_id": C, "hook_event_name": "SubagentStop", "agent_id": W, "agent_type": ""}),
    );
    assert_eq!(events(&c.env).len(), 1, "recorded");
    assert_eq!(
        c.stored(W).0,
        "working",
        "not completed by a compaction fork"
    );
    // The captured payload itself (Claude Code 2.1.197), when present.
    let captured = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/captured/hook-payloads/cc-SubagentStop.compactfork.json");
    match std::fs::read(&captured) {
        Ok(bytes) => {
            let mut p: Value = serde_json::from_slice(&bytes).unwrap();
            p["session_id"] = json!(C);
            p["agent_id"] = json!(W);
            c.hook("08:07:30", &p);
            assert_eq!(c.stored(W).0, "working");
        }
        Err(_) => skip("the captured compact-fork payload is absent"),
    }
}

/// Local command output written after SessionEnd (`/exit`'s
/// `<local-command-stdout>`) does not reopen the session.
#[test]
fn local_command_output_after_session_end_reopens_nothing() {
    let c = Case::new();
    c.main_hook("08:06:00", "SessionEnd");
    assert_eq!(c.stored(C), st("completed", "08:06:00", "session_end"));
    c.append(
        &c.main_file(),
        &json!({"type": "user", "sessionId": C, "uuid": "u-exit", "parentUuid": "c-a2",
               "timestamp": format!("{DAY}08:06:01.000Z"),
               "message": {"role": "user", "content": "<local-command-stdout>Bye!</local-command-stdout>"}}),
    );
    c.ingest();
    assert_eq!(c.stored(C), st("completed", "08:06:00", "session_end"));
    // Real activity after it does.
    c.main_line("08:09:00");
    assert_eq!(c.stored(C), st("working", "08:09:00", "transcript"));
}

/// A client that runs a command and exits when it does (it passes its
/// stdin on, and the command's exit status).
const RUN: &str = "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:]).returncode)";

/// Whether a client that exits can be played here (and a hook's client
/// told): `/proc` and python3; says why not.
fn can_play_a_client() -> bool {
    if !Path::new("/proc/sys/kernel/random/boot_id").exists() {
        skip("no /proc: a hook's client cannot be told here");
        return false;
    }
    if std::process::Command::new("python3")
        .arg("-V")
        .output()
        .is_err()
    {
        skip("python3 is not available to play a client that exits");
        return false;
    }
    true
}

/// `sessionkit` (with `env`'s environment) run by a client that exits
/// once the command does (`RUN`).
fn exiting_client(env: &Env) -> std::process::Command {
    let base = env.std_cmd();
    let mut c = std::process::Command::new("python3");
    c.args(["-c", RUN]).arg(base.get_program()).env_clear();
    for (k, v) in base.get_envs() {
        if let Some(v) = v {
            c.env(k, v);
        }
    }
    c.current_dir(env.dir.path());
    c
}

/// A session whose client process is gone from this machine is never
/// working: `status` ends it at once, with no sweep and well inside the
/// watchdog's window (a turn in flight is unknown, a turn that had ended
/// completed the session), and `sweep` writes it. A session whose client
/// still runs (this test's own process sent its hook) stays as its hook
/// left it.
#[test]
fn a_session_whose_client_is_gone_ends_at_once() {
    if !can_play_a_client() {
        return;
    }
    let env = Env::new();
    let at = "2026-01-12T08:00:00Z";
    let prompt = |sid: &str| json!({"session_id": sid, "hook_event_name": "UserPromptSubmit", "prompt": "go"});
    hook_ok(&env, at, &prompt("alive"), &[]);
    // A short-lived program runs these hooks and exits after them: their
    // client is gone.
    let gone = |at: &str, payload: &Value| {
        let c = exiting_client(&env);
        let (code, out, err) = crate::hooks::hook_with(c, at, payload.to_string().as_bytes(), &[]);
        assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    };
    gone(at, &prompt("in-flight"));
    gone(at, &prompt("finished"));
    gone(
        "2026-01-12T08:00:30Z",
        &json!({"session_id": "finished", "hook_event_name": "Stop"}),
    );
    let shown = |args: &[&str]| -> Vec<(String, String)> {
        let out = env
            .cmd()
            .env("SESSIONKIT_NOW", "2026-01-12T08:01:00Z")
            .args(args)
            .output()
            .unwrap();
        let mut rows: Vec<(String, String)> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .map(|v| {
                (
                    v["session_id"].as_str().unwrap().to_string(),
                    v["status"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        rows.sort();
        rows
    };
    let want = [
        ("alive".to_string(), "working".to_string()),
        ("finished".to_string(), "completed".to_string()),
        ("in-flight".to_string(), "unknown".to_string()),
    ];
    assert_eq!(shown(&["status", "--all", "--format", "jsonl"]), want);
    assert_eq!(
        shown(&["status", "--format", "jsonl"]),
        [("alive".to_string(), "working".to_string())]
    );
    assert_eq!(shown(&["sessions", "--format", "jsonl"]), want);
    // Heard of only from hooks: what they show is read from their events,
    // and a sweep changes nothing of it.
    let (code, _, err) = env.run(&["sweep", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(shown(&["status", "--all", "--format", "jsonl"]), want);
}

/// An ingested session whose last hook came from a client now gone:
/// `sweep` writes its end at once, well inside the watchdog's window (the
/// main agent working at its prompt is unknown, by `client_gone`; its
/// subagent in flight too).
#[test]
fn sweep_ends_an_ingested_session_whose_client_is_gone() {
    if !can_play_a_client() {
        return;
    }
    let c = Case::new();
    let payload = json!({"session_id": C, "hook_event_name": "UserPromptSubmit", "prompt": "go"});
    let cmd = exiting_client(&c.env);
    let at = format!("{DAY}08:06:00Z");
    let (code, out, err) = crate::hooks::hook_with(cmd, &at, payload.to_string().as_bytes(), &[]);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""));
    assert_eq!(c.stored(C).0, "working");
    assert_eq!(c.sweep("08:07:00").0, 0);
    assert_eq!(c.stored(C), st("unknown", "08:06:00", "client_gone"));
    assert_eq!(c.stored(W).2, "client_gone");
}
