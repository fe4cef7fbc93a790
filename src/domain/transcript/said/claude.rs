//! A Claude Code record's `message.content`, read for what it says: from
//! its raw JSON by serde, or from the blocks the line's scanner found.

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::{Piece, Role, SaidOptions, push_call_raw, push_output, push_text};

/// A Claude Code content block, read without copying what is skipped.
#[derive(Deserialize)]
struct ClaudeBlock<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    input: Option<&'a RawValue>,
    #[serde(borrow)]
    content: Option<&'a RawValue>,
}

/// The pieces of a Claude Code record's `message.content` (raw JSON): a
/// user record's prompt or tool results, an assistant record's text and
/// tool calls. Reads only what it keeps: a tool result's output is not
/// parsed unless outputs are kept.
pub fn claude_content(raw: &str, assistant: bool, opts: SaidOptions) -> Vec<Piece> {
    let role = role_of(assistant);
    let mut out = Vec::new();
    let t = raw.trim_start();
    if t.starts_with('"') {
        if let Ok(s) = serde_json::from_str::<Cow<'_, str>>(raw) {
            push_text(&mut out, role, None, false, s);
        }
        return out;
    }
    let Ok(items) = serde_json::from_str::<Vec<ClaudeBlock<'_>>>(raw) else {
        return out;
    };
    for b in items {
        let (input, content) = (b.input.map(RawValue::get), b.content.map(RawValue::get));
        claude_block(b, input, content, role, opts, &mut out);
    }
    out
}

fn role_of(assistant: bool) -> Role {
    if assistant {
        Role::Assistant
    } else {
        Role::User
    }
}

/// The pieces of one content block (its input and content as raw JSON).
fn claude_block(
    b: ClaudeBlock<'_>,
    input: Option<&str>,
    content: Option<&str>,
    role: Role,
    opts: SaidOptions,
    out: &mut Vec<Piece>,
) {
    let value = |raw: Option<&str>| {
        raw.and_then(|r| serde_json::from_str::<Value>(r).ok())
            .unwrap_or(Value::Null)
    };
    match b.kind.as_deref() {
        Some("text") => {
            if let Some(t) = b.text {
                push_text(out, role, None, false, t);
            }
        }
        Some("tool_use" | "server_tool_use") => {
            push_call_raw(out, b.name.as_deref().unwrap_or("tool"), input);
        }
        Some("tool_result") if opts.outputs => {
            push_output(out, opts, None, &value(content));
        }
        _ => {}
    }
}

/// `claude_content` over the blocks the line's scanner found (each field
/// as raw JSON, in valid UTF-8): the same pieces, read without parsing
/// the content again; `None` where a block is not as serde would read it
/// (a field given twice, or not a string or null where one is wanted), for
/// `claude_content` to judge. A tool's output, unread when outputs are
/// not kept, is not checked for UTF-8 either (most of a transcript's
/// bytes): the caller checks the whole content when there are pieces.
pub fn claude_blocks(
    blocks: &[crate::domain::transcript::scan::ContentBlock<'_>],
    assistant: bool,
    opts: SaidOptions,
) -> Option<Vec<Piece>> {
    let read = read_blocks(blocks, opts)?;
    let role = role_of(assistant);
    let mut out = Vec::new();
    for (b, input, content) in read {
        claude_block(b, input, content, role, opts, &mut out);
    }
    Some(out)
}

/// Whether `claude_blocks` would find no piece in `blocks` with tool
/// outputs left out, known without making any: every block is as serde
/// reads it, and none is text or a tool call (a tool's output, a model's
/// reasoning, an image).
pub fn claude_blocks_say_nothing(
    blocks: &[crate::domain::transcript::scan::ContentBlock<'_>],
) -> bool {
    read_blocks(blocks, SaidOptions { outputs: false }).is_some_and(|read| {
        read.iter().all(|(b, _, _)| {
            !matches!(
                b.kind.as_deref(),
                Some("text" | "tool_use" | "server_tool_use")
            )
        })
    })
}

/// A block read by `claude_blocks`, with its input and (when outputs are
/// kept) content as raw JSON.
type ReadBlock<'a> = (ClaudeBlock<'a>, Option<&'a str>, Option<&'a str>);

/// Each of `blocks` as `claude_block` reads it; `None` where one is not as
/// serde would read it.
fn read_blocks<'a>(
    blocks: &[crate::domain::transcript::scan::ContentBlock<'a>],
    opts: SaidOptions,
) -> Option<Vec<ReadBlock<'a>>> {
    fn text(raw: Option<&[u8]>) -> Option<Option<Cow<'_, str>>> {
        match raw {
            None => Some(None),
            // A string the scanner found whole (no control bytes) and with
            // no escapes is its bytes between the quotes, when UTF-8.
            Some([b'"', inner @ .., b'"']) if !inner.contains(&b'\\') => std::str::from_utf8(inner)
                .ok()
                .map(|s| Some(Cow::Borrowed(s))),
            Some(r) if !r.contains(&b'\\') => serde_json::from_slice::<Option<&str>>(r)
                .ok()
                .map(|s| s.map(Cow::Borrowed)),
            Some(r) => match std::str::from_utf8(r).ok().and_then(unescape) {
                Some(s) => Some(Some(Cow::Owned(s))),
                None => serde_json::from_slice::<Option<String>>(r)
                    .ok()
                    .map(|s| s.map(Cow::Owned)),
            },
        }
    }
    fn raw(r: Option<&[u8]>) -> Option<Option<&str>> {
        r.map_or(Some(None), |r| std::str::from_utf8(r).ok().map(Some))
    }
    let mut read = Vec::with_capacity(blocks.len());
    for b in blocks {
        if b.repeated {
            return None;
        }
        let block = ClaudeBlock {
            kind: text(b.kind)?,
            text: text(b.text)?,
            name: text(b.name)?,
            input: None,
            content: None,
        };
        let content = if opts.outputs { raw(b.content)? } else { None };
        read.push((block, raw(b.input)?, content));
    }
    Some(read)
}

