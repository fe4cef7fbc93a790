//! What was said in a transcript, for search: the user's prompts, the
//! assistant's text, each tool call (its name and the strings of its input:
//! commands, file paths, patterns) and, when asked for, each tool's output.
//! Pure: a record's JSON in, redacted pieces of text out.
//!
//! Every client's records are read here: Claude Code's content blocks
//! (`text`, `tool_use`, `tool_result`), Codex's response items (`message`,
//! `function_call`, `custom_tool_call`, `local_shell_call` and their
//! outputs), Gemini CLI's messages (`content`, `toolCalls`), Qwen Code's
//! parts (`text`, `functionCall`, `functionResponse`), pi's messages
//! (`text`, `toolCall`, `toolResult`), Copilot CLI's events
//! (`user.message`, `assistant.message` with `toolRequests`,
//! `tool.execution_complete`) and OpenCode's parts (`text`, `tool`); the
//! clients whose records have shapes of their own (Kimi CLI's wire, Cline's
//! documents, Hermes Agent's rows, Mistral Vibe's journal) read theirs in
//! their own folders with the helpers here.
//!
//! Never kept: reasoning (thinking blocks), images and documents, text the
//! client injects rather than a person or model writes (a prompt that is
//! wholly one `<tag>…</tag>` element: environment context, system
//! reminders, local command output), and any run of base64 long enough to
//! be an encoded file (`strip_blobs`), so an image pasted as text never
//! reaches the index.

use std::borrow::Cow;

use serde_json::Value;

use crate::domain::clock::{Millis, parse_instant};
use crate::domain::redact;

vocabulary! {
    /// Who said a piece of text.
    Role, "role", "roles" {
        /// A person's prompt (or the prompt a subagent was given).
        User = "user",
        /// The model's answer text.
        Assistant = "assistant",
        /// A tool call (its name and input) or a tool's output.
        Tool = "tool",
    }
}

/// What a search index keeps of a transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SaidOptions {
    /// Tools' outputs too (off by default: they are most of a
    /// transcript's bytes).
    pub outputs: bool,
}

/// One piece of what a record says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub role: Role,
    /// The tool's name, for a call or an output.
    pub tool: Option<String>,
    /// A tool's output rather than its call.
    pub output: bool,
    /// Redacted.
    pub text: String,
    /// What the search index holds of it (`matching::index_terms`): made
    /// where the piece is read, on a reader thread.
    pub terms: String,
    /// The hash the index finds the text by (`text_hash`), made there too.
    pub hash: u64,
}

/// The hash a text is found by in the search index: xxh3-64 of its tool's
/// name, a zero byte and the text. Two texts are one when their hashes,
/// tools and lengths agree.
pub fn text_hash(tool: Option<&str>, text: &str) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(tool.unwrap_or("").as_bytes());
    h.update(&[0]);
    h.update(text.as_bytes());
    h.digest()
}

/// The pieces of one record, with where it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// The agent whose record it is (the session's id for the main one).
    pub agent_id: String,
    /// The record's own id (a uuid or the client's message id), else its
    /// line (`line:N`): what `show --at` takes.
    pub record: String,
    pub at: Option<Millis>,
    pub pieces: Vec<Piece>,
}

/// Base64 runs at least this long (no whitespace) are an encoded file,
/// not words: cut out of any text before it is kept.
pub const BLOB_MIN: usize = 200;

/// The bytes of base64 (and its URL-safe form), as a table: every byte of
/// every text is looked up.
static B64: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        t[c] = b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_');
        c += 1;
    }
    t
};

/// The text with every base64-looking run of `BLOB_MIN` characters or more
/// (a `data:` URL's payload, an image pasted as text) replaced by
/// `[binary N bytes]`.
pub fn strip_blobs(text: &str) -> Cow<'_, str> {
    let b = text.as_bytes();
    let b64 = |c: u8| B64[usize::from(c)];
    let mut out: Option<String> = None;
    let mut last = 0;
    // No run of `BLOB_MIN` starts before `i` unless already handled, and
    // `i` is 0 or follows a byte that ends a run. A long run that starts
    // in `i..=probe` holds the byte at `probe`: when that byte cannot be in
    // a run, none starts there, and the scan moves on by `BLOB_MIN` bytes
    // having looked at one (prose has a space every few bytes).
    let mut i = 0;
    while i + BLOB_MIN <= b.len() {
        let probe = i + BLOB_MIN - 1;
        if !b64(b[probe]) {
            i = probe + 1;
            continue;
        }
        let mut start = probe;
        while start > i && b64(b[start - 1]) {
            start -= 1;
        }
        let mut end = probe + 1;
        while end < b.len() && b64(b[end]) {
            end += 1;
        }
        i = end;
        // A long identifier or path is not a blob: a blob mixes cases and
        // digits throughout, and has few separators.
        let run = &b[start..end];
        if run.len() >= BLOB_MIN
            && run.iter().filter(|c| c.is_ascii_digit()).count() * 20 >= run.len()
            && run.iter().filter(|c| c.is_ascii_uppercase()).count() * 8 >= run.len()
        {
            let o = out.get_or_insert_with(|| String::with_capacity(text.len()));
            o.push_str(&text[last..start]);
            o.push_str(&format!("[binary {} bytes]", run.len() * 3 / 4));
            last = end;
        }
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut o) => {
            o.push_str(&text[last..]);
            Cow::Owned(o)
        }
    }
}

