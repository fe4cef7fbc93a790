//! Untrusted text in every output that is not a table: a session whose
//! prompt, model, agent type and project carry terminal controls (OSC 52,
//! C1, DEL, NUL, a lone carriage return), bidi overrides and markup comes
//! out of Markdown, CSV, JSON and the HTML report neutralised, with the
//! document's structure intact; the report's target folder is never
//! written through a planted link, and a failed write leaves nothing.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::*;

const S: &str = "e0e0e0e0-0000-4000-8000-000000000001";
const MODEL: &str = "<!--<script>";
const PROMPT: &str = "look \u{1b}]52;c;ZXZpbA==\u{7} here \u{0} \u{9b}31m \u{7f} <script>alert(1)</script> <iframe src=x> a\rb \u{202e}evil";

/// Writes the hostile session under `root/projects` and returns that folder.
fn hostile(root: &Path) -> PathBuf {
    let cwd = "/home/dev/proj\u{202e}evil\r\u{9b}";
    let dir = root.join("projects/-home-dev-proj");
    std::fs::create_dir_all(dir.join(S).join("subagents")).unwrap();
    let line = |v: Value| v.to_string() + "\n";
    let base = |uuid: &str, parent: Option<&str>, t: &str, at: &str| {
        json!({"parentUuid": parent, "isSidechain": false, "cwd": cwd, "sessionId": S,
               "version": "2.1.47", "type": t, "uuid": uuid, "timestamp": at})
    };
    let mut user = base("u-1", None, "user", "2026-01-10T09:00:00.000Z");
    user["message"] = json!({"role": "user", "content": PROMPT});
    let mut answer = base("a-2", Some("u-1"), "assistant", "2026-01-10T09:00:05.000Z");
    answer["message"] = json!({"model": MODEL, "id": "msg_e-2", "type": "message", "role": "assistant",
        "content": [{"type": "text", "text": "done <b>bold</b>\n# not a heading\n```\nfence"},
                    {"type": "tool_use", "id": "toolu_e1", "name": "Ba`sh\n# x",
                     "input": {"command": "echo \u{1b}[2J", "description": "d"}}],
        "usage": {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 0,
                  "cache_creation_input_tokens": 0}});
    let mut spawn = base("a-3", Some("a-2"), "assistant", "2026-01-10T09:00:06.000Z");
    spawn["message"] = json!({"model": MODEL, "id": "msg_e-3", "type": "message", "role": "assistant",
        "content": [{"type": "tool_use", "id": "toolu_e2", "name": "Task",
                     "input": {"subagent_type": "Explore\n# injected", "prompt": "p", "description": "d"}}],
        "usage": {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 0,
                  "cache_creation_input_tokens": 0}});
    std::fs::write(
        dir.join(format!("{S}.jsonl")),
        [user, answer, spawn].map(line).concat(),
    )
    .unwrap();
    let sub = dir.join(S).join("subagents");
    std::fs::write(
        sub.join("agent-ae0e000000000001.meta.json"),
        json!({"agentType": "Explore\n# injected <iframe>", "description": "look \u{1b}[31m\nround"})
            .to_string(),
    )
    .unwrap();
    let mut a = base("s-1", None, "user", "2026-01-10T09:00:07.000Z");
    a["isSidechain"] = json!(true);
    a["agentId"] = json!("ae0e000000000001");
    a["message"] = json!({"role": "user", "content": "sub \u{202e} prompt <script>"});
    let mut b = base("s-2", Some("s-1"), "assistant", "2026-01-10T09:00:08.000Z");
    b["isSidechain"] = json!(true);
    b["agentId"] = json!("ae0e000000000001");
    b["message"] = json!({"model": MODEL, "id": "msg_e-4", "type": "message", "role": "assistant",
        "content": [{"type": "text", "text": "sub answer"}],
        "usage": {"input_tokens": 3, "output_tokens": 2, "cache_read_input_tokens": 0,
                  "cache_creation_input_tokens": 0}});
    std::fs::write(
        sub.join("agent-ae0e000000000001.jsonl"),
        [a, b].map(line).concat(),
    )
    .unwrap();
    root.join("projects")
}

fn env() -> Env {
    let env = Env::new();
    let s = env.ingest(&hostile(&env.path("corpus")));
    assert_eq!(s["sessions_new"].as_u64(), Some(1), "{s}");
    env
}

