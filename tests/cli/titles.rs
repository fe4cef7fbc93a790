//! A session's title: the name the person gave it, else the title its
//! client made, else the first prompt the person typed (the client's own
//! injections skipped), one line, redacted, cut at 80 characters; kept
//! when a session is read on from where it stopped. `sessions`, `show`,
//! `cost --by session` (costliest first, with project and last activity)
//! and `search` carry it.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::*;

const A: &str = "7a000000-0000-4000-8000-00000000000a";
const B: &str = "7b000000-0000-4000-8000-00000000000b";
const C: &str = "7c000000-0000-4000-8000-00000000000c";

fn user(uuid: &str, at: &str, content: &Value) -> String {
    json!({"type": "user", "uuid": uuid, "timestamp": at,
           "cwd": "/home/dev/work/shop", "message": {"role": "user", "content": content}})
    .to_string()
}

fn answer(id: &str, at: &str, input: u64) -> String {
    json!({"type": "assistant", "uuid": format!("u-{id}"), "timestamp": at,
           "message": {"id": id, "role": "assistant", "model": "claude-sonnet-4-5",
                       "content": [{"type": "text", "text": "done"}],
                       "usage": {"input_tokens": input, "output_tokens": 10}}})
    .to_string()
}

fn write(dir: &Path, sid: &str, lines: &[String]) {
    let folder = dir.join("-home-dev-work-shop");
    std::fs::create_dir_all(&folder).unwrap();
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(folder.join(format!("{sid}.jsonl")), body).unwrap();
}

fn append(dir: &Path, sid: &str, lines: &[String]) {
    use std::io::Write;
    let path = dir.join("-home-dev-work-shop").join(format!("{sid}.jsonl"));
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    for l in lines {
        writeln!(f, "{l}").unwrap();
    }
}

fn titles(env: &Env) -> Vec<(String, Value)> {
    env.json(&["sessions"])
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["session_id"].as_str().unwrap().to_string(),
                s["title"].clone(),
            )
        })
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_iter()
        .collect()
}