/// Whether a prompt is the client's own injection: wholly one
/// `<tag>…</tag>` element, or opening with a machine's tag (a name with
/// `_` or `-`: Codex's `<environment_context>`, Claude Code's
/// `<system-reminder>` and `<local-command-stdout>`, Gemini CLI's
/// `<session_context>`, a subagent's notification).
fn injected(text: &str) -> bool {
    let t = text.trim();
    let Some(rest) = t.strip_prefix('<') else {
        return false;
    };
    let name_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    if name_len == 0 {
        return false;
    }
    let name = &rest[..name_len];
    let machine = name.contains(['_', '-']) && rest[name_len..].starts_with('>');
    machine || t.ends_with(&format!("</{name}>"))
}

/// The slash command a person typed, as the client records it:
/// `<command-name>/name</command-name>` with its `<command-args>` (Claude
/// Code's form), given back as `/name args`; the rest of such a prompt is
/// the client's.
fn slash_command(text: &str) -> Option<String> {
    let inside = |tag: &str| -> Option<&str> {
        let open = format!("<{tag}>");
        let from = text.find(&open)? + open.len();
        let len = text[from..].find(&format!("</{tag}>"))?;
        Some(text[from..from + len].trim())
    };
    let name = inside("command-name").filter(|n| !n.is_empty())?;
    let slash = if name.starts_with('/') { "" } else { "/" };
    let args = inside("command-args").unwrap_or("");
    Some(format!("{slash}{name} {args}").trim_end().to_string())
}

/// What a step that gives its input back borrowed when it leaves it alone
/// (`strip_blobs`, `redact_text`) made of it, when it changed it.
fn changed(step: Cow<'_, str>) -> Option<String> {
    match step {
        Cow::Owned(s) => Some(s),
        Cow::Borrowed(_) => None,
    }
}

/// Adds a text piece: blobs cut, redacted; nothing for empty text. A
/// prompt that is the client's injection is left out, but for a slash
/// command the person typed in it.
pub fn push_text<'t>(
    out: &mut Vec<Piece>,
    role: Role,
    tool: Option<&str>,
    output: bool,
    text: impl Into<Cow<'t, str>>,
) {
    let text = text.into();
    if text.trim().is_empty() {
        return;
    }
    if role == Role::User && injected(&text) {
        if let Some(command) = slash_command(&text) {
            push_text(out, role, tool, output, command);
        }
        return;
    }
    // A text given owned (unescaped) and left as it is is kept, not copied.
    let text = changed(strip_blobs(&text)).map_or(text, Cow::Owned);
    let text = changed(redact::redact_text(&text)).unwrap_or_else(|| text.into_owned());
    out.push(Piece {
        role,
        tool: tool.map(str::to_string),
        output,
        terms: crate::domain::matching::index_terms(tool, &text),
        hash: text_hash(tool, &text),
        text,
    });
}

/// The strings of a tool's input, redacted by key and by shape, one per
/// line: an array's in order, an object's by key (as serde_json's map
/// holds them); a JSON string that holds JSON is read as JSON (Codex's
/// `arguments`).
fn input_text(input: &Value) -> String {
    let parsed;
    let input = match input {
        Value::String(s) if s.trim_start().starts_with(['{', '[']) => {
            match serde_json::from_str::<Value>(s) {
                Ok(v) => {
                    parsed = v;
                    &parsed
                }
                Err(_) => input,
            }
        }
        v => v,
    };
    let mut lines = Vec::new();
    redact::redacted_strings(input, &mut lines);
    lines.join("\n")
}

/// `input_text` of the input `raw` (JSON) holds: read without a `Value`
/// (`redact::Doc`) unless it has a key `redact::doc_strings` leaves to the
/// `Value`'s reading (a tool call's input, parsed into a `Value` to be
/// walked, was a tenth of reading a transcript's words).
fn input_text_raw(raw: &str) -> String {
    let Ok(whole) = serde_json::from_str::<redact::Doc>(raw) else {
        return String::new();
    };
    let inner;
    let doc = match &whole {
        redact::Doc::Str(s) if s.trim_start().starts_with(['{', '[']) => {
            match serde_json::from_str::<redact::Doc>(s) {
                Ok(d) => {
                    inner = d;
                    &inner
                }
                Err(_) => &whole,
            }
        }
        d => d,
    };
    let mut lines = Vec::new();
    if redact::doc_strings(doc, &mut lines) {
        return lines.join("\n");
    }
    input_text(&serde_json::from_str(raw).unwrap_or(Value::Null))
}

