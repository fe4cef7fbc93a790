use super::*;
use serde_json::json;

use crate::domain::transcript::Format;

const OFF: SaidOptions = SaidOptions { outputs: false };
const ON: SaidOptions = SaidOptions { outputs: true };

fn texts(p: &[Piece]) -> Vec<(Role, Option<&str>, bool, &str)> {
    p.iter()
        .map(|p| (p.role, p.tool.as_deref(), p.output, p.text.as_str()))
        .collect()
}

#[test]
fn claude_prompts_answers_and_calls_but_no_thinking_or_images() {
    let prompt = claude_content(r#""fix the flaky login test""#, false, OFF);
    assert_eq!(
        texts(&prompt),
        [(Role::User, None, false, "fix the flaky login test")]
    );
    let raw = json!([
        {"type": "thinking", "thinking": "secret plan"},
        {"type": "text", "text": "Running the suite."},
        {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cargo test -p api", "description": "run tests"}},
        {"type": "image", "source": {"type": "base64", "data": "iVBORw0KGgo"}}
    ])
    .to_string();
    let answer = claude_content(&raw, true, OFF);
    assert_eq!(
        texts(&answer),
        [
            (Role::Assistant, None, false, "Running the suite."),
            (
                Role::Tool,
                Some("Bash"),
                false,
                "cargo test -p api\nrun tests"
            ),
        ]
    );
}

#[test]
fn tool_outputs_only_when_asked() {
    let raw = json!([{"tool_use_id": "t1", "type": "tool_result", "content": [{"type": "text", "text": "3 passed"}, {"type": "image", "source": {}}]}]).to_string();
    assert!(claude_content(&raw, false, OFF).is_empty());
    assert_eq!(
        texts(&claude_content(&raw, false, ON)),
        [(Role::Tool, None, true, "3 passed")]
    );
}

#[test]
fn secrets_are_redacted_before_anything_is_kept() {
    let key = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    let raw = json!([{"type": "tool_use", "name": "Bash", "input": {"command": format!("curl -H 'Authorization: token {key}' https://api.github.com"), "password": "hunter2hunter2"}}]).to_string();
    let p = claude_content(&raw, true, OFF);
    assert_eq!(p.len(), 1);
    assert!(!p[0].text.contains(key), "{}", p[0].text);
    assert!(!p[0].text.contains("hunter2"), "{}", p[0].text);
    assert!(p[0].text.contains("[redacted:"), "{}", p[0].text);
    assert!(p[0].text.contains("https://api.github.com"));
}

#[test]
fn injected_context_and_blobs_are_not_kept() {
    assert!(
        claude_content(
            r#""<system-reminder>be brief</system-reminder>""#,
            false,
            OFF
        )
        .is_empty()
    );
    // A machine's tag (a name with `_` or `-`) opens an injection even
    // when it is cut short.
    assert!(claude_content(r#""<environment_context>\n  <cwd>/w</cwd>\n""#, false, OFF).is_empty());
    // A slash command the person typed is theirs, as they typed it; the
    // client's words around it are not.
    let typed = claude_content(
        r#""<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>plan the release</command-args>""#,
        false,
        OFF,
    );
    assert_eq!(typed.len(), 1);
    assert_eq!(typed[0].text, "/orchestrator plan the release");
    assert_eq!(typed[0].role, Role::User);
    let bare = claude_content(
        r#""<command-name>review</command-name><command-args></command-args>""#,
        false,
        OFF,
    );
    assert_eq!(bare[0].text, "/review");
    // A person's prompt that merely starts with a tag is theirs.
    assert_eq!(
        claude_content(r#""<div> is not centred""#, false, OFF).len(),
        1
    );
    let blob: String = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk".repeat(8);
    let text = format!("see data:image/png;base64,{blob} here");
    let kept = strip_blobs(&text);
    assert_eq!(
        kept,
        format!(
            "see data:image/png;base64,[binary {} bytes] here",
            blob.len() * 3 / 4
        )
    );
    // A long identifier or path is words, not a blob.
    let path = "src/".to_string() + &"very_long_module_name/".repeat(12);
    assert_eq!(strip_blobs(&path), path.as_str());
}

/// What a line of `format`'s says, read by its client's reader.
fn of_line(
    format: Format,
    v: &Value,
    line: u64,
    opts: SaidOptions,
) -> Vec<(String, Option<Millis>, Vec<Piece>)> {
    let read = format
        .client()
        .reads
        .said
        .expect("its lines are read for what they say");
    read(v, line, opts)
}

#[test]
fn every_line_based_client_is_read() {
    // Codex: messages (not the developer's), calls with JSON arguments.
    let codex = json!({"timestamp": "2026-12-03T06:47:44.385Z", "type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"rg\",\"TODO\",\"src/lib.rs\"]}", "call_id": "c1"}});
    let got = of_line(Format::Codex, &codex, 7, OFF);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, "c1");
    assert_eq!(
        texts(&got[0].2),
        [(Role::Tool, Some("shell"), false, "rg\nTODO\nsrc/lib.rs")]
    );
    let dev = json!({"type": "response_item", "payload": {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "rules"}]}});
    assert!(of_line(Format::Codex, &dev, 1, OFF).is_empty());
    let user = json!({"type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello there"}]}});
    let got = of_line(Format::Codex, &user, 9, OFF);
    assert_eq!(got[0].0, "line:9");
    assert_eq!(texts(&got[0].2), [(Role::User, None, false, "hello there")]);
    // Gemini CLI: a message and its tool calls; a `$set` list.
    let gemini = json!({"id": "g1", "timestamp": "2026-12-03T06:46:06.779Z", "type": "gemini", "content": "reading it", "toolCalls": [{"name": "read_file", "args": {"path": "README.md"}, "result": [{"functionResponse": {"response": {"output": "# Title"}}}]}]});
    assert_eq!(
        texts(&of_line(Format::GeminiCli, &gemini, 1, ON)[0].2),
        [
            (Role::Assistant, None, false, "reading it"),
            (Role::Tool, Some("read_file"), false, "README.md"),
            (Role::Tool, Some("read_file"), true, "# Title"),
        ]
    );
    let set = json!({"$set": {"messages": [{"id": "u1", "type": "user", "content": [{"text": "hi gemini"}]}]}});
    let got = of_line(Format::GeminiCli, &set, 2, OFF);
    assert_eq!(
        (got[0].0.as_str(), got[0].2[0].text.as_str()),
        ("u1", "hi gemini")
    );
    // Qwen Code: parts.
    let qwen = json!({"uuid": "q1", "type": "assistant", "message": {"role": "model", "parts": [{"functionCall": {"name": "run_shell_command", "args": {"command": "echo hi"}}}]}});
    assert_eq!(
        texts(&of_line(Format::QwenCode, &qwen, 1, OFF)[0].2),
        [(Role::Tool, Some("run_shell_command"), false, "echo hi")]
    );
    // pi: a tool call, and a tool result only with outputs.
    let pi = json!({"type": "message", "id": "p1", "message": {"role": "assistant", "content": [{"type": "toolCall", "name": "bash", "arguments": {"command": "ls"}}]}});
    assert_eq!(
        texts(&of_line(Format::Pi, &pi, 1, OFF)[0].2),
        [(Role::Tool, Some("bash"), false, "ls")]
    );
    let result = json!({"type": "message", "id": "p2", "message": {"role": "toolResult", "toolName": "bash", "content": [{"type": "text", "text": "a.txt"}]}});
    assert!(of_line(Format::Pi, &result, 1, OFF).is_empty());
    assert_eq!(
        texts(&of_line(Format::Pi, &result, 1, ON)[0].2),
        [(Role::Tool, Some("bash"), true, "a.txt")]
    );
    // Copilot CLI: an answer with its tool requests.
    let copilot = json!({"type": "assistant.message", "id": "e1", "data": {"content": "", "toolRequests": [{"name": "bash", "arguments": {"command": "echo hi"}}]}});
    assert_eq!(
        texts(&of_line(Format::CopilotCli, &copilot, 1, OFF)[0].2),
        [(Role::Tool, Some("bash"), false, "echo hi")]
    );
}

