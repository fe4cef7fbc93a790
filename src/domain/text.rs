//! Untrusted text made safe to show or store: control characters and bidi
//! overrides escaped (transcripts, payloads and memories are written by
//! others), failure reasons without absolute paths; and a number as people
//! read it.

/// `n` with its thousands apart (`-1,234,567`).
pub fn group_digits(n: i128) -> String {
    let s = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

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

/// One line of untrusted text for a document that is not a table
/// (Markdown, HTML): line breaks and tabs become spaces, so no field can
/// end a heading or a list item, and every other control, C1 and bidi
/// character is escaped as the tables escape it.
pub fn one_line(s: &str) -> String {
    let spaced: String = s
        .chars()
        .map(|c| {
            if matches!(c, '\n' | '\r' | '\t') {
                ' '
            } else {
                c
            }
        })
        .collect();
    sanitize(&spaced)
}

/// Untrusted text for a document's body: `sanitize`, keeping the line
/// breaks and tabs that are the text's own (a lone carriage return, which
/// rewrites a terminal line, is escaped).
pub fn block(s: &str) -> String {
    sanitize_keeping(&s.replace("\r\n", "\n"), &['\n', '\t'])
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

/// Where a URL's user information (`user:password@`) is: the byte range
/// of the part before `@` in the authority, when there is one. The
/// authority ends at the first `/`, `?` or `#` after `://`.
fn userinfo_range(url: &str) -> Option<(usize, usize)> {
    let start = url.find("://")? + 3;
    let rest = &url[start..];
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let at = rest[..end].rfind('@')?;
    Some((start, start + at))
}

/// A URL with its password masked (`user:***@host`, `:***@host`), for
/// every message that shows it; a URL without one is returned as it is.
pub fn mask_url(url: &str) -> String {
    let Some((start, at)) = userinfo_range(url) else {
        return url.to_string();
    };
    match url[start..at].find(':') {
        Some(colon) => format!("{}:***{}", &url[..start + colon], &url[at..]),
        None => url.to_string(),
    }
}

/// A URL without its user information at all: what is stored to name an
/// endpoint (a password never reaches the database).
pub fn url_without_userinfo(url: &str) -> String {
    match userinfo_range(url) {
        Some((start, at)) => format!("{}{}", &url[..start], &url[at + 1..]),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_lose_their_passwords() {
        assert_eq!(mask_url("http://u:pw@h:4318/x"), "http://u:***@h:4318/x");
        assert_eq!(mask_url("redis://:pw@h"), "redis://:***@h");
        assert_eq!(mask_url("http://u@h/a@b"), "http://u@h/a@b");
        assert_eq!(mask_url("http://h/p?x=a:b@c"), "http://h/p?x=a:b@c");
        assert_eq!(mask_url("http://u:p@ss@h/"), "http://u:***@h/");
        assert_eq!(url_without_userinfo("https://u:pw@h:1/v"), "https://h:1/v");
        assert_eq!(url_without_userinfo("https://h/v@x"), "https://h/v@x");
    }

    #[test]
    fn sanitize_escapes_controls_and_bidi() {
        assert_eq!(sanitize("a\x1b[31mb"), "a\\u{1b}[31mb");
        assert_eq!(sanitize("x\u{202E}y"), "x\\u{202e}y");
        assert_eq!(sanitize("plain ü"), "plain ü");
    }

    #[test]
    fn one_line_and_block_keep_structure_and_escape_the_rest() {
        assert_eq!(one_line("a\nb\tc\u{9b}d"), "a b c\\u{9b}d");
        assert_eq!(one_line("x\u{7f}\u{2067}"), "x\\u{7f}\\u{2067}");
        assert_eq!(
            block("a\r\nb\rc\n\x1b]52;c;x\x07"),
            "a\nb\\u{d}c\n\\u{1b}]52;c;x\\u{7}"
        );
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
