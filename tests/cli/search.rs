//! `sessionkit search` and the conversation `show` draws from the same
//! index: what each client's transcripts say is found by its words (stems,
//! prefixes, phrases for paths and commands) in the right session and
//! agent; filters narrow it; thinking, images, secrets and (by default)
//! tool outputs never reach the index; `prune --index` drops it and
//! `replay` rebuilds it.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::*;

const S: &str = "5e000000-0000-4000-8000-000000000001";
const AGENT: &str = "a5e0000000000001";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/search/projects")
}

fn fixture_env() -> Env {
    let env = Env::new();
    let s = env.ingest(&fixture());
    assert_eq!(s["sessions_new"].as_u64(), Some(1), "{s}");
    env
}

/// The hits of `search ARGS` as JSON.
fn hits(env: &Env, args: &[&str]) -> Vec<Value> {
    env.json(&[&["search"], args].concat())
        .as_array()
        .expect("search prints a list")
        .clone()
}

/// Each hit's (record, agent, role).
fn places(hits: &[Value]) -> Vec<(String, String, String)> {
    let mut v: Vec<_> = hits
        .iter()
        .map(|h| {
            (
                h["record"].as_str().unwrap().to_string(),
                h["agent_id"].as_str().unwrap().to_string(),
                h["role"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    v.sort();
    v
}

fn p(record: &str, agent: &str, role: &str) -> (String, String, String) {
    (record.into(), agent.into(), role.into())
}

#[test]
fn a_query_finds_the_prompt_the_answer_the_command_and_the_path_in_their_agent() {
    let env = fixture_env();
    let h = hits(&env, &["billing", "database"]);
    assert_eq!(places(&h), [p("u-001", S, "user")]);
    assert_eq!(h[0]["session_id"], S);
    assert_eq!(h[0]["harness"], "claude-code");
    assert_eq!(h[0]["project"], "billing");
    assert_eq!(h[0]["at"], "2026-01-10T09:00:00.000Z");
    assert_eq!(
        h[0]["snippet"],
        "Migrate the **billing** **database** to Postgres before the invoice run"
    );
    assert_eq!(h[0]["open"], format!("sessionkit show {S} --at u-001"));
    crate::schema::holds_contract(
        &env,
        "search",
        "SearchHitRecord",
        "sessionkit.search-hit/1",
        &h,
    );
    // A stem finds its inflection; the last word is a prefix too.
    assert_eq!(
        places(&hits(&env, &["deploy"])),
        [p("a-003", S, "assistant")]
    );
    assert_eq!(
        places(&hits(&env, &["migra"])),
        [p("a-003", S, "assistant"), p("u-001", S, "user")]
    );
    // A command and a file path, as phrases.
    let cmd = hits(&env, &["cargo test"]);
    assert_eq!(places(&cmd), [p("a-004", S, "tool")]);
    assert_eq!(cmd[0]["tool"], "Bash");
    let path = hits(&env, &["src/api/routes.ts"]);
    assert_eq!(places(&path), [p("a-006", S, "tool")]);
    assert_eq!(path[0]["tool"], "Edit");
    // A phrase is its words one after another in the text, not its words
    // anywhere in it (the index keeps which texts hold a word, not where).
    let quoted = hits(&env, &["\"BILLING databases\""]);
    assert_eq!(places(&quoted), [p("u-001", S, "user")]);
    assert!(hits(&env, &["\"database billing\""]).is_empty());
    assert!(hits(&env, &["routes/api"]).is_empty());
    assert!(hits(&env, &["\"test cargo\""]).is_empty());
    // The subagent's words are its own.
    assert_eq!(
        places(&hits(&env, &["banker's", "rounding"])),
        [p("s-002", AGENT, "assistant")]
    );
    // The spawn call (the main agent's) and the subagent's prompt; --role
    // keeps the prompt.
    assert_eq!(
        places(&hits(&env, &["ledger", "rounding"])),
        [p("a-010", S, "tool"), p("s-001", AGENT, "user")]
    );
    assert_eq!(
        places(&hits(&env, &["ledger", "rounding", "--role", "user"])),
        [p("s-001", AGENT, "user")]
    );
    // Every word is required.
    assert!(hits(&env, &["billing", "kangaroo"]).is_empty());
}

#[test]
fn thinking_images_and_tool_outputs_stay_out_of_the_index() {
    let env = fixture_env();
    for q in [
        "zebras",
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg",
        "quasar",
    ] {
        let (code, out, err) = env.run(&["search", q]);
        assert_eq!((code, out.as_str()), (0, ""), "{q}");
        assert!(
            err.contains(&format!("nothing said matches {q:?}")),
            "{err}"
        );
    }
    let texts = env.said_texts();
    assert!(!texts.values().any(|(_, t)| t.contains("iVBORw0KGgo")));
    // The prompt's text blocks are kept, the image block is not, and the
    // data URL's payload is cut out of its text.
    let h = hits(&env, &["screenshot"]);
    assert_eq!(places(&h), [p("u-009", S, "user")]);
    let inline: Vec<&str> = texts
        .values()
        .map(|(_, t)| t.as_str())
        .filter(|t| t.starts_with("inline"))
        .collect();
    assert_eq!(inline, ["inline data:image/png;base64,[binary 282 bytes]"]);
}

#[test]
fn tool_outputs_are_indexed_once_when_asked() {
    let env = Env::new();
    let (code, _, err) = env.run(&["config", "set", "search.tool_outputs", "on"]);
    assert_eq!(code, 0, "{err}");
    env.ingest(&fixture());
    let h = hits(&env, &["quasar"]);
    assert_eq!(places(&h), [p("u-007", S, "tool")]);
    assert_eq!(h[0]["output"], true);
    // Two calls answered with the same output: one text, two places.
    assert_eq!(h[0]["places"], 2);
    let quasars = env.said_texts();
    assert_eq!(
        quasars
            .values()
            .filter(|(_, t)| t.contains("quasar"))
            .count(),
        1
    );
    // And the subagent's result (role 3: a tool's output).
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said WHERE role = 3"), 3);
}

#[test]
fn filters_narrow_by_project_harness_session_role_and_time() {
    let env = fixture_env();
    let n = |args: &[&str]| hits(&env, args).len();
    // The prompt and the test command say "billing".
    assert_eq!(n(&["billing"]), 2);
    assert_eq!(n(&["billing", "--project", "billing"]), 2);
    assert_eq!(n(&["billing", "--project", "shop"]), 0);
    assert_eq!(n(&["billing", "--harness", "claude-code"]), 2);
    assert_eq!(n(&["billing", "--harness", "codex"]), 0);
    assert_eq!(n(&["billing", "--session", "5e00"]), 2);
    assert_eq!(n(&["billing", "--role", "tool"]), 1);
    assert_eq!(n(&["billing", "--role", "assistant"]), 0);
    assert_eq!(n(&["changelog", "--since", "2026-01-11"]), 1);
    assert_eq!(n(&["billing", "--since", "2026-01-11"]), 0);
    assert_eq!(n(&["changelog", "--until", "2026-01-11T00:00:00Z"]), 0);
    assert_eq!(n(&["billing", "--until", "2026-01-11T00:00:00Z"]), 2);
    // A date as --until takes in its whole day.
    assert_eq!(n(&["changelog", "--until", "2026-01-11"]), 1);
    // Newest first: the changelog prompt (01-11), then the answer (01-10).
    let h = hits(&env, &["the", "--newest", "--limit", "2"]);
    assert_eq!(h[0]["record"], "u-011");
    assert_eq!(h[0]["score"], 0.0);
    // Bad input: a clear error, nothing changed.
    let (code, _, err) = env.run(&["search", "--role", "robot", "billing"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown role \"robot\"; roles: user, assistant, tool"),
        "{err}"
    );
    let (code, _, err) = env.run(&["search", "--", "!!", "--"]);
    assert_eq!(code, 2);
    assert!(err.contains("has no words to search for"), "{err}");
}

#[test]
fn a_secret_in_a_tool_input_is_never_findable_nor_stored() {
    let env = Env::new();
    let dir = env.path("corpus/-home-dev-ops");
    std::fs::create_dir_all(&dir).unwrap();
    // Built here, so no token-shaped string sits in the repository.
    let token = format!(
        "ghp_{}",
        "R8x2Lq9ZbWm4Tn7Vc1Kd5Hs3Jf6Gy0Pa2Ue".to_string() + "8"
    );
    let sid = "5e000000-0000-4000-8000-0000000000aa";
    let line = serde_json::json!({
        "type": "assistant", "sessionId": sid, "uuid": "x-1", "timestamp": "2026-01-10T09:00:00.000Z",
        "cwd": "/home/dev/ops",
        "message": {"id": "msg_x1", "model": "claude-sonnet-4-5-20250929", "role": "assistant",
            "usage": {"input_tokens": 1, "output_tokens": 1},
            "content": [{"type": "tool_use", "id": "t1", "name": "Bash",
                "input": {"command": format!("curl -H 'Authorization: token {token}' https://api.github.com/repos/acme/ops")}}]}
    });
    std::fs::write(dir.join(format!("{sid}.jsonl")), format!("{line}\n")).unwrap();
    env.ingest(&env.path("corpus"));
    assert!(hits(&env, &[&token]).is_empty());
    assert!(hits(&env, &["R8x2Lq9ZbWm4Tn7Vc1Kd5Hs3Jf6Gy0Pa2Ue8"]).is_empty());
    let h = hits(&env, &["api.github.com"]);
    assert_eq!(h.len(), 1);
    let snippet = h[0]["snippet"].as_str().unwrap();
    assert!(snippet.contains("[redacted:"), "{snippet}");
    // Not in the database file at all (its WAL checkpointed by the reads).
    let bytes = std::fs::read(env.db()).unwrap();
    assert!(!bytes.windows(token.len()).any(|w| w == token.as_bytes()));
}

/// One word each client's fixture says, where, and who said it.
#[test]
fn every_client_s_sessions_are_searched() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let cases: &[(&str, &str, &str, &str, &str)] = &[
        (
            "codex-0.171/sessions",
            "codex",
            "SPAWN helper",
            "user",
            "please SPAWN a helper",
        ),
        (
            "gemini-0.61/tmp",
            "gemini",
            "generalist",
            "tool",
            "generalist SUBTASK: reply sub done",
        ),
        (
            "qwen-0.24/projects",
            "qwen-code",
            "fix tests",
            "user",
            "fix the tests",
        ),
        ("pi-0.73/sessions", "pi", "cargo test", "tool", "cargo test"),
        (
            "copilot-1.0/session-state",
            "copilot",
            "build",
            "user",
            "fix the build",
        ),
        (
            "claude-2.1.332/projects",
            "claude-code",
            "spawn helper",
            "user",
            "please SPAWN a helper",
        ),
    ];
    for (dir, harness, query, role, text) in cases {
        let env = Env::new();
        env.ingest(&root.join(dir));
        let h = hits(&env, &[query, "--harness", harness]);
        assert!(!h.is_empty(), "{dir}: nothing for {query:?}");
        assert_eq!(h[0]["role"], *role, "{dir}");
        let plain = h[0]["snippet"].as_str().unwrap().replace("**", "");
        assert_eq!(plain, *text, "{dir}");
    }
    // A Codex subagent's words are its own; the client's injected context
    // is not indexed.
    let env = Env::new();
    env.ingest(&root.join("codex-0.171/sessions"));
    let h = hits(&env, &["sub", "done", "--role", "assistant"]);
    assert_eq!(h.len(), 1);
    assert_ne!(h[0]["agent_id"], h[0]["session_id"]);
    assert!(hits(&env, &["environment_context"]).is_empty());
}

#[test]
fn opencode_parts_are_searched() {
    let env = Env::new();
    let dir = env.path("opencode");
    std::fs::create_dir_all(&dir).unwrap();
    let sql = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/opencode-1.18/opencode.sql"),
    )
    .unwrap();
    let db = rusqlite::Connection::open(dir.join("opencode.db")).unwrap();
    db.execute_batch(&sql).unwrap();
    // The parts OpenCode 1.18 writes (its `part` table): a prompt, a
    // step, a tool call with its output, an answer, an answer's synthetic
    // text.
    db.execute_batch(
        r#"CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
             time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
           INSERT INTO part VALUES
             ('prt_1', 'msg_2423399e3001ppCiFKpMXI2o6H', 'ses_dbdcc67d8ffeiqr4t4b18VOVTa', 1796407007716, 1796407007716, '{"type":"text","text":"rename the gizmo module"}'),
             ('prt_2', 'msg_24233a434001ExCPrY5RSaDGg2', 'ses_dbdcc67d8ffeiqr4t4b18VOVTa', 1796407010357, 1796407010357, '{"type":"step-start"}'),
             ('prt_3', 'msg_24233a434001ExCPrY5RSaDGg2', 'ses_dbdcc67d8ffeiqr4t4b18VOVTa', 1796407010358, 1796407010358, '{"type":"tool","tool":"bash","state":{"status":"completed","input":{"command":"git mv gizmo widget"},"output":"moved quietly"}}'),
             ('prt_4', 'msg_24233aa93001NE0vFrOqrrh6r3', 'ses_dbdcc67d8ffeiqr4t4b18VOVTa', 1796407011987, 1796407011987, '{"type":"text","text":"The gizmo module is now widget."}'),
             ('prt_5', 'msg_24233aa93001NE0vFrOqrrh6r3', 'ses_dbdcc67d8ffeiqr4t4b18VOVTa', 1796407011988, 1796407011988, '{"type":"text","text":"gizmo reminder","synthetic":true}');"#,
    )
    .unwrap();
    drop(db);
    env.ingest(&dir);
    let h = hits(&env, &["gizmo", "--harness", "opencode"]);
    let mut got: Vec<(&str, &str)> = h
        .iter()
        .map(|h| (h["record"].as_str().unwrap(), h["role"].as_str().unwrap()))
        .collect();
    got.sort_unstable();
    assert_eq!(
        got,
        [("prt_1", "user"), ("prt_3", "tool"), ("prt_4", "assistant")]
    );
    assert!(
        hits(&env, &["quietly"]).is_empty(),
        "an output is not indexed by default"
    );
}

/// The real clients' captured runs (when beside the repository): each
/// one's prompt or command is found under its harness.
#[test]
fn the_captured_clients_runs_are_searched() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/captured");
    if !base.is_dir() {
        crate::support::skip("the captured corpus is absent");
        return;
    }
    let cases: &[(&str, &str, &str)] = &[
        ("claude-code-2.1.332/projects", "claude-code", "helper"),
        ("codex-0.171.0/sessions", "codex", "hello"),
        ("gemini-cli-0.61.0/tmp", "gemini", "hello"),
        ("pi-0.73.1/home/.pi/agent/sessions", "pi", "echo"),
        ("qwen-code-0.24.4/home/.qwen/projects", "qwen-code", "echo"),
        (
            "copilot-1.0.102/home/.copilot/session-state",
            "copilot",
            "echo",
        ),
        (
            "opencode-1.18.33/home/.local/share/opencode",
            "opencode",
            "echo",
        ),
    ];
    let env = Env::new();
    for (dir, _, _) in cases {
        env.ingest(&base.join(dir));
    }
    for (dir, harness, word) in cases {
        let h = hits(&env, &[word, "--harness", harness]);
        assert!(!h.is_empty(), "{dir}: nothing for {word:?}");
        assert!(h.iter().all(|x| x["harness"] == *harness));
    }
    // The shell command the agents ran, as a tool call in each.
    for harness in ["copilot", "opencode", "pi", "qwen-code"] {
        let h = hits(
            &env,
            &["echo", "hi", "--role", "tool", "--harness", harness],
        );
        assert_eq!(h.len(), 1, "{harness}");
        assert!(
            h[0]["snippet"]
                .as_str()
                .unwrap()
                .starts_with("**echo** **hi**")
        );
    }
    // pi's and OpenCode's `bash` calls said the very same: one text, two
    // places.
    let both = hits(&env, &["echo", "hi", "--role", "tool", "--harness", "pi"]);
    assert_eq!(both[0]["places"], 1);
    let all: u64 = hits(&env, &["echo", "hi", "--role", "tool"])
        .iter()
        .map(|h| h["places"].as_u64().unwrap())
        .sum();
    assert_eq!(all, 4);
}

#[test]
fn show_draws_the_conversation_as_markdown() {
    let env = fixture_env();
    let (code, out, err) = env.run(&["show", S, "--format", "markdown"]);
    assert_eq!(code, 0, "{err}");
    let expected = format!(
        "# billing: session {S}

claude-code · 2026-01-10T09:00:00.000Z to 2026-01-11T15:00:00.000Z · 2 agents · claude-sonnet-4-5-20250929

## Main agent

**User** · 2026-01-10T09:00:00.000Z

> Migrate the billing database to Postgres before the invoice run

**Assistant** · 2026-01-10T09:00:06.000Z

> I deployed the migration scripts and checked the invoices.

- `Bash` call: cargo test -p billing --features postgres ⏎ Run the billing tests

- `Edit` call: src/api/routes.ts ⏎ const port = 8080 ⏎ const port = 80

**User** · 2026-01-10T09:01:00.000Z

> Here is the screenshot

**User** · 2026-01-10T09:01:00.000Z

> inline data:image/png;base64,[binary 282 bytes]

- `Task` call: Audit ledger rounding ⏎ Audit the ledger rounding in src/ledger.rs ⏎ general-purpose

**User** · 2026-01-11T15:00:00.000Z

> Now write the changelog entry

### general-purpose: Audit ledger rounding ({AGENT})

**User** · 2026-01-10T09:01:06.000Z

> Audit the ledger rounding in src/ledger.rs

**Assistant** · 2026-01-10T09:01:08.000Z

> Rounding uses banker's rounding; the totals reconcile.

"
    );
    assert_eq!(out, expected);
}

#[test]
fn show_at_a_record_gives_its_neighbours() {
    let env = fixture_env();
    let rows = env.json(&["show", S, "--at", "a-004", "--context", "1"]);
    let got: Vec<(&str, bool)> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["record"].as_str().unwrap(), r["focus"].as_bool().unwrap()))
        .collect();
    assert_eq!(got, [("a-003", false), ("a-004", true), ("a-006", false)]);
    crate::schema::holds_contract(
        &env,
        "show-at",
        "SaidRecord",
        "sessionkit.said/1",
        rows.as_array().unwrap(),
    );
    assert_eq!(
        rows[1]["text"],
        "cargo test -p billing --features postgres\nRun the billing tests"
    );
    // In the subagent's conversation: its own pieces only.
    let rows = env.json(&["show", S, "--at", "s-002", "--context", "5"]);
    assert_eq!(rows.as_array().unwrap().len(), 2);
    let (code, _, err) = env.run(&["show", S, "--at", "nope"]);
    assert_eq!(code, 2);
    assert!(err.contains("has no record \"nope\""), "{err}");
}

