//! Secrets out before anything from outside is stored or hashed. One rule
//! set for hook payloads, and the text of run excerpts, memories and the
//! transcript text sessionkit keeps.
//!
//! - By shape, in any string: sessionkit's own rules (private key blocks of
//!   every type, AWS, GitHub, GitLab, Slack, Stripe, Google API, npm and
//!   Hugging Face tokens, JWTs, OpenAI and Anthropic keys, `Bearer` and
//!   `Basic` credentials, passwords in URLs, Telegram bot tokens in their
//!   URLs, a credential after a flag that takes one (`--password X`,
//!   mysql's `-pX`, redis-cli's `-a X`, netrc's `password X`), and `NAME=value` or
//!   `"name": value` assignments whose name says secret, as in a `.env`,
//!   JSON or YAML file), then gitleaks' whole default catalogue
//!   (`gitleaks`, over the table in `catalogue.rs`) on what they left.
//! - By key, in JSON: a key that says secret (`password`, `pwd`, `auth`,
//!   `api_key`, `*_token` that is not a count...) has its value replaced,
//!   whatever its type; a key that says key-like (`*key`, `signature`,
//!   `salt`) has a high-entropy string value replaced.
//! - Never: structural fields (`transcript_path`, `cwd`, session, agent and
//!   tool-use ids, hook event names) keep their values, so a project folder
//!   whose slug holds `-sk-` still points at its transcript; and token
//!   *counts* (`input_tokens`, `max_tokens`) keep their numbers.
//!
//! A redacted value becomes `[redacted:KIND:~N]`: the rule that matched and
//! the length class of what was removed (a power of two at least its
//! length), so a redacted payload can still be debugged.
//!
//! `rules` holds the rules by shape, `json` the redaction by key, and
//! `gitleaks` the catalogue's pass.

mod doc;
mod json;
mod rules;

pub use doc::{Doc, doc_strings};
pub use json::{redact, redacted_strings};
use rules::RULES;
pub use rules::entropy;

#[rustfmt::skip]
mod catalogue;
pub mod gitleaks;
mod needles;

use std::borrow::Cow;
use std::sync::LazyLock;

pub(crate) use needles::Needles;

/// What a needle found in a text stands for: one of sessionkit's rules,
/// or one of the catalogue's keywords.
#[derive(Clone, Copy)]
enum Owner {
    Rule(usize),
    Keyword(usize),
}

/// Every rule's needles and the catalogue's keywords in one automaton,
/// each word with what it stands for: one pass over a text tells which
/// rules may match it (a search per needle per text was most of the
/// redaction's time in a bulk import; two passes, one per rule set, a
/// sixth of the search index's build).
static NEEDLES: LazyLock<(Needles, Vec<Vec<Owner>>)> = LazyLock::new(|| {
    let (mut words, mut owners): (Vec<Vec<u8>>, Vec<Vec<Owner>>) = (Vec::new(), Vec::new());
    let mut add = |word: &[u8], owner: Owner| {
        if let Some(at) = words.iter().position(|w| w == word) {
            owners[at].push(owner);
        } else {
            words.push(word.to_vec());
            owners.push(vec![owner]);
        }
    };
    for (i, rule) in RULES.iter().enumerate() {
        for n in rule.needles {
            add(n, Owner::Rule(i));
        }
    }
    for (i, k) in gitleaks::keywords().iter().enumerate() {
        add(k, Owner::Keyword(i));
    }
    (Needles::new(&words), owners)
});

/// Which of sessionkit's rules may match `text` (bit `i` for `RULES[i]`):
/// a needle of the rule is there (followed by an assignment, for a rule
/// that needs one); and which of the catalogue's rules its keywords wake.
/// (What follows a needle is read without regard to ASCII case.)
fn may_match(text: &[u8]) -> (u64, Vec<usize>) {
    let (automaton, owners) = &*NEEDLES;
    let mut may = 0u64;
    let mut woken = Vec::new();
    automaton.each(text, |end, needle, len| {
        for owner in &owners[needle] {
            match *owner {
                Owner::Rule(i) => {
                    if !RULES[i].assigned || assignment_follows(&text[end..]) {
                        may |= 1 << i;
                    }
                }
                Owner::Keyword(k) => gitleaks::wake(k, len, &text[end..], &mut woken),
            }
        }
    });
    (may, woken)
}

/// Whether `rest` starts with name characters, spaces (`\s`, vertical tab
/// included) and `=` or `:`.
fn assignment_follows(rest: &[u8]) -> bool {
    let name = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        .count();
    // A quoted name (`"password": ...` in JSON or YAML) closes its quote.
    let quote = usize::from(matches!(rest.get(name), Some(b'"' | b'\'')));
    rest[name + quote..]
        .iter()
        .find(|b| !(b.is_ascii_whitespace() || **b == b'\x0b'))
        .is_some_and(|b| matches!(b, b'=' | b':'))
}

