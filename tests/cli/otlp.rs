//! `sessionkit export --format otlp-json` and `--otlp-endpoint`: every
//! request parses into the official OTLP protobuf messages with no unknown
//! field (Python's opentelemetry-proto, when installed), under Claude
//! Code's metric names, units, attribute keys and temporality; the token
//! sums equal `cost`'s totals exactly; each agent is a span under its
//! parent's; ids are derived (a second export is the same); a loopback
//! OTLP/HTTP receiver gets each point once across runs.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use crate::common::*;

fn corpus_env() -> Env {
    Env::with_fixtures(&[
        "claude/projects",
        "claude-2.1.332/projects",
        "codex-0.171/sessions",
    ])
}

/// The OTLP/JSON lines of an export to standard output.
fn export_lines(env: &Env, args: &[&str]) -> Vec<Value> {
    let (code, out, err) = env.run(&[&["export", "--format", "otlp-json"], args].concat());
    assert_eq!(code, 0, "{err}");
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every data point of the metric `name` in `requests`.
fn points<'a>(requests: &'a [Value], name: &str) -> Vec<&'a Value> {
    let mut out = Vec::new();
    for r in requests {
        for rm in r["resourceMetrics"].as_array().into_iter().flatten() {
            for sm in rm["scopeMetrics"].as_array().unwrap() {
                for m in sm["metrics"].as_array().unwrap() {
                    if m["name"] == name {
                        out.extend(m["sum"]["dataPoints"].as_array().unwrap());
                    }
                }
            }
        }
    }
    out
}

fn attr<'a>(p: &'a Value, key: &str) -> Option<&'a Value> {
    p["attributes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["key"] == key)
        .map(|a| &a["value"])
}

fn spans(requests: &[Value]) -> Vec<&Value> {
    let mut out = Vec::new();
    for r in requests {
        for rs in r["resourceSpans"].as_array().into_iter().flatten() {
            for ss in rs["scopeSpans"].as_array().unwrap() {
                out.extend(ss["spans"].as_array().unwrap());
            }
        }
    }
    out
}

#[test]
fn metrics_use_claude_code_s_names_and_sum_to_cost_s_totals() {
    let env = corpus_env();
    let reqs = export_lines(&env, &[]);
    let tokens = points(&reqs, "claude_code.token.usage");
    let sum = |kind: &str| -> u64 {
        tokens
            .iter()
            .filter(|p| attr(p, "type").unwrap()["stringValue"] == kind)
            .map(|p| p["asInt"].as_str().unwrap().parse::<u64>().unwrap())
            .sum()
    };
    let cost = env.json(&["cost"]);
    let t = &cost["totals"];
    let n = |f: &str| t[f].as_u64().unwrap();
    assert_eq!(sum("input"), n("input_tokens"));
    assert_eq!(sum("output"), n("output_tokens"));
    assert_eq!(sum("cacheRead"), n("cache_read_tokens"));
    assert_eq!(
        sum("cacheCreation"),
        n("cache_write_5m_tokens") + n("cache_write_1h_tokens")
    );
    let dollars: f64 = points(&reqs, "claude_code.cost.usage")
        .iter()
        .map(|p| p["asDouble"].as_f64().unwrap())
        .sum();
    assert!(
        (dollars - t["cost_usd"].as_f64().unwrap()).abs() < 1e-5,
        "{dollars} vs {}",
        t["cost_usd"]
    );
    // Every point: its session, model, agent and Claude Code's temporality.
    for p in &tokens {
        for key in ["session.id", "model", "harness", "type"] {
            assert!(attr(p, key).is_some(), "{key} missing: {p}");
        }
    }
    let metric = &reqs[0]["resourceMetrics"][0]["scopeMetrics"][0]["metrics"][0];
    assert_eq!(metric["unit"], "tokens");
    assert_eq!(
        metric["sum"]["aggregationTemporality"], 1,
        "delta, as Claude Code's"
    );
    assert_eq!(metric["sum"]["isMonotonic"], true);
    assert_eq!(
        reqs[0]["resourceMetrics"][0]["resource"]["attributes"][0],
        serde_json::json!({"key": "service.name", "value": {"stringValue": "claude-code"}})
    );
    // One session count per session, as Claude Code counts them.
    let counted = points(&reqs, "claude_code.session.count");
    assert_eq!(
        counted.len(),
        env.json(&["sessions"]).as_array().unwrap().len()
    );
    assert!(counted.iter().all(|p| p["asInt"] == "1"));
    // Every agent reads: Codex's points carry its harness.
    assert!(
        tokens
            .iter()
            .any(|p| attr(p, "harness").unwrap()["stringValue"] == "codex")
    );
}