/// `sessionkit ARGS` on a terminal (a pty from util-linux's `script`), with
/// `vars` set: what the terminal got, its line ends as written. `None`
/// where `script` is not installed.
fn on_a_terminal(env: &Env, args: &[&str], vars: &[&str]) -> Option<String> {
    let sk = assert_cmd::cargo::cargo_bin("sessionkit");
    let quote = |s: &str| format!("'{}'", s.replace('\'', "'\\''"));
    let mut line = vec![
        "env".to_string(),
        "-i".to_string(),
        format!("HOME={}", quote(&env.path("home").display().to_string())),
        format!("SESSIONKIT_DB={}", quote(&env.db().display().to_string())),
    ];
    line.extend(vars.iter().map(ToString::to_string));
    line.push(quote(&sk.display().to_string()));
    line.extend(args.iter().map(|a| quote(a)));
    let out = std::process::Command::new("script")
        .args(["-qec", &line.join(" "), "/dev/null"])
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .output();
    match out {
        Ok(o) if o.status.success() => Some(String::from_utf8(o.stdout).unwrap()),
        Ok(o) => panic!("{}", String::from_utf8_lossy(&o.stderr)),
        Err(_) => {
            crate::common::skip("util-linux `script` is not installed: no terminal to test on");
            None
        }
    }
}

