//! Redaction by key, in JSON: a key that says secret has its value
//! replaced, a key-like key its high-entropy string; structural fields and
//! token counts are kept.
use super::rules::entropy;
use super::{is_whole_marker, marker, redact_text};
use serde_json::{Map, Value};
use std::borrow::Cow;

/// A key as the rules compare it: lower case, without `-`, `_`, spaces
/// and dots.
pub(super) fn normalise_key(key: &str) -> NormKey {
    let mut buf = [0; NormKey::INLINE];
    let mut n = 0;
    if key.is_ascii() {
        for &b in key.as_bytes() {
            if matches!(b, b'-' | b'_' | b' ' | b'.') {
                continue;
            }
            let Some(slot) = buf.get_mut(n) else {
                return NormKey::Heap(normalise_chars(key));
            };
            *slot = b.to_ascii_lowercase();
            n += 1;
        }
        return NormKey::Inline(buf, n as u8);
    }
    NormKey::Heap(normalise_chars(key))
}

fn normalise_chars(key: &str) -> String {
    key.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' ' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// A normalised key (`normalise_key`): a short ASCII one held inline
/// (every object key of every tool call is normalised; one allocation
/// each was a twentieth of reading a tool call's input).
pub(super) enum NormKey {
    Inline([u8; NormKey::INLINE], u8),
    Heap(String),
}

impl NormKey {
    const INLINE: usize = 32;
}

impl std::ops::Deref for NormKey {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            NormKey::Inline(b, n) => std::str::from_utf8(&b[..usize::from(*n)]).expect("ASCII"),
            NormKey::Heap(s) => s,
        }
    }
}

/// Fields that name things, never secrets: kept verbatim, so a stored path
/// still points at its file and ids still join.
pub(super) const STRUCTURAL: &[&str] = &[
    "transcriptpath",
    "agenttranscriptpath",
    "cwd",
    "sessionid",
    "agentid",
    "tooluseid",
    "hookeventname",
    "hookname",
    "promptid",
    "conversationid",
    "generationid",
    "turnid",
    "workspaceroots",
    "uuid",
    "parentuuid",
    "permissionmode",
    "source",
    "agenttype",
];

/// `input_tokens`, `ephemeral_5m_input_tokens`, `max_tokens`, `token_count`...
pub(super) fn is_count_key(norm: &str) -> bool {
    norm.ends_with("tokens") || norm.ends_with("tokencount")
}

/// Substrings of a normalised key that mark its value as a secret.
pub const SECRET_KEY_WORDS: &[&str] = &[
    "token",
    "secret",
    "password",
    "passwd",
    "passphrase",
    "credential",
    "apikey",
    "authorization",
    "bearer",
    "privatekey",
    "accesskey",
    "sessionkey",
    "cookie",
];

pub(super) fn is_secret_key(norm: &str) -> bool {
    SECRET_KEY_WORDS.iter().any(|w| norm.contains(w))
        || norm == "pwd"
        || norm == "pass"
        || norm.ends_with("pass")
        || norm == "auth"
        || (norm.starts_with("auth") && !norm.starts_with("author"))
        || norm.ends_with("auth")
}

/// A key whose value is a secret when it looks random (`signing_key`,
/// `signature`, `salt`).
pub(super) fn is_keylike_key(norm: &str) -> bool {
    norm.ends_with("key") || norm.contains("signature") || norm.contains("salt")
}

/// A high-entropy string: at least 16 characters, no spaces, 3.5 bits or more.
pub(super) fn high_entropy(s: &str) -> bool {
    s.len() >= 16 && !s.contains(char::is_whitespace) && entropy(s) >= 3.5
}