/// Adds a tool call: its name and its input's strings.
pub fn push_call(out: &mut Vec<Piece>, name: &str, input: &Value) {
    push_call_text(out, name, input_text(input));
}

/// Adds a tool call whose input is raw JSON (`None`: no input).
pub fn push_call_raw(out: &mut Vec<Piece>, name: &str, input: Option<&str>) {
    push_call_text(out, name, input.map(input_text_raw).unwrap_or_default());
}

/// Adds a tool call: its name and its input's strings, one per line.
fn push_call_text(out: &mut Vec<Piece>, name: &str, strings: String) {
    let text = changed(strip_blobs(&strings)).unwrap_or(strings);
    out.push(Piece {
        role: Role::Tool,
        tool: Some(name.to_string()),
        output: false,
        terms: crate::domain::matching::index_terms(Some(name), &text),
        hash: text_hash(Some(name), &text),
        text,
    });
}

/// Adds a tool call in the Chat Completions shape (`{"function": {"name",
/// "arguments"}}`, the arguments a JSON string).
pub fn push_function_call(out: &mut Vec<Piece>, call: &Value) {
    let f = &call["function"];
    let name = f.get("name").and_then(Value::as_str).unwrap_or("tool");
    push_call(out, name, f.get("arguments").unwrap_or(&Value::Null));
}

/// Adds a tool's output (its text, however nested), when outputs are kept.
pub fn push_output(out: &mut Vec<Piece>, opts: SaidOptions, name: Option<&str>, output: &Value) {
    if !opts.outputs {
        return;
    }
    let mut lines = Vec::new();
    output_strings(output, &mut lines);
    push_text(out, Role::Tool, name, true, lines.join("\n"));
}

/// The text of an output: strings, and the `text`/`content`/`output` of
/// objects; an image or document block says nothing.
fn output_strings<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::String(s) if !s.is_empty() => out.push(s),
        Value::Array(items) => items.iter().for_each(|i| output_strings(i, out)),
        Value::Object(map) => {
            if matches!(
                map.get("type").and_then(Value::as_str),
                Some("image" | "document" | "input_image" | "image_url")
            ) {
                return;
            }
            for key in [
                "text",
                "content",
                "output",
                "result",
                "response",
                "functionResponse",
                "stdout",
                "stderr",
            ] {
                if let Some(x) = map.get(key) {
                    output_strings(x, out);
                }
            }
        }
        _ => {}
    }
}

/// A list of content blocks (or a plain string) said by `role`: text
/// blocks, tool calls, tool results; reasoning and images are skipped.
pub fn blocks(content: &Value, role: Role, opts: SaidOptions, out: &mut Vec<Piece>) {
    match content {
        Value::String(s) => push_text(out, role, None, false, s),
        Value::Array(items) => {
            for b in items {
                block(b, role, opts, out);
            }
        }
        _ => {}
    }
}

fn block(b: &Value, role: Role, opts: SaidOptions, out: &mut Vec<Piece>) {
    let kind = b.get("type").and_then(Value::as_str);
    let name = b.get("name").and_then(Value::as_str);
    match kind {
        Some("text" | "input_text" | "output_text") | None if b.get("text").is_some() => {
            if let Some(t) = b["text"].as_str() {
                push_text(out, role, None, false, t);
            }
        }
        Some("tool_use" | "server_tool_use" | "toolCall" | "function_call" | "tool-call") => {
            let input = b
                .get("input")
                .or_else(|| b.get("arguments"))
                .or_else(|| b.get("args"))
                .unwrap_or(&Value::Null);
            push_call(out, name.unwrap_or("tool"), input);
        }
        Some("tool_result" | "function_call_output" | "tool-result") => {
            push_output(out, opts, name, b.get("content").unwrap_or(&Value::Null));
        }
        None => {
            // Gemini's and Qwen Code's parts: `functionCall`, `functionResponse`.
            if let Some(c) = b.get("functionCall") {
                let n = c.get("name").and_then(Value::as_str).unwrap_or("tool");
                push_call(out, n, c.get("args").unwrap_or(&Value::Null));
            } else if let Some(r) = b.get("functionResponse") {
                let n = r.get("name").and_then(Value::as_str);
                push_output(out, opts, n, r.get("response").unwrap_or(&Value::Null));
            }
        }
        _ => {}
    }
}