#[test]
fn each_agent_is_a_span_under_its_parent_and_a_second_export_is_the_same() {
    let env = corpus_env();
    let first = export_lines(&env, &[]);
    assert_eq!(first, export_lines(&env, &[]));
    let spans = spans(&first);
    let agents: u64 = env
        .json(&["sessions"])
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["agents"].as_u64().unwrap())
        .sum();
    assert_eq!(spans.len() as u64, agents);
    // The 2.1.332 session: its subagent's span is under the main agent's,
    // in the session's trace.
    let sid = "4b497318-ae10-42a1-9483-4cfcf6c508ac";
    let mine: Vec<&&Value> = spans
        .iter()
        .filter(|s| attr(s, "session.id").unwrap()["stringValue"] == sid)
        .collect();
    assert_eq!(mine.len(), 2);
    let main = mine
        .iter()
        .find(|s| s.get("parentSpanId").is_none())
        .unwrap();
    let sub = mine
        .iter()
        .find(|s| s.get("parentSpanId").is_some())
        .unwrap();
    assert_eq!(sub["parentSpanId"], main["spanId"]);
    assert_eq!(sub["traceId"], main["traceId"]);
    assert_eq!(main["traceId"].as_str().unwrap().len(), 32);
    assert_eq!(sub["name"], "agent general-purpose");
    assert_eq!(
        attr(sub, "agent.id").unwrap()["stringValue"],
        "afc970604cdfc094d"
    );
    // A compaction is an event of its agent's span.
    let compacted = spans
        .iter()
        .filter(|s| !s["events"].as_array().unwrap().is_empty())
        .count();
    assert!(compacted >= 1);
}