/// On a terminal, with no format asked, `show --at` prints the text itself:
/// its own line breaks, indented under a heading per piece, the record
/// asked for marked, the heading bold unless NO_COLOR; a control in it is
/// still escaped.
#[test]
fn show_at_on_a_terminal_prints_the_text_with_its_line_breaks() {
    let env = fixture_env();
    hits(&env, &["billing"]);
    let args = ["show", S, "--at", "a-004", "--context", "1"];
    let Some(out) = on_a_terminal(&env, &args, &["NO_COLOR=1"]) else {
        return;
    };
    assert_eq!(
        out.replace("\r\n", "\n"),
        "  Assistant · 2026-01-10T09:00:06.000Z · a-003
    I deployed the migration scripts and checked the invoices.

→ Bash call · 2026-01-10T09:00:07.000Z · a-004
    cargo test -p billing --features postgres
    Run the billing tests

  Edit call · 2026-01-10T09:00:10.000Z · a-006
    src/api/routes.ts
    const port = 8080
    const port = 80

"
    );
    let out = on_a_terminal(&env, &args, &[]).unwrap();
    assert!(out.contains("→ \x1b[1mBash call\x1b[0m · "), "{out:?}");
    // Piped, the records keep their fields.
    let rows = env.json(&["show", S, "--at", "a-004", "--context", "1"]);
    assert_eq!(rows.as_array().map(Vec::len), Some(3));
}