/// What one line of a client's lines says: each record's id, time and
/// pieces (a client's `Reads::said`); `line` names a record without an id.
pub type LineSaid = fn(&Value, u64, SaidOptions) -> Vec<(String, Option<Millis>, Vec<Piece>)>;

/// What one record says: its id (when it has one) and its pieces; `None`
/// when it says nothing.
pub type RecordSaid = for<'v> fn(&'v Value, SaidOptions) -> Option<(Option<&'v str>, Vec<Piece>)>;

/// What a line holding one record says, its record read by `record` (its
/// id, when it has one, and its pieces; `None` when it says nothing),
/// dated by its `timestamp`.
pub fn one_record(
    v: &Value,
    line: u64,
    opts: SaidOptions,
    record: RecordSaid,
) -> Vec<(String, Option<Millis>, Vec<Piece>)> {
    let Some((key, pieces)) = record(v, opts) else {
        return Vec::new();
    };
    let key = key.map_or_else(|| format!("line:{line}"), str::to_string);
    vec![(key, at_of(v), pieces)]
}

/// A record's time, its `timestamp`.
pub fn at_of(v: &Value) -> Option<Millis> {
    v.get("timestamp")
        .and_then(Value::as_str)
        .and_then(parse_instant)
}

/// A record's non-empty string at `key`.
pub fn id_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// A Claude Code line (and a Qwen Code one, its shape): a user's prompt
/// or a tool's result, an answer with its tool calls.
pub fn claude_record(v: &Value, opts: SaidOptions) -> Option<(Option<&str>, Vec<Piece>)> {
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
    if !matches!(kind, "user" | "assistant" | "tool_result") {
        return None;
    }
    let m = v.get("message")?;
    let role = if kind == "assistant" {
        Role::Assistant
    } else {
        Role::User
    };
    let mut pieces = Vec::new();
    let content = m.get("parts").or_else(|| m.get("content"));
    blocks(content.unwrap_or(&Value::Null), role, opts, &mut pieces);
    (!pieces.is_empty()).then_some((id_of(v, "uuid"), pieces))
}

/// A line of Claude Code's, or of its shape.
pub fn claude_line(
    v: &Value,
    line: u64,
    opts: SaidOptions,
) -> Vec<(String, Option<Millis>, Vec<Piece>)> {
    one_record(v, line, opts, claude_record)
}

/// A `message` record of a role and its content (pi's, and a client's
/// of its shape): a prompt, an answer with its tool calls, a tool's
/// result.
pub fn role_message(v: &Value, opts: SaidOptions) -> Option<(Option<&str>, Vec<Piece>)> {
    if v.get("type").and_then(Value::as_str) != Some("message") {
        return None;
    }
    let m = &v["message"];
    let mut out = Vec::new();
    let content = m.get("content").unwrap_or(&Value::Null);
    match m.get("role").and_then(Value::as_str) {
        Some("user") => blocks(content, Role::User, opts, &mut out),
        Some("assistant") => blocks(content, Role::Assistant, opts, &mut out),
        Some("toolResult") => {
            let name = m.get("toolName").and_then(Value::as_str);
            push_output(&mut out, opts, name, content);
        }
        _ => {}
    }
    (!out.is_empty()).then_some((id_of(v, "id"), out))
}

/// A line of `message` records (`role_message`).
pub fn role_message_line(
    v: &Value,
    line: u64,
    opts: SaidOptions,
) -> Vec<(String, Option<Millis>, Vec<Piece>)> {
    one_record(v, line, opts, role_message)
}

/// A piece where it stands, for tests: agent, record, time, role, tool,
/// text.
#[cfg(test)]
pub type Row = (
    String,
    String,
    Option<Millis>,
    String,
    Option<String>,
    String,
);

/// Each piece of `said` where it stands, for tests.
#[cfg(test)]
pub fn rows(said: Vec<Said>) -> Vec<Row> {
    said.into_iter()
        .flat_map(|s| {
            s.pieces.into_iter().map(move |x| {
                let (agent, record) = (s.agent_id.clone(), s.record.clone());
                (agent, record, s.at, x.role.to_string(), x.tool, x.text)
            })
        })
        .collect()
}

/// A `Row` from borrowed parts, for tests.
#[cfg(test)]
pub fn row(
    (agent, record, at): (&str, &str, Option<Millis>),
    role: &str,
    tool: Option<&str>,
    text: &str,
) -> Row {
    let own = str::to_string;
    (
        own(agent),
        own(record),
        at,
        own(role),
        tool.map(own),
        own(text),
    )
}

mod claude;
pub use claude::{claude_blocks, claude_blocks_say_nothing, claude_content};

#[cfg(test)]
mod tests;