/// What gitleaks' generic template allows between a keyword and its
/// value's operator: up to 20 more name characters, spaces or tabs, then up
/// to 3 spaces or quotes, then `=`, `>`, `:`, `|`, `?` or `,`. Whether
/// `rest` (the text after a keyword) starts so.
pub(crate) fn assignment_near(rest: &[u8]) -> bool {
    let name = rest
        .iter()
        .take(20)
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b' ' | b'\t'))
        .count();
    let rest = &rest[name..];
    let quotes = rest
        .iter()
        .take(3)
        .take_while(|b| b.is_ascii_whitespace() || matches!(b, b'\'' | b'"'))
        .count();
    rest.get(quotes)
        .is_some_and(|b| matches!(b, b'=' | b'>' | b':' | b'|' | b'?' | b','))
}

/// The marker that replaces a secret: its kind and length class.
pub fn marker(kind: &str, len: usize) -> String {
    format!("[redacted:{kind}:~{}]", len.max(1).next_power_of_two())
}

/// Whether a string is (or starts as) a marker this module wrote.
fn is_marker(s: &str) -> bool {
    s.starts_with("[redacted:")
}

/// Whether `s` is exactly one marker (`[redacted:KIND:~N]`): what a key
/// rule already wrote, kept as it is when the value is redacted again.
fn is_whole_marker(s: &str) -> bool {
    s.strip_prefix("[redacted:")
        .and_then(|r| r.strip_suffix(']'))
        .and_then(|r| r.rsplit_once(":~"))
        .is_some_and(|(kind, n)| {
            !kind.is_empty()
                && kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
                && !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Where the markers in `s` are (byte ranges).
fn marker_spans(s: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    for at in memchr::memmem::find_iter(s.as_bytes(), b"[redacted:") {
        if let Some(len) = s[at..].find(']')
            && is_whole_marker(&s[at..=at + len])
        {
            spans.push((at, at + len + 1));
        }
    }
    spans
}

/// The string with every secret shape replaced.
pub fn redact_text(s: &str) -> Cow<'_, str> {
    if s.len() < 5 {
        return Cow::Borrowed(s);
    }
    let mut out: Cow<'_, str> = Cow::Borrowed(s);
    let (may, woken) = may_match(s.as_bytes());
    for (_, rule) in RULES.iter().enumerate().filter(|(i, _)| may >> i & 1 == 1) {
        let re = rule.regex();
        if !re.is_match(out.as_bytes()) {
            continue;
        }
        let mut text = String::with_capacity(out.len());
        let mut last = 0;
        let mut changed = false;
        let markers = marker_spans(&out);
        let inside = |at: usize, end: usize| markers.iter().any(|&(a, b)| at < b && end > a);
        for caps in re.captures_iter(out.as_bytes()) {
            let (Some(m), Some(whole)) = (caps.get_group(rule.group), caps.get_match()) else {
                continue;
            };
            let (Some(secret), true) = (out.get(m.range()), out.is_char_boundary(whole.start()))
            else {
                continue;
            };
            // Text a rule wrote is not read again: a marker's kind names
            // its secret (`url-password`), which a key rule would match.
            if is_marker(secret)
                || inside(m.start, m.end)
                || inside(whole.start(), whole.start() + 1)
                || !(rule.accept)(secret)
            {
                continue;
            }
            text.push_str(&out[last..m.start]);
            text.push_str(&marker(rule.kind, secret.len()));
            last = m.end;
            changed = true;
        }
        if changed {
            text.push_str(&out[last..]);
            out = Cow::Owned(text);
        }
    }
    // The catalogue's keywords found in the same pass serve, unless the
    // rules above changed the text.
    let found = match &out {
        Cow::Borrowed(_) => gitleaks::find_woken(&out, woken),
        Cow::Owned(t) => gitleaks::find_lowered(t, &t.to_ascii_lowercase()),
    };
    catalogue_pass(out, found)
}

/// gitleaks' catalogue over what the rules above left: each secret it
/// found there (`found`; outside a marker; of overlapping ones, the first
/// and longest) becomes a marker named by the gitleaks rule.
fn catalogue_pass(out: Cow<'_, str>, mut found: Vec<gitleaks::Found>) -> Cow<'_, str> {
    if found.is_empty() {
        return out;
    }
    found.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    let markers = marker_spans(&out);
    let inside = |at: usize, end: usize| markers.iter().any(|&(a, b)| at < b && end > a);
    let mut text = String::with_capacity(out.len());
    let mut last = 0;
    for f in found {
        if f.start < last
            || inside(f.start, f.end)
            || !out.is_char_boundary(f.start)
            || !out.is_char_boundary(f.end)
        {
            continue;
        }
        text.push_str(&out[last..f.start]);
        text.push_str(&marker(f.rule, f.end - f.start));
        last = f.end;
    }
    if last == 0 {
        return out;
    }
    text.push_str(&out[last..]);
    Cow::Owned(text)
}

#[cfg(test)]
mod shapes;
#[cfg(test)]
mod tests;