#[test]
fn prune_index_drops_it_and_replay_rebuilds_it() {
    let env = fixture_env();
    let before = hits(&env, &["ledger"]);
    let places_before = env.scalar("SELECT COUNT(*) FROM said");
    let dry = env.run(&["prune", "--index", "--dry-run", "--format", "json"]);
    assert_eq!(dry.0, 1, "a dry run that would drop something exits 1");
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said"), places_before);
    let r = env.json(&["prune", "--index"]);
    crate::schema::holds_contract(
        &env,
        "prune-index",
        "PruneIndexRecord",
        "sessionkit.prune-index/1",
        std::slice::from_ref(&r),
    );
    assert_eq!(r["places"].as_i64(), Some(places_before));
    // A tiny index frees no whole page; the file never grows.
    assert!(
        r["file_bytes_after"].as_u64() <= r["file_bytes_before"].as_u64(),
        "{r}"
    );
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said_texts"), 0);
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said_sessions"), 0);
    // With the index off, a search builds nothing and says why.
    let (code, out, err) =
        env.run_with_env(&["search", "ledger"], &[("SESSIONKIT_SEARCH_INDEX", "off")]);
    assert_eq!((code, out.as_str()), (0, ""));
    assert!(
        err.contains("1 session(s) are not in the search index, and were not searched: the setting search.index is off"),
        "{err}"
    );
    // An ingest with nothing changed leaves it empty; the next search
    // (the index lazy) builds it again, as replay would.
    env.ingest(&fixture());
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said"), 0);
    assert_eq!(hits(&env, &["ledger"]), before);
    env.json(&["replay", "--root", fixture().to_str().unwrap()]);
    assert_eq!(hits(&env, &["ledger"]), before);
}

