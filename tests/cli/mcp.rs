//! `sessionkit mcp` as agents' clients drive it: the official MCP Python
//! SDK and the Inspector's CLI mode (both installed by
//! `tests/mcp/install.sh`; `MCP_PREFIX` names where, else
//! `~/.cache/sessionkit-mcp`; the tests that need them skip, saying so,
//! without them), and raw JSON-RPC lines. Every tool answers with the
//! records the CLI prints for the same query; bad arguments are JSON-RPC
//! errors; the database file's bytes and mtime never change.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::{Value, json};

use crate::common::{C, D, Env, fixtures};
use crate::support::skip;

/// Where `tests/mcp/install.sh` put the clients, or why they are absent.
fn prefix() -> Result<PathBuf, String> {
    let p = std::env::var_os("MCP_PREFIX")
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from(std::env::var_os("HOME")?).join(".cache/sessionkit-mcp")))
        .ok_or("HOME is not set")?;
    let python = p.join("venv/bin/python");
    let found = std::process::Command::new(&python)
        .args(["-c", "import mcp"])
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        Ok(p)
    } else {
        Err(format!(
            "the MCP Python SDK is not installed at {} (run tests/mcp/install.sh, or set MCP_PREFIX)",
            p.display()
        ))
    }
}

/// The fixture sessions, their words indexed, and memories of `beta`: an
/// open commitment, a resolved one, a constraint, a decision.
fn stocked() -> Env {
    let env = Env::new();
    env.ingest(&fixtures());
    let (code, _, err) = env.run(&["search", "anything"]);
    assert!(code == 0, "{err}");
    let remember = |kind: &str, topic: &str, content: &str| {
        let (code, out, err) = env.run(&[
            "remember",
            "--kind",
            kind,
            "--project",
            "beta",
            "--topic",
            topic,
            "--content",
            content,
        ]);
        assert_eq!(code, 0, "{err}");
        out.trim().to_string()
    };
    remember(
        "commitment",
        "Billing schema",
        "Move invoices to the new billing schema",
    );
    let done = remember("commitment", "Flaky upload", "Fix the flaky upload test");
    remember(
        "constraint",
        "No network in tests",
        "Tests use loopback servers only",
    );
    remember(
        "decision",
        "Billing in cents",
        "Amounts are integers in cents",
    );
    let (code, _, err) = env.run(&["resolve", &done]);
    assert_eq!(code, 0, "{err}");
    env
}

/// The server's command line for `env`.
fn server(env: &Env) -> Vec<String> {
    vec![
        assert_cmd::cargo::cargo_bin("sessionkit")
            .display()
            .to_string(),
        "--db".into(),
        env.db().display().to_string(),
        "mcp".into(),
    ]
}

/// The database file's bytes and mtime.
fn fingerprint(db: &Path) -> (Vec<u8>, std::time::SystemTime) {
    (
        std::fs::read(db).unwrap(),
        std::fs::metadata(db).unwrap().modified().unwrap(),
    )
}

/// The CLI's JSON for `args`.
fn cli(env: &Env, args: &[&str]) -> Value {
    env.json(args)
}

