//! How a run's last words become clauses: quotations and pasted code
//! left out, lines cut into sentences and clauses, headings that file the
//! lines under them as done or open.

use super::MAX_CLAUSE;
use super::lexicon::{DONE_HEADINGS, OPEN_HEADINGS, VETO_MARKS, reversal};

/// A clause of the run's words: its text, its lowercased words, and
/// whether a heading above it said its lines are done (`Some(true)`) or
/// still open (`Some(false)`).
pub(super) struct Clause<'a> {
    pub(super) text: &'a str,
    pub(super) words: Vec<String>,
    pub(super) question: bool,
    pub(super) heading: Option<bool>,
    /// The line it is on (a bare "done" after it speaks of it).
    pub(super) line: usize,
    /// Its sentence, counted through the text.
    pub(super) sentence: usize,
    /// Its sentence says the work was undone.
    pub(super) reversed: bool,
}

/// Text without what the run quoted or pasted: fenced code blocks, quoted
/// lines (`> `), and quotations of three words or more.
pub(super) fn unquoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fenced = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced || t.starts_with('>') {
            out.push('\n');
            continue;
        }
        out.push_str(&without_quotations(line));
        out.push('\n');
    }
    out
}

/// A line with its quotations (in "…", “…” or '…', three words or more)
/// blanked.
pub(super) fn without_quotations(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let close = match c {
            '"' => Some('"'),
            '\u{201C}' => Some('\u{201D}'),
            '\'' if i == 0 || !chars[i - 1].is_alphanumeric() => Some('\''),
            _ => None,
        };
        if let Some(close) = close {
            let end = (i + 1..chars.len()).find(|&j| {
                chars[j] == close
                    && (close != '\'' || chars.get(j + 1).is_none_or(|n| !n.is_alphanumeric()))
            });
            if let Some(end) = end {
                let inner: String = chars[i + 1..end].iter().collect();
                if inner.split_whitespace().count() >= 3 {
                    out.push(' ');
                    i = end + 1;
                    continue;
                }
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The words of a clause, lowercased, curly apostrophes straightened.
pub(super) fn clause_words(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}' || c == '-'))
        .map(|w| {
            w.trim_matches(|c| c == '\'' || c == '\u{2019}' || c == '-')
                .replace('\u{2019}', "'")
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Where a text's sentences end: `.`, `!` or `?` before a space or the
/// end (not inside `v1.2` or `routes.ts`), `;`, and line ends.
pub(super) fn sentences(line: &str) -> Vec<(&str, bool)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        let end = match c {
            b';' => true,
            b'.' | b'!' | b'?' => b.get(i + 1).is_none_or(u8::is_ascii_whitespace),
            _ => false,
        };
        if end {
            out.push((&line[start..i], c == b'?'));
            start = i + 1;
        }
    }
    out.push((&line[start..], false));
    out
}

/// Words that join two statements in one sentence.
pub(super) const JOINS: &[&str] = &[
    " but ",
    " however",
    " although ",
    " though ",
    " whereas ",
    " yet ",
];

/// The clauses of a text, in order.
pub(super) fn clauses(text: &str) -> Vec<Clause<'_>> {
    let mut out = Vec::new();
    let mut heading: Option<bool> = None;
    let mut count = 0;
    for (n, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(h) = heading_of(t) {
            heading = h;
            continue;
        }
        for (sentence, question) in sentences(line) {
            count += 1;
            let reversed = clause_words(sentence).iter().any(|w| reversal(w));
            let mut rest = sentence;
            loop {
                let lower = rest.to_ascii_lowercase();
                let cut = JOINS.iter().filter_map(|j| lower.find(j)).min();
                let (part, next) = match cut {
                    Some(at) if rest.is_char_boundary(at) => (&rest[..at], Some(&rest[at + 1..])),
                    _ => (rest, None),
                };
                let part = part.trim();
                if !part.is_empty() && part.len() <= MAX_CLAUSE {
                    out.push(Clause {
                        text: part,
                        words: clause_words(part),
                        question,
                        heading,
                        line: n,
                        sentence: count,
                        reversed,
                    });
                }
                match next {
                    Some(n) => rest = n,
                    None => break,
                }
            }
        }
    }
    out
}

/// A heading line (`## Done`, `**Remaining:**`, `Next steps:`): whether its
/// lines are done (`Some(Some(true))`), open (`Some(Some(false))`) or
/// neither (`Some(None)`); `None` for a line that is no heading.
pub(super) fn heading_of(line: &str) -> Option<Option<bool>> {
    // A list item is an item, whatever it ends with (`- \`tax.rs\`:`).
    let item = line.starts_with("- ")
        || line.starts_with("* ")
        || line
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    if item && !line.starts_with("**") {
        return None;
    }
    let marked = line.starts_with('#')
        || (line.ends_with(':') && line.split_whitespace().count() <= 4)
        || (line.starts_with("**") && line.ends_with("**"));
    if !marked {
        return None;
    }
    // A heading's mark says it first: failed or warned, else done.
    if VETO_MARKS.iter().any(|m| line.contains(m)) {
        return Some(Some(false));
    }
    if ["✅", "✓", "✔"].iter().any(|m| line.contains(m)) {
        return Some(Some(true));
    }
    let words = clause_words(line);
    if words.iter().any(|w| OPEN_HEADINGS.contains(&w.as_str())) {
        return Some(Some(false));
    }
    if words.iter().any(|w| DONE_HEADINGS.contains(&w.as_str())) {
        return Some(Some(true));
    }
    Some(None)
}