#[test]
fn an_appended_transcript_adds_only_its_new_words() {
    let env = Env::new();
    let corpus = env.path("corpus");
    let dir = corpus.join("-home-dev-billing");
    std::fs::create_dir_all(dir.join(S).join("subagents")).unwrap();
    let src = fixture().join("-home-dev-billing");
    let main = format!("{S}.jsonl");
    std::fs::copy(src.join(&main), dir.join(&main)).unwrap();
    for f in [
        "agent-a5e0000000000001.jsonl",
        "agent-a5e0000000000001.meta.json",
    ] {
        std::fs::copy(
            src.join(S).join("subagents").join(f),
            dir.join(S).join("subagents").join(f),
        )
        .unwrap();
    }
    env.ingest(&corpus);
    // Ingest alone indexes nothing; the first search indexes all, and
    // from then on ingest keeps the index current.
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said"), 0);
    assert!(!hits(&env, &["billing"]).is_empty());
    let places = env.scalar("SELECT COUNT(*) FROM said");
    let texts = env.scalar("SELECT COUNT(*) FROM said_texts");
    assert!(places > 0);
    let line = serde_json::json!({
        "type": "user", "sessionId": S, "uuid": "u-100", "parentUuid": "u-011",
        "timestamp": "2026-01-12T08:00:00.000Z", "cwd": "/home/dev/billing",
        "message": {"role": "user", "content": "Also bump the walrus dependency"}
    });
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join(&main))
        .unwrap();
    std::io::Write::write_all(&mut f, format!("{line}\n").as_bytes()).unwrap();
    let s = env.ingest(&corpus);
    assert_eq!(s["sessions_updated"].as_u64(), Some(1), "{s}");
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said"), places + 1);
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said_texts"), texts + 1);
    assert_eq!(places_of(&hits(&env, &["walrus"])), ["u-100"]);
}