#[test]
fn every_tool_answers_the_python_sdk_as_the_cli_does_and_nothing_is_written() {
    let prefix = match prefix() {
        Ok(p) => p,
        Err(why) => return skip(&why),
    };
    let env = stocked();
    // What the CLI prints for each query (a CLI recall records demand:
    // taken before the fingerprint, and before the briefing it ranks).
    let recall = cli(&env, &["recall", "billing", "--project", "beta"]);
    let want = [
        cli(&env, &["search", "the", "--limit", "5"]),
        recall,
        Value::Array(
            [
                cli(
                    &env,
                    &[
                        "memories",
                        "--full",
                        "--project",
                        "beta",
                        "--kind",
                        "commitment",
                        "--status",
                        "open",
                    ],
                ),
                cli(
                    &env,
                    &[
                        "memories",
                        "--full",
                        "--project",
                        "beta",
                        "--kind",
                        "constraint",
                    ],
                ),
            ]
            .iter()
            .flat_map(|v| v.as_array().unwrap().clone())
            .collect(),
        ),
        cli(&env, &["sessions", "--limit", "20"]),
        cli(&env, &["show", D]),
        cli(&env, &["show", C, "--at", "c-a1", "--context", "2"]),
        cli(&env, &["cost", "--by", "model,project"]),
        cli(&env, &["brief", "--project", "beta"]),
    ];
    let before = fingerprint(&env.db());
    let calls = json!([
        ["search", {"query": "the", "all_projects": true, "limit": 5}],
        ["recall", {"query": "billing", "project": "beta"}],
        ["memories", {"project": "beta"}],
        ["sessions", {"all_projects": true}],
        ["show", {"session": &D[..8]}],
        ["show", {"session": C, "at": "c-a1", "context": 2}],
        ["cost", {"by": "model,project", "all_projects": true}],
        ["brief", {"project": "beta"}],
        // Bad arguments: JSON-RPC errors.
        ["search", {}],
        ["search", {"query": "x", "colour": "red"}],
        ["sessions", {"limit": 0}],
        ["cost", {"since": "the day before"}],
        ["cost", {"harness": "no-such-client"}],
        ["summon", {}],
        // A session that is not there: the tool's own error.
        ["show", {"session": "ffffffff"}],
    ]);
    let out = std::process::Command::new(prefix.join("venv/bin/python"))
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcp/client.py"))
        .arg(serde_json::to_string(&server(&env)).unwrap())
        .arg(calls.to_string())
        .arg(env.path(""))
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", env.path("home"))
        .env("SESSIONKIT_NOW", crate::common::NOW)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(got["server"], "sessionkit");
    let tools: Vec<(String, Value, bool, bool)> = got["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_string(),
                t["required"].clone(),
                t["read_only"] == true,
                t["output_schema"] == true,
            )
        })
        .collect();
    assert_eq!(
        tools,
        [
            ("search", json!(["query"])),
            ("recall", json!(["query"])),
            ("memories", json!([])),
            ("sessions", json!([])),
            ("show", json!(["session"])),
            ("cost", json!([])),
            ("brief", json!([])),
        ]
        .map(|(n, r)| (n.to_string(), r, true, true))
    );
    let results = got["results"].as_array().unwrap();
    for (i, want) in want.iter().enumerate() {
        let r = &results[i];
        assert_eq!(r["is_error"], false, "call {i}: {r}");
        assert_eq!(&r["structured"]["result"], want, "call {i}");
        assert_eq!(r["structured"]["cut"], Value::Null, "call {i}");
        // The text an agent reads: the same records.
        let text = r["text"][0].as_str().unwrap();
        let first = text.lines().next().unwrap();
        assert_eq!(
            &serde_json::from_str::<Value>(first).unwrap(),
            want,
            "call {i}"
        );
    }
    // The open commitment and the constraint, not the resolved one.
    let topics: Vec<&str> = want[2]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["topic"].as_str().unwrap())
        .collect();
    assert_eq!(topics, ["Billing schema", "No network in tests"]);
    let errors: Vec<(i64, String)> = results[8..14]
        .iter()
        .map(|r| {
            (
                r["error"].as_i64().unwrap_or(0),
                r["message"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert!(errors.iter().all(|(code, _)| *code == -32602), "{errors:?}");
    assert!(errors[0].1.contains("missing field `query`"), "{errors:?}");
    assert!(errors[1].1.contains("unknown field `colour`"), "{errors:?}");
    assert!(
        errors[2].1.contains("limit must be between 1 and 200"),
        "{errors:?}"
    );
    assert!(errors[3].1.contains("the day before"), "{errors:?}");
    assert!(errors[4].1.contains("no-such-client"), "{errors:?}");
    assert!(
        errors[5].1.contains("no tool named \"summon\""),
        "{errors:?}"
    );
    let missing = &results[14];
    assert_eq!(missing["is_error"], true, "{missing}");
    assert!(
        missing["text"][0].as_str().unwrap().contains("ffffffff"),
        "{missing}"
    );
    assert!(before == fingerprint(&env.db()), "the database changed");
}

#[test]
fn the_inspector_cli_lists_the_tools_and_calls_one_with_string_arguments() {
    let prefix = match prefix() {
        Ok(p) => p,
        Err(why) => return skip(&why),
    };
    let inspector = prefix.join("inspector/node_modules/.bin/mcp-inspector");
    if !inspector.exists() {
        return skip(&format!(
            "the MCP Inspector is not installed at {} (run tests/mcp/install.sh)",
            inspector.display()
        ));
    }
    let env = stocked();
    let want = cli(&env, &["sessions", "--project", "alpha", "--limit", "1"]);
    let before = fingerprint(&env.db());
    let run = |args: &[&str]| -> Value {
        let out = std::process::Command::new(&inspector)
            .arg("--cli")
            .args(server(&env))
            .args(args)
            .env("HOME", env.path("home"))
            .env("SESSIONKIT_NOW", crate::common::NOW)
            .current_dir(env.path(""))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let listed = run(&["--method", "tools/list"]);
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "search", "recall", "memories", "sessions", "show", "cost", "brief"
        ]
    );
    // The Inspector sends every argument as a string.
    let called = run(&[
        "--method",
        "tools/call",
        "--tool-name",
        "sessions",
        "--tool-arg",
        "project=alpha",
        "--tool-arg",
        "limit=1",
    ]);
    assert_eq!(called["structuredContent"]["result"], want);
    assert!(before == fingerprint(&env.db()), "the database changed");
}

/// A server speaking JSON-RPC lines on a pipe.
struct Raw {
    child: std::process::Child,
    out: std::io::BufReader<std::process::ChildStdout>,
    next: u64,
}

impl Raw {
    fn start(env: &Env, extra: &[&str], cwd: &Path) -> Raw {
        let mut child = env
            .std_cmd()
            .arg("mcp")
            .args(extra)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut raw = Raw {
            child,
            out,
            next: 1,
        };
        let init = raw.ask(
            "initialize",
            &json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "sessionkit", "{init}");
        raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        raw
    }

    fn send(&mut self, v: &Value) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
    }

    fn ask(&mut self, method: &str, params: &Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                self.out.read_line(&mut line).unwrap() > 0,
                "the server ended"
            );
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                return v;
            }
        }
    }

    fn call(&mut self, tool: &str, args: &Value) -> Value {
        self.ask("tools/call", &json!({"name": tool, "arguments": args}))
    }

    /// Closes stdin: the server ends, with exit 0.
    fn end(mut self) {
        drop(self.child.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status:?}");
    }
}