#[test]
fn every_request_parses_into_the_official_protobuf_messages() {
    let helper = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/helpers/otlp_check.py");
    let ok = std::process::Command::new("python3")
        .args(["-c", "import opentelemetry.proto, google.protobuf"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        crate::support::skip(
            "python3 with opentelemetry-proto is absent (pip install opentelemetry-proto)",
        );
        return;
    }
    let env = corpus_env();
    let file = env.path("otlp.jsonl");
    let (code, _, err) = env.run(&[
        "export",
        "--format",
        "otlp-json",
        "--out",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let out = std::process::Command::new("python3")
        .arg(&helper)
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let t = &env.json(&["cost"])["totals"];
    let tokens = &got["metrics"]["claude_code.token.usage"];
    assert_eq!(tokens["unit"], "tokens");
    assert_eq!(tokens["temporality"], 1);
    assert_eq!(tokens["sum"].as_u64(), t["total_tokens"].as_u64());
    assert_eq!(
        tokens["keys"],
        serde_json::json!([
            "app.version",
            "harness",
            "model",
            "session.id",
            "sessionkit.backfill",
            "type"
        ])
    );
    assert_eq!(got["metrics"]["claude_code.cost.usage"]["unit"], "USD");
    assert_eq!(
        got["spans"].as_array().unwrap().len(),
        spans(&export_lines(&env, &[])).len()
    );
}

/// What a loopback receiver does with one request.
#[derive(Clone)]
enum Reply {
    /// Answers with this status, headers and body (a 2xx is kept).
    Status(u16, &'static str, &'static str),
    /// Sends the request's index on the channel (the test kills the
    /// client) and closes the connection without an answer: not taken.
    Kill,
}

/// A loopback OTLP/HTTP receiver: answers each request as `script` says
/// (past its end, 200), and keeps every (path, headers, body) it took.
struct Receiver {
    url: String,
    got: Arc<Mutex<Vec<(String, String, String)>>>,
    /// What the next requests get (a test may set it again between runs).
    script: Arc<Mutex<std::collections::VecDeque<Reply>>>,
    kills: std::sync::mpsc::Receiver<usize>,
}

fn receiver(script: Vec<u16>) -> Receiver {
    scripted(
        script
            .into_iter()
            .map(|c| Reply::Status(c, "", "{}"))
            .collect(),
    )
}

fn scripted(script: Vec<Reply>) -> Receiver {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let got = Arc::new(Mutex::new(Vec::new()));
    let keep = Arc::clone(&got);
    let (tx, kills) = std::sync::mpsc::channel();
    let script = Arc::new(Mutex::new(
        script
            .into_iter()
            .collect::<std::collections::VecDeque<Reply>>(),
    ));
    let next = Arc::clone(&script);
    std::thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
            let (mut headers, mut len) = (String::new(), 0usize);
            loop {
                let mut h = String::new();
                if reader.read_line(&mut h).is_err() || h.trim().is_empty() {
                    break;
                }
                if let Some(v) = h.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap();
                }
                headers.push_str(&h);
            }
            let mut body = vec![0; len];
            if reader.read_exact(&mut body).is_err() {
                continue;
            }
            let reply = next.lock().unwrap().pop_front();
            let (status, extra, answer) = match reply {
                Some(Reply::Kill) => {
                    let _ = tx.send(n);
                    // The client dies before it hears anything.
                    std::thread::sleep(std::time::Duration::from_millis(300));
                    continue;
                }
                Some(Reply::Status(c, h, b)) => (c, h, b),
                None => (200, "", "{}"),
            };
            if (200..300).contains(&status) {
                keep.lock()
                    .unwrap()
                    .push((path, headers, String::from_utf8(body).unwrap()));
            }
            let _ = write!(
                stream,
                "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\n{extra}content-length: {}\r\nconnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    Receiver {
        url,
        got,
        script,
        kills,
    }
}

/// The sums a receiver took: (tokens, cost in USD, session counts, cost
/// points).
fn taken(r: &Receiver) -> (u64, f64, u64, usize) {
    let sent: Vec<Value> = r
        .got
        .lock()
        .unwrap()
        .iter()
        .map(|(_, _, b)| serde_json::from_str(b).unwrap())
        .collect();
    let int = |p: &&Value| p["asInt"].as_str().unwrap().parse::<u64>().unwrap();
    (
        points(&sent, "claude_code.token.usage")
            .iter()
            .map(int)
            .sum(),
        points(&sent, "claude_code.cost.usage")
            .iter()
            .map(|p| p["asDouble"].as_f64().unwrap())
            .sum(),
        points(&sent, "claude_code.session.count")
            .iter()
            .map(int)
            .sum(),
        points(&sent, "claude_code.cost.usage").len(),
    )
}

#[test]
fn an_endpoint_gets_each_point_once_across_runs_with_its_headers() {
    let env = corpus_env();
    // The first request is refused for a while (a 503, a 429): retried.
    let r = receiver(vec![503, 429]);
    let run = || {
        let out = env
            .cmd()
            .env(
                "OTEL_EXPORTER_OTLP_HEADERS",
                "Authorization=Bearer%20s3cret",
            )
            .args([
                "export",
                "--otlp-endpoint",
                &r.url,
                "--otlp-header",
                "x-team=core",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let err = run();
    // 54 token and cost points, and a session count for each of the 7.
    assert!(err.contains("61 metric points and 13 spans"), "{err}");
    let first: Vec<(String, String, String)> = r.got.lock().unwrap().clone();
    assert_eq!(
        first.iter().map(|(p, _, _)| p.as_str()).collect::<Vec<_>>(),
        ["/v1/metrics", "/v1/metrics", "/v1/traces"]
    );
    for (_, headers, _) in &first {
        let h = headers.to_ascii_lowercase();
        assert!(h.contains("authorization: bearer s3cret"), "{headers}");
        assert!(h.contains("x-team: core"), "{headers}");
        assert!(h.contains("content-type: application/json"), "{headers}");
    }
    let sent: Vec<Value> = first
        .iter()
        .map(|(_, _, b)| serde_json::from_str(b).unwrap())
        .collect();
    let tokens: u64 = points(&sent, "claude_code.token.usage")
        .iter()
        .map(|p| p["asInt"].as_str().unwrap().parse::<u64>().unwrap())
        .sum();
    let t = &env.json(&["cost"])["totals"];
    assert_eq!(tokens, t["total_tokens"].as_u64().unwrap());
    // Again: nothing new, nothing sent.
    let err = run();
    assert!(err.contains("sent 0 metric points and 0 spans"), "{err}");
    assert_eq!(r.got.lock().unwrap().len(), 3);
    // A new session: only it.
    env.ingest(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pi-0.73/sessions"));
    let err = run();
    let after = r.got.lock().unwrap().clone();
    assert_eq!(
        points(
            &after[3..]
                .iter()
                .map(|(_, _, b)| serde_json::from_str(b).unwrap())
                .collect::<Vec<Value>>(),
            "claude_code.session.count"
        )
        .len(),
        1
    );
    let new: Vec<Value> = after[3..]
        .iter()
        .map(|(_, _, b)| serde_json::from_str(b).unwrap())
        .collect();
    let sessions: std::collections::BTreeSet<String> = points(&new, "claude_code.token.usage")
        .iter()
        .map(|p| {
            attr(p, "session.id").unwrap()["stringValue"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(sessions.len(), 1, "{err}");
    assert_eq!(spans(&new).len(), 1, "{err}");
}

#[test]
fn bad_input_sends_nothing() {
    let env = corpus_env();
    let (code, _, err) = env.run(&["export", "--otlp-endpoint", "collector:4318"]);
    assert_eq!(code, 2);
    assert!(err.contains("is not an http:// or https:// URL"), "{err}");
    // A refusal (400) is reported at once, and nothing is recorded sent.
    let r = receiver(vec![400]);
    let (code, _, err) = env.run(&["export", "--otlp-endpoint", &r.url]);
    assert_eq!(code, 2);
    assert!(err.contains("refused the request: HTTP 400"), "{err}");
    assert_eq!(env.scalar("SELECT COUNT(*) FROM otlp_sent_messages"), 0);
    let (code, _, err) = env.run(&["export", "--since", "7d"]);
    assert_eq!(code, 2);
    assert!(err.contains("OpenTelemetry export's"), "{err}");
}

/// A run killed while a later request is pending, or failing after the
/// endpoint took some, leaves recorded exactly what was taken: over 20
/// rounds killed at a random request, then a clean run, the receiver's
/// sums equal `cost`'s totals once.
#[test]
fn a_killed_or_failed_export_resends_nothing_the_endpoint_took() {
    let env = corpus_env();
    let totals = env.json(&["cost"])["totals"].clone();
    let sessions = env.scalar("SELECT COUNT(*) FROM sessions") as u64;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    eprintln!("kill rounds seeded with {seed}");
    let mut x = seed | 1;
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    // One endpoint throughout: each round kills the run at a random
    // request (none when the run has fewer).
    let r = receiver(vec![]);
    for _ in 0..20 {
        let k = next(5) as usize;
        {
            let mut script = r.script.lock().unwrap();
            script.clear();
            script.extend(vec![Reply::Status(200, "", "{}"); k]);
            script.push_back(Reply::Kill);
        }
        let mut child = env
            .std_cmd()
            .args(["export", "--otlp-endpoint", &r.url])
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        loop {
            if r.kills.try_recv().is_ok() {
                child.kill().unwrap();
                break;
            }
            if child.try_wait().unwrap().is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        child.wait().unwrap();
    }
    // A 503 after a request was taken: the run fails, the first stays taken.
    {
        let mut script = r.script.lock().unwrap();
        script.clear();
        script.push_back(Reply::Status(200, "", "{}"));
        script.extend(vec![Reply::Status(503, "", "{}"); 4]);
    }
    let (code, _, err) = env.run(&["export", "--otlp-endpoint", &r.url]);
    assert!(
        code == 0 || (code == 2 && err.contains("HTTP 503")),
        "{err}"
    );
    // A clean run sends the rest.
    r.script.lock().unwrap().clear();
    let (code, _, err) = env.run(&["export", "--otlp-endpoint", &r.url]);
    assert_eq!(code, 0, "{err}");
    let (tokens, cost, counted, cost_points) = taken(&r);
    assert_eq!(tokens, totals["total_tokens"].as_u64().unwrap());
    // Each point's dollars are rounded to the micro-dollar: the sum is
    // within half of one per point of the exact total (a point sent twice
    // would be off by its whole cost).
    let exact = totals["cost_nanousd"].as_i64().unwrap() as f64 / 1e9;
    assert!(
        (cost - exact).abs() <= cost_points as f64 * 0.5e-6 + 1e-12,
        "{cost} against {exact}"
    );
    assert_eq!(counted, sessions);
    // Nothing is left to send.
    let (_, _, err) = env.run(&["export", "--otlp-endpoint", &r.url]);
    assert!(err.contains("sent 0 metric points and 0 spans"), "{err}");
}

/// A redirect is an error that names where it points: nothing counted as
/// sent, nothing followed, no header carried to the other origin.
#[test]
fn a_redirect_is_an_error_and_is_never_followed() {
    let env = corpus_env();
    let other = receiver(vec![]);
    for status in [301, 302, 307, 308] {
        let location: &'static str =
            Box::leak(format!("location: {}/elsewhere\r\n", other.url).into_boxed_str());
        let r = scripted(vec![Reply::Status(status, location, "")]);
        let (code, _, err) = env.run(&[
            "export",
            "--otlp-endpoint",
            &r.url,
            "--otlp-header",
            "x-api-key=k3y",
        ]);
        assert_eq!(code, 2, "{status}: {err}");
        assert!(
            err.contains(&format!(
                "answered HTTP {status}, a redirect to {}/elsewhere",
                other.url
            )),
            "{err}"
        );
        assert_eq!(env.scalar("SELECT COUNT(*) FROM otlp_sent_messages"), 0);
        assert_eq!(env.scalar("SELECT COUNT(*) FROM otlp_sent_sessions"), 0);
    }
    assert!(
        other.got.lock().unwrap().is_empty(),
        "nothing reached the other origin"
    );
}

/// A password in the endpoint's URL is masked in every message and never
/// stored; a collector's answer cannot drive the terminal.
#[test]
fn an_endpoint_s_password_and_answer_stay_out_of_sight() {
    let env = corpus_env();
    let r = receiver(vec![]);
    let with_password = r.url.replace("http://", "http://team:pa55w0rd@");
    let (code, _, err) = env.run(&["export", "--otlp-endpoint", &with_password]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("http://team:***@127.0.0.1"), "{err}");
    assert!(!err.contains("pa55w0rd"), "{err}");
    let got = r.got.lock().unwrap().clone();
    assert!(
        got[0]
            .1
            .to_ascii_lowercase()
            .contains("authorization: basic dgvhbtpwytu1dzbyza=="),
        "the password still reaches the endpoint as basic auth: {}",
        got[0].1
    );
    assert!(!env.dump().contains("pa55w0rd"), "never stored");
    assert_eq!(
        env.scalar(
            "SELECT COUNT(DISTINCT endpoint) FROM otlp_sent_messages WHERE instr(endpoint, '@') = 0"
        ),
        1
    );
    // Again, without the password: the same endpoint, nothing resent.
    let (_, _, err) = env.run(&["export", "--otlp-endpoint", &format!("{}/", r.url)]);
    assert!(err.contains("sent 0 metric points and 0 spans"), "{err}");
    // A refusal's body, with a clipboard-writing control sequence.
    let bad = scripted(vec![Reply::Status(
        400,
        "",
        "no \u{1b}]52;c;ZXZpbA==\u{7} thanks",
    )]);
    let (code, _, err) = env.run(&[
        "export",
        "--otlp-endpoint",
        &bad.url.replace("http://", "http://u:pa55w0rd@"),
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("refused the request: HTTP 400 no \\u{1b}]52;c;ZXZpbA==\\u{7} thanks"),
        "{err}"
    );
    assert!(
        !err.contains('\u{1b}') && !err.contains("pa55w0rd"),
        "{err}"
    );
    // Unreachable: the error masks the password too.
    let (code, _, err) = env.run(&["export", "--otlp-endpoint", "http://u:pa55w0rd@127.0.0.1:9"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("http://u:***@127.0.0.1:9/v1/metrics: no answer after 4 tries"),
        "{err}"
    );
    assert!(!err.contains("pa55w0rd"), "{err}");
}