fn places_of(hits: &[Value]) -> Vec<&str> {
    hits.iter().map(|h| h["record"].as_str().unwrap()).collect()
}

#[test]
fn check_reports_the_index_against_the_transcripts_it_covers() {
    let env = fixture_env();
    let (_, _, err) = env.run(&["check", "--no-recount"]);
    assert!(
        err.contains(
            "search index: not built yet; the first `sessionkit search` indexes the 1 sessions"
        ),
        "{err}"
    );
    hits(&env, &["billing"]);
    let (_, _, err) = env.run(&["check", "--no-recount"]);
    let line = err
        .lines()
        .find(|l| l.contains("search index:"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains("% of the"), "{line}");
    // A tiny corpus's index is mostly empty pages: only the counts are exact.
    assert!(
        line.ends_with("(1 sessions, 10 distinct texts said in 10 places)"),
        "{line}"
    );
}

/// The dump's sections of the search index.
fn index_dump(env: &Env) -> String {
    let dump = env.dump();
    let mut out = String::new();
    let mut keep = false;
    for line in dump.lines() {
        if let Some(t) = line.strip_prefix("## ") {
            keep = matches!(t, "said" | "said_texts" | "said_fts");
        }
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The same session said again a day later under another id (a copy of
/// its history): one root each.
fn two_roots(env: &Env) -> (PathBuf, PathBuf) {
    let first = env.path("first");
    let second = env.path("second/-home-dev-billing");
    std::fs::create_dir_all(&second).unwrap();
    let copy = "5e000000-0000-4000-8000-000000000002";
    let text = std::fs::read_to_string(
        fixture()
            .join("-home-dev-billing")
            .join(format!("{S}.jsonl")),
    )
    .unwrap()
    .replace(S, copy)
    .replace("2026-01-10T", "2026-01-20T")
    .replace("2026-01-11T", "2026-01-21T");
    std::fs::write(second.join(format!("{copy}.jsonl")), text).unwrap();
    let dir = first.join("-home-dev-billing");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        fixture()
            .join("-home-dev-billing")
            .join(format!("{S}.jsonl")),
        dir.join(format!("{S}.jsonl")),
    )
    .unwrap();
    (first, env.path("second"))
}

/// The same index whichever way it was written: built by the first search
/// over both sessions at once (one batch), or kept by ingest with the later
/// copy read first (its texts take later ids, then move to the earlier ones
/// when the original is read).
#[test]
fn the_index_does_not_depend_on_the_order_sessions_are_read_in() {
    let (a, b) = (Env::new(), Env::new());
    let (a1, a2) = two_roots(&a);
    let (b1, b2) = two_roots(&b);
    a.ingest(&a1);
    a.ingest(&a2);
    let h = hits(&a, &["billing", "database"]);
    for root in [&b2, &b1] {
        let (code, _, err) = b.run_with_env(
            &["ingest", "--root", root.to_str().unwrap()],
            &[("SESSIONKIT_SEARCH_INDEX", "on")],
        );
        assert_eq!(code, 0, "{err}");
    }
    let (da, db) = (index_dump(&a), index_dump(&b));
    // Built: every place of both sessions is there, 8 each.
    assert_eq!(a.scalar("SELECT COUNT(*) FROM said"), 16, "{da}");
    assert_eq!(da, db);
    assert_eq!(b.said_rows(), a.said_rows());
    // Each text once, said in both sessions.
    assert_eq!(h.len(), 1);
    assert_eq!(h[0]["places"], 2);
    assert_eq!(h[0]["session_id"], "5e000000-0000-4000-8000-000000000002");
    assert_eq!(hits(&b, &["billing", "database"]), h);
    assert_eq!(
        hits(&a, &["billing", "database", "--until", "2026-01-15"])[0]["session_id"],
        S
    );
}

/// A word repeated is searched once (800 repeats answer as one word does),
/// and a query past the bound is a clear error, not a long wait.
#[test]
fn repeated_words_cost_nothing_and_a_huge_query_is_refused() {
    let env = fixture_env();
    let once = hits(&env, &["billing"]);
    assert!(!once.is_empty());
    let repeated = "billing ".repeat(100);
    let started = std::time::Instant::now();
    assert_eq!(hits(&env, &[repeated.trim()]), once);
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let huge = "billing invoice ".repeat(700);
    let (code, out, err) = env.run(&["search", &huge]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(
        err.contains("the query is 11200 bytes: a search takes at most 1024"),
        "{err}"
    );
}

/// A session of a person's slash command, a todo list sent again on each
/// of six turns, and a long answer: one Claude Code transcript.
fn bookkeeping_env() -> Env {
    let env = Env::new();
    let dir = env.path("corpus/-home-dev-shop");
    std::fs::create_dir_all(&dir).unwrap();
    let sid = "5e000000-0000-4000-8000-0000000000b0";
    let mut lines = Vec::new();
    let line = |n: usize, kind: &str, content: serde_json::Value| {
        let message = if kind == "user" {
            serde_json::json!({"role": "user", "content": content})
        } else {
            serde_json::json!({"model": "claude-sonnet-4-5-20250929", "id": format!("msg_{n}"),
                "type": "message", "role": "assistant", "content": content, "stop_reason": null,
                "usage": {"input_tokens": 10, "output_tokens": 5}})
        };
        serde_json::json!({"type": kind, "sessionId": sid, "uuid": format!("r-{n:03}"),
            "timestamp": format!("2026-02-01T10:{n:02}:00.000Z"), "cwd": "/home/dev/shop",
            "message": message})
        .to_string()
    };
    lines.push(line(
        0,
        "user",
        serde_json::json!("<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>ship the invoices export</command-args>"),
    ));
    for turn in 1..=6 {
        let todos: Vec<serde_json::Value> = (1..=3)
            .map(|i| {
                serde_json::json!({"content": format!("Migrate the invoices table step {i}"),
                "status": if i <= turn / 2 { "completed" } else { "pending" }})
            })
            .collect();
        lines.push(line(
            turn,
            "assistant",
            serde_json::json!([{"type": "tool_use", "id": format!("t{turn}"), "name": "TodoWrite",
                "input": {"todos": todos, "turn": turn}}]),
        ));
    }
    let long = "The export now writes every invoice once, with its currency and its tax lines kept \
        apart, so that the accountants can read the file without the old spreadsheet; the \
        invoices of the last quarter were checked by hand against the ledger before the change \
        went out, and nothing was left behind.";
    lines.push(line(
        7,
        "assistant",
        serde_json::json!([{"type": "text", "text": long}]),
    ));
    std::fs::write(dir.join(format!("{sid}.jsonl")), lines.join("\n") + "\n").unwrap();
    env.ingest(&env.path("corpus"));
    env
}

/// A slash command the person typed is found by its name; a todo list
/// sent again on each turn is one hit with its count, not six.
#[test]
fn a_typed_command_is_found_and_repeated_bookkeeping_folds() {
    let env = bookkeeping_env();
    let h = hits(&env, &["/orchestrator"]);
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!(h[0]["role"], "user");
    assert_eq!(
        h[0]["snippet"],
        "/**orchestrator** ship the invoices export"
    );
    let h = hits(&env, &["migrate", "invoices"]);
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!(h[0]["tool"], "TodoWrite");
    assert_eq!(h[0]["similar"], 5);
    // Asked for by role, every answer and call that says "invoices".
    let all = hits(&env, &["invoices", "--newest"]);
    let tools = all.iter().filter(|h| h["tool"] == "TodoWrite").count();
    assert_eq!((all.len(), tools), (3, 1), "{all:?}");
}

/// On a terminal with no format asked, each hit takes at most three lines
/// of 80 columns: a heading with a command that opens it, the snippet cut
/// at words in one or two lines, its matches highlighted (no `**`);
/// piped, the records keep their fields.
#[test]
fn hits_on_a_terminal_are_three_lines_with_their_matches_highlighted() {
    let env = bookkeeping_env();
    hits(&env, &["invoices"]);
    let Some(out) = on_a_terminal(&env, &["search", "invoices", "--newest"], &["COLUMNS=80"])
    else {
        return;
    };
    let out = out.replace("\r\n", "\n");
    assert!(!out.contains("**"), "{out}");
    assert!(out.contains("\x1b[1;33minvoices\x1b[0m"), "{out:?}");
    let plain = out
        .replace("\x1b[1;33m", "")
        .replace("\x1b[2m", "")
        .replace("\x1b[0m", "");
    let lines: Vec<&str> = plain.lines().collect();
    for l in &lines {
        assert!(
            l.chars().count() <= 80,
            "a line of {}: {l:?}",
            l.chars().count()
        );
    }
    // Three hits (the answer, the folded todo list, the command): a heading
    // each, then one or two snippet lines.
    let headings: Vec<&&str> = lines.iter().filter(|l| !l.starts_with("  ")).collect();
    assert_eq!(headings.len(), 3, "{plain}");
    assert!(lines.len() <= 9, "{plain}");
    // The project and the session's title (the typed command) give way
    // to the rest.
    assert!(
        headings[0].starts_with("2026-02-01 10:07  shop: /orch")
            && headings[0].contains("… · claude-code assistant"),
        "{plain}"
    );
    assert!(
        headings[0].ends_with("  show 5e000000 --at r-007"),
        "{plain}"
    );
    assert!(headings[1].contains("TodoWrite (+5 like it)"), "{plain}");
    // The long answer: two lines cut at a word, the second ending in `…`.
    assert!(lines[2].ends_with('…'), "{plain}");
    assert!(!lines[1].ends_with(' '), "{plain}");
    // The command on the heading opens the hit.
    let open: Vec<&str> = headings[0]
        .rsplit("  ")
        .next()
        .unwrap()
        .split(' ')
        .collect();
    let shown = env.json(&[open[0], open[1], open[2], open[3], "--context", "0"]);
    assert_eq!(shown[0]["record"], "r-007");
    // Without colour: the same lines, no escape at all.
    let bare = on_a_terminal(
        &env,
        &["search", "invoices", "--newest"],
        &["COLUMNS=80", "NO_COLOR=1"],
    )
    .unwrap();
    assert_eq!(bare.replace("\r\n", "\n"), plain);
    // Piped: the records, marks kept.
    let piped = hits(&env, &["invoices", "--newest"]);
    assert!(
        piped[0]["snippet"].as_str().unwrap().contains("**invoice"),
        "{piped:?}"
    );
}
