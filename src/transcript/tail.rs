//! The last things an agent said: the text of the assistant records at the
//! end of a transcript, for the closer's judge. Pure: bytes in (the file's
//! last part), texts out, oldest first.

use serde_json::Value;

/// The text blocks of the assistant records in `bytes` (a transcript's
/// last part: its first line may be cut and is skipped unless `whole`),
/// at most `keep`, the newest, oldest first.
pub fn assistant_tail(bytes: &[u8], whole: bool, keep: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (n, line) in bytes.split(|b| *b == b'\n').enumerate() {
        if n == 0 && !whole {
            continue;
        }
        let Ok(v) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        if v["type"] != "assistant" || v["isSidechain"] == true {
            continue;
        }
        let content = &v["message"]["content"];
        let texts: Vec<&str> = match content {
            Value::String(s) => vec![s.as_str()],
            Value::Array(blocks) => blocks
                .iter()
                .filter(|b| b["type"] == "text")
                .filter_map(|b| b["text"].as_str())
                .collect(),
            _ => Vec::new(),
        };
        out.extend(
            texts
                .into_iter()
                .filter(|t| !t.trim().is_empty())
                .map(str::to_string),
        );
    }
    let over = out.len().saturating_sub(keep);
    out.drain(..over);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_assistant_texts_oldest_first() {
        let lines = [
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"cut"}]}}"#,
            r#"{"type":"user","message":{"content":"do it"}}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash"},{"type":"text","text":"first"}]}}"#,
            r#"{"type":"assistant","isSidechain":true,"message":{"content":[{"type":"text","text":"a subagent"}]}}"#,
            r#"{"type":"assistant","message":{"content":"second"}}"#,
            r#"not json"#,
            r#"{"type":"assistant","message":{"content":[{"type":"text","text":"third"}]}}"#,
        ]
        .join("\n");
        assert_eq!(
            assistant_tail(lines.as_bytes(), false, 5),
            ["first", "second", "third"]
        );
        assert_eq!(
            assistant_tail(lines.as_bytes(), true, 2),
            ["second", "third"]
        );
    }
}