#[test]
fn a_result_past_its_bound_is_cut_and_says_so() {
    let env = stocked();
    let full = cli(&env, &["show", C, "--at", "c-a1", "--context", "20"]);
    let mut raw = Raw::start(&env, &["--max-bytes", "2048"], &env.path(""));
    let everything = cli(&env, &["sessions"]);
    let r = raw.call("sessions", &json!({"all_projects": true}));
    let s = &r["result"]["structuredContent"];
    // Four sessions of about 850 bytes each: two fit in 2 kB.
    let shown = s["cut"]["shown"].as_u64().unwrap() as usize;
    assert_eq!(s["cut"]["of"], 4, "{r}");
    assert_eq!(shown, 2, "{r}");
    assert_eq!(
        s["result"].as_array().unwrap()[..],
        everything.as_array().unwrap()[..shown]
    );
    assert!(serde_json::to_vec(&s["result"]).unwrap().len() <= 2048);
    assert!(
        s["notes"][0]
            .as_str()
            .unwrap()
            .starts_with("the result was cut to 2048 bytes: 2 of 4 records shown"),
        "{r}"
    );
    // A conversation's pieces are whole here (none is over 2,000
    // characters): the same as the CLI's.
    let r = raw.call("show", &json!({"session": C, "at": "c-a1", "context": 20}));
    assert_eq!(r["result"]["structuredContent"]["result"], full);
    raw.end();
}

#[test]
fn calls_default_to_the_project_of_the_servers_directory() {
    let env = stocked();
    let beta = env.path("work/beta");
    std::fs::create_dir_all(&beta).unwrap();
    let mut raw = Raw::start(&env, &[], &beta);
    let r = raw.call("memories", &json!({}));
    assert_eq!(
        each(&r, "topic"),
        ["Billing schema", "No network in tests"],
        "{r}"
    );
    let r = raw.call("sessions", &json!({}));
    assert_eq!(each(&r, "project"), ["beta", "beta"], "{r}");
    let r = raw.call("sessions", &json!({"all_projects": true}));
    assert_eq!(each(&r, "project").len(), 4);
    raw.end();
    // --project names it instead.
    let mut raw = Raw::start(&env, &["--project", "alpha"], &beta);
    let r = raw.call("sessions", &json!({}));
    assert_eq!(each(&r, "project"), ["alpha", "alpha"], "{r}");
    raw.end();
}

/// `key` of each record of a call's structured result.
fn each<'a>(r: &'a Value, key: &str) -> Vec<&'a str> {
    r["result"]["structuredContent"]["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x[key].as_str().unwrap())
        .collect()
}

#[test]
fn a_search_before_the_index_exists_says_so_and_writes_nothing() {
    let env = Env::new();
    env.ingest(&fixtures());
    let before = fingerprint(&env.db());
    let mut raw = Raw::start(&env, &[], &env.path(""));
    let r = raw.call("search", &json!({"query": "the", "all_projects": true}));
    let s = &r["result"]["structuredContent"];
    assert_eq!(s["result"], json!([]), "{r}");
    assert_eq!(
        s["notes"],
        json!([
            "4 session(s) are not in the search index, and were not searched: this only reads; one `sessionkit search` on the command line indexes them"
        ])
    );
    // A recall records no demand here.
    let r = raw.call(
        "recall",
        &json!({"query": "anything", "all_projects": true}),
    );
    assert_eq!(r["result"]["structuredContent"]["result"], json!([]), "{r}");
    raw.end();
    assert!(before == fingerprint(&env.db()), "the database changed");
    assert_eq!(env.scalar("SELECT COUNT(*) FROM said_sessions"), 0);
}

#[test]
fn a_missing_database_is_the_tools_error_and_nothing_is_made() {
    let env = Env::new();
    let mut raw = Raw::start(&env, &[], &env.path(""));
    let r = raw.call("sessions", &json!({}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let text = r["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("there is no database at"), "{text}");
    raw.end();
    assert!(!env.db().exists());
}