/// The first character a terminal or a renderer would act on, if any:
/// C0 but tab and line feed, DEL, C1, bidi controls.
fn unsafe_char(s: &str) -> Option<char> {
    s.chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
    })
}

#[test]
fn markdown_neutralises_controls_and_markup_and_keeps_its_structure() {
    let env = env();
    let (code, out, err) = env.run(&["show", S, "--format", "markdown"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(unsafe_char(&out), None, "{out:?}");
    let lower = out.to_lowercase();
    assert!(
        !lower.contains("<script") && !lower.contains("<iframe"),
        "{out}"
    );
    assert!(!lower.contains("<b>") && !lower.contains("<!--"), "{out}");
    assert!(
        out.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{out}"
    );
    assert!(out.contains("\\u{1b}]52;c;ZXZpbA==\\u{7}"), "{out}");
    // Headings are the document's own: the title, the main agent, the one
    // subagent (whose type's line break became a space).
    let headings: Vec<&str> = out.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(headings.len(), 3, "{headings:?}");
    assert!(
        headings[2].starts_with("## Explore # injected &lt;iframe&gt;"),
        "{headings:?}"
    );
    // The tool's name cannot close its code span; its line stays one item.
    assert!(out.contains("- ``Ba`sh # x`` call:"), "{out}");
    // An answer's own lines stay inside its quote.
    assert!(out.contains("> # not a heading"), "{out}");
}

#[test]
fn csv_and_json_escape_every_control() {
    let env = env();
    let (code, csv, err) = env.run(&["sessions", "--format", "csv"]);
    assert_eq!(code, 0, "{err}");
    assert!(!csv.contains('\r'), "{csv:?}");
    assert_eq!(unsafe_char(&csv), None, "{csv:?}");
    for format in ["json", "jsonl"] {
        let (code, out, err) = env.run(&["sessions", "--format", format]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(unsafe_char(&out), None, "{out:?}");
        assert!(out.contains("\\u009b"), "{out}");
    }
    let (code, otlp, err) = env.run(&["export", "--format", "otlp-json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(unsafe_char(&otlp), None, "{otlp:?}");
    assert!(
        otlp.lines()
            .all(|l| serde_json::from_str::<Value>(l).is_ok())
    );
    let (_, out, _) = env.run(&["show", S, "--format", "json"]);
    assert_eq!(unsafe_char(&out), None, "{out:?}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(
        v["session"]["project"]
            .as_str()
            .unwrap_or("")
            .contains('\u{9b}')
            || out.contains("\\u009b")
    );
}

#[test]
fn the_report_s_figures_and_names_cannot_break_the_page() {
    let env = env();
    let target = env.path("r.html");
    let (code, _, err) = env.run(&["report", "--out", target.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&target).unwrap();
    assert_eq!(unsafe_char(&html), None);
    assert!(!html.contains("<!--"), "the model's name opened a comment");
    assert_eq!(
        html.matches("<script").count(),
        1,
        "one script element: the figures"
    );
    let start = html.find("id=\"sessionkit-report\">").unwrap() + "id=\"sessionkit-report\">".len();
    let block = &html[start..start + html[start..].find("</script>").unwrap()];
    assert!(!block.contains('<') && !block.contains('>'), "{block}");
    let data: Value = serde_json::from_str(block).unwrap();
    assert!(data["by_model"].get(MODEL).is_some(), "{data}");
}

#[test]
fn the_report_is_never_written_through_a_planted_link_and_a_failed_write_leaves_nothing() {
    let env = env();
    let dir = env.path("out");
    std::fs::create_dir(&dir).unwrap();
    let victim = env.path("victim.txt");
    std::fs::write(&victim, "keep").unwrap();
    let target = dir.join("r.html");
    // The temporary's old fixed name, and the target itself, as links.
    std::os::unix::fs::symlink(&victim, dir.join(".r.html.sessionkit-tmp")).unwrap();
    std::os::unix::fs::symlink(&victim, &target).unwrap();
    let (code, _, err) = env.run(&["report", "--out", target.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    assert!(std::fs::symlink_metadata(&target).unwrap().is_file());
    // What a killed run left (its process gone) is removed by the next.
    let left = dir.join(".r.html.sessionkit-tmp-999999999-0");
    std::fs::write(&left, "half a report").unwrap();
    let (code, _, err) = env.run(&["report", "--out", target.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(!left.exists(), "the killed run's temporary stayed");
    // On a full disk (a 16 KiB tmpfs in a mount namespace of its own),
    // the second report fails clearly, the first stays whole, and no
    // temporary is left to keep the disk full.
    let small = env.path("small");
    std::fs::create_dir(&small).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("sessionkit");
    let script = format!(
        "mount -t tmpfs -o size=16k none '{d}' || exit 99
         '{bin}' report --out '{d}/r.html' || exit 98
         cp '{d}/r.html' '{d}.first'
         '{bin}' report --since 2026-01-01 --out '{d}/r.html' 2>'{d}.err'; echo \"rc=$?\"
         cmp '{d}/r.html' '{d}.first' && echo same
         ls -A '{d}'",
        d = small.display(),
        bin = bin.display()
    );
    let out = std::process::Command::new("unshare")
        .args(["-rm", "sh", "-c", &script])
        .env("SESSIONKIT_DB", env.db())
        .env("HOME", env.path("home"))
        .env("SESSIONKIT_NOW", NOW)
        .output();
    let Some(out) = out
        .ok()
        .filter(|o| o.status.code().is_some_and(|c| c != 99))
    else {
        return skip("no mount namespace here (unshare -rm): the full-disk write is not tried");
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let err = std::fs::read_to_string(env.path("small.err")).unwrap_or_default();
    assert!(text.contains("rc=2"), "{text}{err}");
    assert!(err.contains("No space left on device"), "{err}");
    assert!(text.contains("same"), "{text}");
    assert_eq!(
        text.lines().last(),
        Some("r.html"),
        "only the report is left: {text}"
    );
}

/// Secrets at punctuation and after credential flags never reach the
/// database, the search index or a document: the whole store is read back.
#[test]
fn secrets_at_punctuation_and_after_flags_are_stored_nowhere() {
    let sendgrid = "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";
    let secrets = [
        "hunter2x",
        "Tr0ub4dor",
        "s3cr3tpass",
        "k3yvalue9",
        "r3dispw",
        "AAHk3k2jd8Dkeid9dkeI3kdkeJd93kd_Abc",
    ];
    let prompt = format!(
        "keys: {sendgrid}. and ({sendgrid}) and {sendgrid}。 then run `mysql -u root -p{} app`, \
         `deploy --password '{}'`, `sshpass -p {} ssh h`, `cli --api-key {}`, \
         redis://:{}@cache:6379 and https://api.telegram.org/bot123456789:{}/getMe",
        secrets[0], secrets[1], secrets[2], secrets[3], secrets[4], secrets[5]
    );
    let env = Env::new();
    let root = env.path("corpus/projects/-home-dev-keys");
    std::fs::create_dir_all(&root).unwrap();
    let line = json!({"parentUuid": null, "isSidechain": false, "cwd": "/home/dev/keys",
        "sessionId": S, "version": "2.1.47", "type": "user", "uuid": "u-1",
        "timestamp": "2026-01-10T09:00:00.000Z", "message": {"role": "user", "content": prompt}});
    let answer = json!({"parentUuid": "u-1", "isSidechain": false, "cwd": "/home/dev/keys",
        "sessionId": S, "version": "2.1.47", "type": "assistant", "uuid": "a-2",
        "timestamp": "2026-01-10T09:00:05.000Z",
        "message": {"model": "claude-sonnet-4-5", "id": "msg_k-2", "type": "message", "role": "assistant",
            "content": [{"type": "text", "text": format!("done with {sendgrid}, ok")}],
            "usage": {"input_tokens": 1, "output_tokens": 1, "cache_read_input_tokens": 0,
                      "cache_creation_input_tokens": 0}}});
    std::fs::write(
        root.join(format!("{S}.jsonl")),
        format!("{line}\n{answer}\n"),
    )
    .unwrap();
    env.ingest(&env.path("corpus/projects"));
    let (_, markdown, _) = env.run(&["show", S, "--format", "markdown"]);
    let (_, found, _) = env.run(&["search", "keys", "--format", "json"]);
    assert!(markdown.contains("[redacted:"), "{markdown}");
    let db = std::fs::read(env.db()).unwrap();
    let stored = String::from_utf8_lossy(&db).into_owned() + &env.dump() + &markdown + &found;
    for secret in secrets.iter().chain([&"TwL2iGABf9DHoTf"]) {
        assert!(!stored.contains(secret), "{secret} was stored");
    }
}