#[test]
fn the_title_is_the_name_else_the_client_s_title_else_the_first_typed_prompt() {
    let env = Env::new();
    let root = env.path("projects");
    let long = "please   rotate the staging database password hunter2hunter2 and then \n\
                migrate the billing schema to the new ledger tables before friday";
    // A: the client's injected prompt first, then the person's (a secret
    // in it, white space runs, longer than a title).
    write(
        &root,
        A,
        &[
            user(
                "a1",
                "2026-03-01T10:00:00.000Z",
                &json!("<local-command-caveat>Caveat: ignore</local-command-caveat>"),
            ),
            user(
                "a2",
                "2026-03-01T10:00:01.000Z",
                &json!([{"type": "text", "text": long.replace("hunter2hunter2", "PASSWORD=hunter2hunter2")}]),
            ),
            answer("m-a", "2026-03-01T10:00:02.000Z", 100),
        ],
    );
    // B: a prompt, then the title Claude Code made, then the person's name
    // for it and a later one; a later made-up title does not replace a name.
    write(
        &root,
        B,
        &[
            user(
                "b1",
                "2026-03-02T10:00:00.000Z",
                &json!("fix the login test"),
            ),
            json!({"type": "ai-title", "aiTitle": "Fixing a flaky login test", "sessionId": B})
                .to_string(),
            json!({"type": "custom-title", "customTitle": "login flake", "sessionId": B})
                .to_string(),
            json!({"type": "custom-title", "customTitle": "login flake, round 2", "sessionId": B})
                .to_string(),
            json!({"type": "ai-title", "aiTitle": "Something else", "sessionId": B}).to_string(),
            answer("m-b", "2026-03-02T10:00:02.000Z", 9_000),
        ],
    );
    // C: no prompt at all.
    write(&root, C, &[answer("m-c", "2026-03-03T10:00:02.000Z", 500)]);
    env.ingest(&root);
    let got = titles(&env);
    let a = got[0].1.as_str().unwrap();
    assert_eq!(
        a, "please rotate the staging database password PASSWORD=[redacted:password:~16]…",
        "one line, redacted, cut at a word"
    );
    assert!(a.chars().count() <= 80);
    assert_eq!(got[1].1, json!("login flake, round 2"));
    assert_eq!(got[2].1, Value::Null);

    // Read on from where it stopped: the title stays; a new name replaces it.
    append(
        &root,
        A,
        &[
            user("a3", "2026-03-04T10:00:00.000Z", &json!("another prompt")),
            answer("m-a2", "2026-03-04T10:00:01.000Z", 5),
        ],
    );
    append(
        &root,
        C,
        &[user(
            "c1",
            "2026-03-04T10:00:00.000Z",
            &json!("now a prompt"),
        )],
    );
    append(
        &root,
        B,
        &[
            json!({"type": "custom-title", "customTitle": "login fixed", "sessionId": B})
                .to_string(),
        ],
    );
    let s = env.ingest(&root);
    assert_eq!(s["sessions_updated"], 3, "{s}");
    let again = titles(&env);
    assert_eq!(again[0].1, got[0].1);
    assert_eq!(again[1].1, json!("login fixed"));
    assert_eq!(
        again[2].1,
        json!("now a prompt"),
        "a first prompt in a later part counts"
    );

    // `show` carries it; `cost --by session` names each session and puts
    // the costliest first.
    assert_eq!(env.json(&["show", B])["title"], json!("login fixed"));
    let rows = env.cost_rows(&["--by", "session", "--since", "2026-01-01"]);
    let named: Vec<(String, Value, Value, Value)> = rows
        .iter()
        .map(|r| {
            (
                r["session_id"].as_str().unwrap()[..2].to_string(),
                r["title"].clone(),
                r["project"].clone(),
                r["last_activity_at"].clone(),
            )
        })
        .collect();
    assert_eq!(
        named,
        [
            (
                "7b".into(),
                json!("login fixed"),
                json!("shop"),
                json!("2026-03-02T10:00:02.000Z")
            ),
            (
                "7c".into(),
                json!("now a prompt"),
                json!("shop"),
                json!("2026-03-04T10:00:00.000Z")
            ),
            (
                "7a".into(),
                got[0].1.clone(),
                json!("shop"),
                json!("2026-03-04T10:00:01.000Z")
            ),
        ]
    );
    let costs: Vec<f64> = rows
        .iter()
        .map(|r| r["cost_usd"].as_f64().unwrap())
        .collect();
    assert!(costs.windows(2).all(|w| w[0] >= w[1]), "{costs:?}");
}

/// On a terminal 80 columns wide `sessions` shows each title on one line,
/// cut with `…` to what the width leaves, never wrapped.
#[test]
fn a_title_is_cut_to_one_line_in_a_narrow_table() {
    let env = Env::new();
    let root = env.path("projects");
    let prompt =
        "a prompt long enough that an eighty column table cannot hold it whole in its title column";
    write(
        &root,
        A,
        &[
            user("a1", "2026-03-01T10:00:00.000Z", &json!(prompt)),
            answer("m-a", "2026-03-01T10:00:02.000Z", 100),
        ],
    );
    env.ingest(&root);
    let (code, out, err) = env.run_with_env(
        &["sessions", "--format", "table", "--color", "never"],
        &[("COLUMNS", "80")],
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let row = lines
        .iter()
        .find(|l| l.starts_with("7a"))
        .expect("the session's row");
    assert!(lines.iter().all(|l| l.chars().count() <= 80), "{out}");
    assert!(!out.contains("title column"), "never wrapped: {out}");
    let cut = row
        .split("  ")
        .map(str::trim)
        .find(|c| c.starts_with("a prompt"))
        .expect("its title");
    assert!(
        cut.ends_with('…') && prompt.starts_with(cut.trim_end_matches('…')),
        "{cut:?}"
    );
}