/// A redacted copy of `v`.
pub fn redact(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(redact_text(s).into_owned()),
        Value::Array(items) => Value::Array(items.iter().map(redact).collect()),
        Value::Object(map) => {
            let mut out = Map::with_capacity(map.len());
            for (k, v) in map {
                let norm = normalise_key(k);
                if STRUCTURAL.contains(&&*norm) {
                    out.insert(k.clone(), v.clone());
                    continue;
                }
                let key = redact_text(k).into_owned();
                // A count (`*_tokens`) keeps its number; text under it is redacted.
                let counts = is_count_key(&norm) && !holds_text(v);
                let marked = v.as_str().is_some_and(is_whole_marker);
                let value = if marked {
                    v.clone()
                } else if is_secret_key(&norm) && !counts {
                    Value::String(marker("by-key", value_len(v)))
                } else if is_keylike_key(&norm) && v.as_str().is_some_and(high_entropy) {
                    Value::String(marker("high-entropy", value_len(v)))
                } else {
                    redact(v)
                };
                out.insert(key, value);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// The strings `redact(v)` holds (not blank), in its order, without
/// making the copy: a tool call's input is kept as its strings only, and
/// the copy of every input was a tenth of the search index's reading.
pub fn redacted_strings<'a>(whole: &'a Value, out: &mut Vec<Cow<'a, str>>) {
    match whole {
        Value::String(s) => push_unblank(out, redact_text(s)),
        Value::Array(items) => items.iter().for_each(|i| redacted_strings(i, out)),
        Value::Object(map) => {
            let start = out.len();
            for (k, v) in map {
                let norm = normalise_key(k);
                if STRUCTURAL.contains(&&*norm) {
                    plain_strings(v, out);
                    continue;
                }
                if matches!(redact_text(k), Cow::Owned(_)) {
                    // A key that holds a secret: the copy orders its
                    // entries by the keys as redacted.
                    out.truncate(start);
                    let copy = redact(whole);
                    let mut strings = Vec::new();
                    plain_strings(&copy, &mut strings);
                    out.extend(strings.into_iter().map(|s| Cow::Owned(s.into_owned())));
                    return;
                }
                let counts = is_count_key(&norm) && !holds_text(v);
                if v.as_str().is_some_and(is_whole_marker) {
                    plain_strings(v, out);
                } else if is_secret_key(&norm) && !counts {
                    out.push(Cow::Owned(marker("by-key", value_len(v))));
                } else if is_keylike_key(&norm) && v.as_str().is_some_and(high_entropy) {
                    out.push(Cow::Owned(marker("high-entropy", value_len(v))));
                } else {
                    redacted_strings(v, out);
                }
            }
        }
        _ => {}
    }
}

pub(super) fn push_unblank<'a>(out: &mut Vec<Cow<'a, str>>, s: Cow<'a, str>) {
    if !s.trim().is_empty() {
        out.push(s);
    }
}

/// The strings of `v` (not blank), as they are.
fn plain_strings<'a>(v: &'a Value, out: &mut Vec<Cow<'a, str>>) {
    match v {
        Value::String(s) => push_unblank(out, Cow::Borrowed(s)),
        Value::Array(items) => items.iter().for_each(|i| plain_strings(i, out)),
        Value::Object(map) => map.values().for_each(|i| plain_strings(i, out)),
        _ => {}
    }
}

pub(super) fn value_len(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len(),
        other => other.to_string().len(),
    }
}

/// A string that is not a plain count.
pub(super) fn holds_text(v: &Value) -> bool {
    match v {
        Value::String(s) => s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::{normalise_chars, normalise_key};

    /// A key normalised inline reads as the character-by-character
    /// normalisation: short and long, ASCII or not, every separator.
    #[test]
    fn a_key_normalises_inline_as_by_characters() {
        let parts = [
            "a", "Z", "_", "-", " ", ".", "9", "é", "İ", "KEY", "api_Key",
        ];
        let mut next = crate::domain::test_draws(0xbb67_ae85_84ca_a73b_u64);
        let mut inline = 0;
        for _ in 0..5_000 {
            let key: String = (0..next(30)).map(|_| parts[next(parts.len())]).collect();
            let norm = normalise_key(&key);
            assert_eq!(&*norm, normalise_chars(&key), "{key:?}");
            inline += usize::from(matches!(norm, super::NormKey::Inline(..)));
        }
        assert!(inline > 500 && inline < 4_500, "{inline} inline");
        assert_eq!(&*normalise_key("X-Api_Key.v2"), "xapikeyv2");
    }
}