/// The value of `raw`, a JSON string (its quotes included) with escapes,
/// as serde_json reads it, in one copy (serde_json copies through a
/// scratch buffer, then again into the `String`: a tenth of reading a
/// transcript's words). `None` where this reading would not be serde's:
/// a `\u` escape, a control character, anything but one string; serde
/// then reads it, or refuses it, itself.
fn unescape(raw: &str) -> Option<String> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    let b = inner.as_bytes();
    let mut out = String::with_capacity(inner.len());
    let mut last = 0;
    loop {
        let at = memchr::memchr(b'\\', &b[last..]).map_or(b.len(), |n| last + n);
        // Across the run, not stopping early: it vectorises.
        let bad = b[last..at]
            .iter()
            .fold(false, |bad, &c| bad | (c < 0x20) | (c == b'"'));
        if bad {
            return None;
        }
        out.push_str(&inner[last..at]);
        if at == b.len() {
            return Some(out);
        }
        out.push(match b.get(at + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            _ => return None,
        });
        last = at + 2;
    }
}

#[cfg(test)]
mod tests {
    use super::{claude_blocks_say_nothing, unescape};
    use crate::domain::transcript::scan::ContentBlock;

    /// Outputs, reasoning and images say nothing; text or a tool call
    /// (even an empty one) may, and so may a block serde would refuse.
    #[test]
    fn blocks_that_say_nothing_are_known_without_reading_them() {
        let block = |kind: &'static [u8]| ContentBlock {
            kind: Some(kind),
            ..ContentBlock::default()
        };
        let output = ContentBlock {
            content: Some(br#""out""#),
            ..block(br#""tool_result""#)
        };
        let nothing = [
            vec![output],
            vec![block(br#""thinking""#), output, block(br#""image""#)],
            vec![block(b"null"), ContentBlock::default()],
            vec![],
        ];
        for blocks in nothing {
            assert!(claude_blocks_say_nothing(&blocks), "{blocks:?}");
        }
        let text = ContentBlock {
            text: Some(b"\"\""),
            ..block(br#""text""#)
        };
        let maybe = [
            vec![output, text],
            vec![block(br#""tool_use""#)],
            vec![block(br#""server_tool_use""#), output],
            vec![ContentBlock {
                repeated: true,
                ..output
            }],
            vec![block(b"7")],
            vec![ContentBlock {
                name: Some(b"[1]"),
                ..block(br#""thinking""#)
            }],
        ];
        for blocks in maybe {
            assert!(!claude_blocks_say_nothing(&blocks), "{blocks:?}");
        }
    }

    /// Wherever it reads a string, it reads what serde_json reads: on
    /// generated strings of every escape, control characters, quotes,
    /// `\u` escapes (surrogates too) and text of any script.
    #[test]
    fn a_string_is_unescaped_as_serde_reads_it() {
        let parts = [
            "a",
            "Zz ",
            "é",
            "日本",
            "🦀",
            "\\n",
            "\\t",
            "\\\"",
            "\\\\",
            "\\/",
            "\\b",
            "\\f",
            "\\r",
            "\\u00e9",
            "\\ud83e\\udd80",
            "\\ud800",
            "\\x",
            "\\",
            "\"",
            "\n",
            "\u{1}",
            "\u{7f}",
            "fn main() {}",
        ];
        let mut next = crate::domain::test_draws(0x6a09_e667_f3bc_c908_u64);
        let (mut read, mut left) = (0, 0);
        for _ in 0..20_000 {
            let mut raw = String::from("\"");
            for _ in 0..next(10) {
                raw.push_str(parts[next(parts.len())]);
            }
            raw.push('"');
            let serde = serde_json::from_str::<String>(&raw).ok();
            match unescape(&raw) {
                Some(s) => {
                    assert_eq!(Some(&s), serde.as_ref(), "{raw:?}");
                    read += 1;
                }
                None => left += 1,
            }
        }
        assert!(
            read > 2_000 && left > 2_000,
            "{read} read, {left} left to serde"
        );
        assert_eq!(
            unescape(r#""line\none\t\"q\" \\ \/""#).as_deref(),
            Some("line\none\t\"q\" \\ /")
        );
        assert_eq!(unescape(r#""\u00e9""#), None);
        assert_eq!(unescape("\"a\" "), None);
        assert_eq!(unescape("null"), None);
    }
}