/// `strip_blobs` looks at one byte in `BLOB_MIN` where prose is: it cuts
/// exactly the runs a byte-by-byte walk finds, wherever they start and
/// end (at the text's edges, one byte either side of the bound, after
/// other characters).
#[test]
fn blobs_are_cut_as_a_walk_of_every_byte_would_cut_them() {
    fn every_byte(text: &str) -> String {
        let b = text.as_bytes();
        let (mut out, mut last, mut i) = (String::new(), 0, 0);
        while i < b.len() {
            if !B64[usize::from(b[i])] {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && B64[usize::from(b[i])] {
                i += 1;
            }
            let run = &b[start..i];
            if run.len() >= BLOB_MIN
                && run.iter().filter(|c| c.is_ascii_digit()).count() * 20 >= run.len()
                && run.iter().filter(|c| c.is_ascii_uppercase()).count() * 8 >= run.len()
            {
                out.push_str(&text[last..start]);
                out.push_str(&format!("[binary {} bytes]", run.len() * 3 / 4));
                last = i;
            }
        }
        out + &text[last..]
    }
    let mut next = crate::domain::test_draws(0x9e37_79b9_7f4a_7c15_u64);
    let blob = "Qk9yVzBLR2dvQUFBQU5TVWhFVWdBQUFBRUFBQUFCQ0FZQUFBQWZGY1NKQUFBQURVbEVRVlI0Mm1OazEy";
    let mut cut = 0;
    for _ in 0..3000 {
        let mut text = String::new();
        for _ in 0..next(6) + 1 {
            match next(5) {
                0 => text.push_str(&blob[..next(blob.len())]),
                1 => {
                    let len = BLOB_MIN - 2 + next(5);
                    text.extend(blob.chars().cycle().skip(next(blob.len())).take(len));
                }
                2 => text.push_str(["é ", " ", "\n", "/", "ß", "日本"][next(6)]),
                3 => text.push_str(&"ab".repeat(next(150))),
                _ => text.push_str("plain words here. "),
            }
        }
        let want = every_byte(&text);
        cut += usize::from(want != text);
        assert_eq!(strip_blobs(&text), want.as_str(), "{text:?}");
    }
    assert!(cut > 300, "the cases cut blobs ({cut} did)");
}

/// A tool call's input read as raw JSON gives the strings its `Value`
/// gives, on generated inputs: keys given twice, escapes, nesting, JSON
/// inside a string, numbers, and the keys whose inputs go to the
/// `Value`'s reading (secrets, key-like names, structural fields), and
/// input that is not JSON.
#[test]
fn an_inputs_raw_reading_is_its_values() {
    let keys = [
        "command",
        "file_path",
        "cwd",
        "old_string",
        "b",
        "a",
        "password",
        "signing_key",
        "input_tokens",
        "ghp_0123456789abcdefghijABCDEFGHIJ012345",
        "esc\\\"aped",
        "caf\\u00e9",
    ];
    let strings = [
        r#""cargo test""#,
        r#""line one\nline two""#,
        r#""quote \" and slash \\ and \u00e9""#,
        r#"" ""#,
        r#""""#,
        r#""kJ8sP2qX9vL4mN7rT1wZ5yB3""#,
        r#""[redacted:by-key:~16]""#,
        r#""see ghp_0123456789abcdefghijABCDEFGHIJ012345 here""#,
        r#""{\"inner\": \"json in a string\", \"n\": [1, \"two\"]}""#,
        r#""[not json""#,
        "12",
        "-3.5e2",
        "true",
        "null",
    ];
    fn value(
        next: &mut dyn FnMut(usize) -> usize,
        depth: u32,
        keys: &[&str],
        strings: &[&str],
    ) -> String {
        match if depth > 2 { next(2) } else { next(4) } {
            0 | 1 => strings[next(strings.len())].to_string(),
            2 => {
                let items: Vec<String> = (0..next(4))
                    .map(|_| value(next, depth + 1, keys, strings))
                    .collect();
                format!("[{}]", items.join(", "))
            }
            _ => {
                let entries: Vec<String> = (0..next(5))
                    .map(|_| {
                        format!(
                            "\"{}\": {}",
                            keys[next(keys.len())],
                            value(next, depth + 1, keys, strings)
                        )
                    })
                    .collect();
                format!("{{{}}}", entries.join(","))
            }
        }
    }
    let mut next = crate::domain::test_draws(0x1f83_d9ab_fb41_bd6b_u64);
    let (mut twice, mut raw_read) = (0, 0);
    for n in 0..4000 {
        let mut raw = value(&mut next, 0, &keys, &strings);
        if n % 97 == 0 {
            raw.push_str(" trailing");
        }
        let want = input_text(&serde_json::from_str(&raw).unwrap_or(Value::Null));
        assert_eq!(input_text_raw(&raw), want, "{raw}");
        let doc = serde_json::from_str::<redact::Doc>(&raw);
        raw_read += usize::from(
            doc.as_ref()
                .is_ok_and(|d| redact::doc_strings(d, &mut Vec::new())),
        );
        let keyed: Vec<&str> = keys
            .iter()
            .copied()
            .filter(|k| raw.matches(&format!("\"{k}\":")).count() > 1)
            .collect();
        twice += usize::from(!keyed.is_empty());
    }
    assert!(twice > 300 && raw_read > 1500, "{twice} {raw_read}");
}
