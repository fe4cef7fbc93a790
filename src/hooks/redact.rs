//! Secrets out before anything is stored or hashed (issue 5; the rules follow
//! reference/study-agenthropic-ingest.md section h, with token *counts* kept).
//!
//! - By key: a key that, lowercased with `-`, `_` and spaces removed, contains
//!   one of [`SECRET_KEY_WORDS`] has its value replaced by `"[REDACTED]"`,
//!   whatever its type. A key ending in `tokens` or `token_count` is a count,
//!   not a secret: its number (or nested object) is kept; a string under it is
//!   still redacted unless it is all digits.
//! - By value: every string (keys' values and array items, at any depth) has
//!   API keys, GitHub and Slack tokens, AWS access key ids, JWTs and
//!   `Bearer ...` credentials replaced by `[REDACTED]`.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::{Map, Value};

pub const REDACTED: &str = "[REDACTED]";

/// Substrings of a normalised key that mark its value as a secret.
pub const SECRET_KEY_WORDS: &[&str] = &[
    "token",
    "secret",
    "password",
    "passwd",
    "credential",
    "apikey",
    "authorization",
    "bearer",
    "privatekey",
    "accesskey",
    "sessionkey",
    "cookie",
];

/// Secret shapes in text. Each alternative starts at a word boundary.
static SECRET_VALUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\bsk-[A-Za-z0-9_-]{8,}", // OpenAI / Anthropic API keys
        r"|\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{16,}", // GitHub tokens
        r"|\bgithub_pat_[A-Za-z0-9_]{20,}", // GitHub fine-grained tokens
        r"|\bxox[a-z]-[A-Za-z0-9-]{8,}", // Slack tokens
        r"|\bAKIA[0-9A-Z]{16}\b",  // AWS access key ids
        r"|\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+", // JWTs
        r"|(?i:\bbearer\s+[A-Za-z0-9._~+/=-]{6,})", // Authorization: Bearer ...
    ))
    .expect("the secret pattern compiles")
});

/// Cheap pre-check so that most strings never reach the regex.
fn may_hold_secret(s: &str) -> bool {
    let b = s.as_bytes();
    memchr::memmem::find(b, b"sk-").is_some()
        || memchr::memmem::find(b, b"_").is_some()
            && (s.contains("gh") || s.contains("github_pat_"))
        || memchr::memmem::find(b, b"xox").is_some()
        || memchr::memmem::find(b, b"AKIA").is_some()
        || memchr::memmem::find(b, b"eyJ").is_some()
        || b.windows(6).any(|w| w.eq_ignore_ascii_case(b"bearer"))
}

/// The string with every secret shape replaced.
pub fn redact_text(s: &str) -> Cow<'_, str> {
    if !may_hold_secret(s) {
        return Cow::Borrowed(s);
    }
    SECRET_VALUE.replace_all(s, REDACTED)
}

fn normalise_key(key: &str) -> String {
    key.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .flat_map(char::to_lowercase)
        .collect()
}

/// `input_tokens`, `ephemeral_5m_input_tokens`, `max_tokens`, `token_count`...
fn is_count_key(norm: &str) -> bool {
    norm.ends_with("tokens") || norm.ends_with("tokencount")
}

fn is_secret_key(norm: &str) -> bool {
    SECRET_KEY_WORDS.iter().any(|w| norm.contains(w))
}

/// A redacted copy of `v`.
pub fn redact(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(redact_text(s).into_owned()),
        Value::Array(items) => Value::Array(items.iter().map(redact).collect()),
        Value::Object(map) => {
            let mut out = Map::with_capacity(map.len());
            for (k, v) in map {
                let key = redact_text(k).into_owned();
                let norm = normalise_key(k);
                // A count (`*_tokens`) keeps its number; text under it is redacted.
                let counts = is_count_key(&norm) && !holds_text(v);
                let secret = is_secret_key(&norm) && !counts;
                let value = if secret {
                    Value::String(REDACTED.to_string())
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

/// A string that is not a plain count.
fn holds_text(v: &Value) -> bool {
    match v {
        Value::String(s) => s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_that_name_secrets_lose_their_values() {
        let v = json!({
            "api_key": "abc", "API-Key": 5, "password": {"x": 1}, "Authorization": "Basic x",
            "client_secret": null, "session_key": "k", "Set-Cookie": ["a"], "private key": "p",
            "aws_access_key_id": "id", "refresh_token": "r", "x-auth-token": "t",
            "credentials": [1, 2], "passwd": "p", "bearer": "b",
            "prompt": "fine", "tokenizer": "o200k"
        });
        let r = redact(&v);
        for k in [
            "api_key",
            "API-Key",
            "password",
            "Authorization",
            "client_secret",
            "session_key",
            "Set-Cookie",
            "private key",
            "aws_access_key_id",
            "refresh_token",
            "x-auth-token",
            "credentials",
            "passwd",
            "bearer",
            "tokenizer",
        ] {
            assert_eq!(r[k], json!(REDACTED), "{k}");
        }
        assert_eq!(r["prompt"], json!("fine"));
    }

    #[test]
    fn token_counts_are_not_secrets() {
        let v = json!({"usage": {
            "input_tokens": 10, "output_tokens": 2, "cache_read_input_tokens": 3,
            "cache_creation": {"ephemeral_5m_input_tokens": 4, "ephemeral_1h_input_tokens": 5},
            "total_tokens": "77", "token_count": 9, "max_tokens": 8192, "tokens": {"in": 1}
        }, "access_tokens": "ghx-not-a-count"});
        let r = redact(&v);
        assert_eq!(r["usage"], v["usage"]);
        assert_eq!(r["access_tokens"], json!(REDACTED));
    }

    #[test]
    fn secret_shapes_in_text_are_replaced() {
        let cases = [
            ("key sk-ant-api03-abcdefgh1234 end", "key [REDACTED] end"),
            (
                "ghp_0123456789abcdefABCD and gho_0123456789abcdefABCD",
                "[REDACTED] and [REDACTED]",
            ),
            ("github_pat_11ABCDEFG0123456789_abcdefghij", "[REDACTED]"),
            ("slack xoxb-1234-5678-abcdefgh", "slack [REDACTED]"),
            ("AKIAIOSFODNN7EXAMPLE is aws", "[REDACTED] is aws"),
            (
                "jwt eyJhbGciOi.eyJzdWIiOiIx.SflKxwRJSM x",
                "jwt [REDACTED] x",
            ),
            (
                "Authorization: Bearer abc.def-123",
                "Authorization: [REDACTED]",
            ),
            ("authorization: bearer abcdef", "authorization: [REDACTED]"),
            ("task-123 sk-short desk-lamp", "task-123 sk-short desk-lamp"),
            ("a bearer of news", "a bearer of news"),
        ];
        for (input, want) in cases {
            assert_eq!(redact_text(input), want, "{input}");
            assert_eq!(redact(&json!([input])), json!([want]));
        }
    }
}
