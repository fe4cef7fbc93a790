//! Untrusted text made safe to show or store: control characters and bidi
//! overrides escaped (transcripts, payloads and memories are written by
//! others), failure reasons without absolute paths.

/// Escapes control and bidirectional-override characters, so transcript text
/// cannot move the cursor or reorder a terminal line.
pub fn sanitize(s: &str) -> String {
    sanitize_keeping(s, &[])
}

/// `sanitize`, leaving the characters in `keep` as they are.
pub fn sanitize_keeping(s: &str, keep: &[char]) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let bidi = matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}');
        if (c.is_control() || bidi) && !keep.contains(&c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// A failure reason safe to store and print: absolute paths become `<path>`,
/// whitespace collapses, at most 300 characters.
pub fn sanitize_reason(reason: &str) -> String {
    let mut out = String::new();
    for word in reason.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        let looks_like_path = word.starts_with('/') && word[1..].contains('/');
        out.push_str(if looks_like_path { "<path>" } else { word });
    }
    if out.chars().count() > 300 {
        out = out.chars().take(299).collect::<String>() + "…";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitize_escapes_controls_and_bidi() {
        assert_eq!(sanitize("a\x1b[31mb"), "a\\u{1b}[31mb");
        assert_eq!(sanitize("x\u{202E}y"), "x\\u{202e}y");
        assert_eq!(sanitize("plain ü"), "plain ü");
    }

    #[test]
    fn reasons_lose_paths_and_length() {
        assert_eq!(
            sanitize_reason("cannot read /home/u/.claude/projects/x.jsonl:  denied"),
            "cannot read <path> denied"
        );
        assert_eq!(sanitize_reason(&"x".repeat(400)).chars().count(), 300);
    }
}
