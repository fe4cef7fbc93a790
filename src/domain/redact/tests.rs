use super::needles::TABLE_AFTER;
use super::*;

/// The automaton switches to a table of its own after `TABLE_AFTER`
/// searches; before and after, it finds what aho-corasick's own
/// overlapping search finds: in a short text, and in generated texts long
/// enough to be walked as two halves, needles across the middle, in any
/// case.
#[test]
fn needles_find_the_same_before_and_after_the_switch() {
    let words = [
        "api_key",
        "key",
        "token",
        "ghp_",
        "pass",
        "ey",
        "s.",
        "-----begin",
    ];
    let n = Needles::new(&words);
    let reference = aho_corasick::AhoCorasick::builder()
        .match_kind(aho_corasick::MatchKind::Standard)
        .ascii_case_insensitive(true)
        .build(words)
        .unwrap();
    let expected = |text: &[u8]| {
        let mut v: Vec<(usize, usize, usize)> = reference
            .find_overlapping_iter(text)
            .map(|m| (m.end(), m.pattern().as_usize(), m.len()))
            .collect();
        v.sort_unstable();
        v
    };
    let found = |text: &[u8]| {
        let mut v = Vec::new();
        n.each(text, |end, needle, len| v.push((end, needle, len)));
        v.sort_unstable();
        v
    };
    let text = b"my api_key=ghp_xx and a token, a passkey";
    let starts: Vec<(usize, usize)> = found(text).iter().map(|&(e, p, l)| (p, e - l)).collect();
    assert_eq!(
        starts,
        [
            (0, 3),
            (1, 7),
            (5, 8),
            (3, 11),
            (2, 24),
            (4, 33),
            (1, 37),
            (5, 38)
        ]
    );
    let parts = [
        "api_",
        "KEY",
        "key",
        "Tok",
        "en",
        "ghp_",
        "PASS",
        "e",
        "y",
        "s",
        ".",
        "-----BEGIN",
        " ",
        "x",
        "é",
        "\n",
    ];
    let mut next = crate::domain::test_draws(0x510e_527f_ade6_82d1_u64);
    let texts: Vec<Vec<u8>> = (0..2 * TABLE_AFTER)
        .map(|_| {
            (0..next(160))
                .flat_map(|_| parts[next(parts.len())].bytes())
                .collect()
        })
        .collect();
    let long = texts.iter().filter(|t| t.len() > 200).count();
    assert!(long > 100, "{long} texts walked as two halves");
    for t in texts.iter().chain(&texts) {
        assert_eq!(found(t), expected(t), "{:?}", String::from_utf8_lossy(t));
    }
    assert!(n.has_table());
}

use serde_json::{Value, json};

fn kind_of(s: &str) -> Option<&str> {
    let start = s.find("[redacted:")? + "[redacted:".len();
    let rest = &s[start..];
    Some(&rest[..rest.find(':')?])
}

/// Found by the `redact` fuzz target: a value a key rule had replaced
/// was replaced again, with its marker's own length class.
#[test]
fn redacting_twice_changes_nothing_more() {
    let v = json!({"api_key": "x".repeat(100), "nested": {"password": "hunter2"}});
    let once = redact(&v);
    assert_eq!(once["api_key"], "[redacted:by-key:~128]");
    assert_eq!(redact(&once), once);
    assert!(is_whole_marker("[redacted:high-entropy:~32]"));
    assert!(!is_whole_marker("[redacted:by-key:~32] and more"));
    assert!(!is_whole_marker("[redacted:by-key:~]"));
    // In text: a marker whose kind names a secret is not matched by the
    // assignment rule (`password:...`).
    let text = "https://user:pa55word@example.com/x and secret = abcdefgh12345678";
    let once = redact_text(text).into_owned();
    assert_eq!(
        once,
        "https://user:[redacted:url-password:~8]@example.com/x and secret = [redacted:generic-api-key:~16]"
    );
    assert_eq!(redact_text(&once), once);
}

/// Each rule finds its shape (and leaves the text around it).
#[test]
fn every_rule_finds_its_shape() {
    let pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdefXYZ\n-----END RSA PRIVATE KEY-----";
    let cases: &[(&str, &str)] = &[
        (pem, "private-key"),
        (
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA (cut)",
            "private-key",
        ),
        ("id AKIAIOSFODNN7EXAMPLE here", "aws-access-key"),
        ("temp ASIAY34FZKBOKMUTVV7A here", "aws-access-key"),
        (
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "aws-secret",
        ),
        ("ghp_0123456789abcdefABCDEFGHIJKLmnopqrst", "github"),
        ("github_pat_11ABCDEFG0123456789_abcdefghij", "github"),
        ("glpat-AbCdEfGhIjKlMnOpQrSt", "gitlab"),
        ("xoxb-1234-5678-abcdefgh", "slack"),
        ("sk_live_51HabcdefGHIJKLmnop", "stripe"),
        ("rk_test_abcdefghij0123", "stripe"),
        ("AIzaSyA-1234567890abcdefghijklmnopqrstu", "google-api-key"),
        ("npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "npm"),
        ("hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh", "huggingface"),
        (
            "key sk-ant-api03-AbCdEf0123456789_AbCdEf0123456789-xyz end",
            "api-key",
        ),
        (
            "OPENAI_KEY=sk-proj-AbC0123456789deFGhIjKlMnOpQrStUvWx",
            "api-key",
        ),
        ("token_sk-AbC0123456789deFGhIjKlMnOpQrStUvWxYz", "api-key"),
        (
            "jwt eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4f",
            "jwt",
        ),
        ("Authorization: Bearer abc.def-123", "bearer"),
        ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "basic-auth"),
        (
            "postgres://admin:hunter2@db.internal:5432/app",
            "url-password",
        ),
        ("PASSWORD=hunter2", "password"),
        ("export DB_PASS='s3cr3t value'", "password"),
        ("pwd: hunter2", "password"),
        ("api_key: abcdef", "password"),
    ];
    for (text, kind) in cases {
        let out = redact_text(text);
        assert_eq!(kind_of(&out), Some(*kind), "{text:?} -> {out:?}");
    }
    assert_eq!(
        redact_text("postgres://admin:hunter2@db.internal:5432/app"),
        "postgres://admin:[redacted:url-password:~8]@db.internal:5432/app"
    );
    assert_eq!(
        redact_text("PASSWORD=hunter2"),
        "PASSWORD=[redacted:password:~8]"
    );
    assert_eq!(redact_text(pem), "[redacted:private-key:~128]");
}

/// The rules run over bytes, ASCII only: text around a secret may be
/// any script, a password may hold non-ASCII letters, and what is kept
/// is cut at character boundaries.
#[test]
fn secrets_beside_non_ascii_text() {
    assert_eq!(
        redact_text("postgres://admin:pässwörd@db/app"),
        "postgres://admin:[redacted:url-password:~16]@db/app"
    );
    assert_eq!(
        redact_text("ключ: PASSWORD=hunter2 — готово"),
        "ключ: PASSWORD=[redacted:password:~8] — готово"
    );
    assert_eq!(
        redact_text("日本 sk-ant-api03-AbCdEf0123456789_AbCd5 日本"),
        "日本 [redacted:api-key:~64] 日本"
    );
    assert_eq!(
        redact_text("éAKIAIOSFODNN7EXAMPLEé"),
        "é[redacted:aws-access-key:~32]é"
    );
}

/// The key-name rules are compiled only when a needle is followed by an
/// assignment; every spacing `\s` allows still finds the value.
#[test]
fn key_rules_need_an_assignment() {
    for text in [
        "the key was lost; an API for tokens",
        "password reset link sent",
    ] {
        assert_eq!(redact_text(text), text);
    }
    for (text, want) in [
        ("API_KEY = hunter2", "API_KEY = [redacted:password:~8]"),
        ("secret\t:\thunter2", "secret\t:\t[redacted:password:~8]"),
        (
            "DB_PASSWORD\x0b=hunter2",
            "DB_PASSWORD\x0b=[redacted:password:~8]",
        ),
        (
            "client.secret.v2: Zx8fQ2mV9tLw3RkP0aJd",
            "client.secret.v2: [redacted:generic-api-key:~32]",
        ),
    ] {
        assert_eq!(redact_text(text), want, "{text:?}");
    }
}

/// What each rule must not take: ordinary text of the same look.
#[test]
fn ordinary_text_comes_through_unchanged() {
    let plain = [
        "/home/dev/.claude/projects/-tmp-sk-demo/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl",
        "-home-dev-work-sk-projects-billing-service-frontend-app",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b",
        "uuid 5c0375b4-57a5-4f26-b12d-d022ee4e51b7",
        "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg==",
        "integrity sha1-+PeMTY9qM6tTNpKiLmaNGC8zUxI=",
        "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk",
        "task-123 sk-short desk-lamp",
        "a bearer of news, the bearer tokens",
        "basic understanding of the author's auth flow",
        "max_tokens: 8192 and input_tokens=12",
        "see https://example.com/path?q=1 and git@github.com:org/repo.git",
        "the key is in the vault; password rotation: weekly? no: monthly",
        "AKIA is a prefix; ghp_ alone is not a token",
        "TOKEN=${GITHUB_TOKEN} PASSWORD=true",
    ];
    for text in plain {
        assert_eq!(redact_text(text), text, "{text}");
    }
}

/// Structural fields are never rewritten, whatever they hold (a slug
/// with `-sk-` broke the stored transcript path).
#[test]
fn structural_fields_keep_their_values() {
    let v = json!({
        "session_id": "sk-AbC0123456789deFGhIjKlMnOpQrStUvWx",
        "transcript_path": "/home/u/.claude/projects/-tmp-sk-AbC0123456789deFGhIjKlMnOpQrStUvWx/s.jsonl",
        "cwd": "/tmp/sk-AbC0123456789deFGhIjKlMnOpQrStUvWx",
        "hook_event_name": "SessionStart",
        "tool_use_id": "toolu_01ABCDEF",
        "nested": {"agent_id": "a2c007c0f0108bd6a", "agent_transcript_path": "/x/agent-a.jsonl"},
        "prompt": "use sk-AbC0123456789deFGhIjKlMnOpQrStUvWx please"
    });
    let r = redact(&v);
    for k in [
        "session_id",
        "transcript_path",
        "cwd",
        "hook_event_name",
        "tool_use_id",
    ] {
        assert_eq!(r[k], v[k], "{k}");
    }
    assert_eq!(r["nested"], v["nested"]);
    assert_eq!(r["prompt"], json!("use [redacted:api-key:~64] please"));
}

#[test]
fn keys_that_name_secrets_lose_their_values() {
    let v = json!({
        "api_key": "abc", "API-Key": 5, "password": {"x": 1}, "Authorization": "Basic x",
        "client_secret": null, "session_key": "k", "Set-Cookie": ["a"], "private key": "p",
        "aws_access_key_id": "id", "refresh_token": "r", "x-auth-token": "t",
        "credentials": [1, 2], "passwd": "p", "bearer": "b", "DB_PASS": "p", "auth": "a",
        "pwd": "p", "basic_auth": "u:p",
        "tokenizer": "o200k"
    });
    let r = redact(&v);
    for (k, _) in v.as_object().unwrap() {
        assert_eq!(kind_of(r[k].as_str().unwrap()), Some("by-key"), "{k}");
    }
    let kept = json!({"prompt": "fine", "author": "Ada", "passenger": 2, "key_count": 3});
    assert_eq!(redact(&kept), kept);
}

/// A value under a key-like name goes when it looks random, not otherwise.
#[test]
fn high_entropy_values_under_key_names() {
    let v = json!({
        "signing_key": "q7Zr9XwT2bLm4KpV8sYd", "salt": "3f9a1c7e5b2d8f40",
        "sort_key": "created_at", "primary_key": "id"
    });
    let r = redact(&v);
    assert_eq!(r["signing_key"], json!("[redacted:high-entropy:~32]"));
    assert_eq!(r["salt"], json!("[redacted:high-entropy:~16]"));
    assert_eq!(r["sort_key"], json!("created_at"));
    assert_eq!(r["primary_key"], json!("id"));
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
    assert_eq!(
        kind_of(r["access_tokens"].as_str().unwrap()),
        Some("by-key")
    );
}

/// A hook reporting `cat .env`: every value goes, every name stays.
#[test]
fn a_dot_env_file_keeps_only_its_names() {
    let env = "DATABASE_URL=postgres://app:Xk29fj3LmQ@db:5432/app\nDB_PASS=Xk29fj3LmQ\n\
                   STRIPE_KEY=sk_live_51HabcdefGHIJKLmnop\nSESSION_SECRET='a b c d'\n\
                   CLIENT_ID_SECRET=9f8e7d6c5b4a39281706\nDEBUG=true\nPORT=8080\n";
    let out = redact_text(env);
    for secret in [
        "Xk29fj3LmQ",
        "sk_live_51HabcdefGHIJKLmnop",
        "a b c d",
        "9f8e7d6c5b4a39281706",
    ] {
        assert!(!out.contains(secret), "{secret} in {out}");
    }
    for kept in [
        "DATABASE_URL=postgres://app:",
        "DB_PASS=",
        "STRIPE_KEY=",
        "SESSION_SECRET=",
        "DEBUG=true",
        "PORT=8080",
    ] {
        assert!(out.contains(kept), "{kept} not in {out}");
    }
}

/// gitleaks' generic rule: a key-ish name and a random value; a plain
/// word or number under the same name stays.
#[test]
fn generic_keys_need_a_random_value() {
    assert_eq!(
        redact_text("client_key: 7hG2kQ9zL4pW8xN3"),
        "client_key: [redacted:generic-api-key:~16]"
    );
    for plain in [
        "sort_key: created_at",
        "access: granted",
        "api: v2",
        "key: 12345678901",
    ] {
        assert_eq!(redact_text(plain), plain);
    }
}

/// Redacting twice changes nothing more: markers are not secrets.
#[test]
fn redaction_is_idempotent() {
    let text = "PASSWORD=hunter2 and sk-ant-api03-AbCdEf0123456789_AbCdEf0123456789-xyz";
    let once = redact_text(text).into_owned();
    assert_eq!(redact_text(&once), once);
}

/// One automaton holds sessionkit's needles and the catalogue's keywords
/// (some words are both) and reads a text in any ASCII case: the pass
/// over a text wakes exactly the catalogue's rules its own automaton wakes
/// in the text lowercased, on every pinned example.
#[test]
fn one_pass_wakes_what_the_catalogue_alone_wakes() {
    let mut texts: Vec<&str> = gitleaks::examples::TRUE_EXAMPLES
        .iter()
        .map(|e| e.1)
        .collect();
    texts.push("export GITHUB_TOKEN=ghp_abc and PassWord: hunter2 SK- Key=x");
    texts.push("plain prose about a key, a token and a secret");
    let mut woke = 0;
    for text in texts {
        let lower = text.to_ascii_lowercase();
        let (_, mut one) = may_match(text.as_bytes());
        one.sort_unstable();
        assert_eq!(one, gitleaks::woken_alone(&lower), "{text:?}");
        woke += usize::from(!one.is_empty());
    }
    assert!(woke > 100, "{woke} examples woke a rule");
}

/// A tool call's input is kept as its strings: read without making the
/// redacted copy, they are the copy's strings, in its order, for inputs
/// with secret keys, counts, structural fields, markers, random values
/// under key-like names and keys that are secrets themselves.
#[test]
fn an_inputs_strings_are_its_redacted_copys_strings() {
    fn copys(v: &Value) -> Vec<String> {
        fn walk(v: &Value, out: &mut Vec<String>) {
            match v {
                Value::String(s) if !s.trim().is_empty() => out.push(s.clone()),
                Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
                Value::Object(map) => map.values().for_each(|i| walk(i, out)),
                _ => {}
            }
        }
        let mut out = Vec::new();
        walk(&redact(v), &mut out);
        out
    }
    let keys = [
        "command",
        "file_path",
        "password",
        "api_key",
        "cwd",
        "input_tokens",
        "signing_key",
        "ghp_0123456789abcdefghijABCDEFGHIJ012345",
        "ghp_abcdefghij0123456789ABCDEFGHIJabcdef",
        "zzz",
        "description",
        "token_count",
    ];
    let strings = [
        "cargo test",
        " ",
        "",
        "AKIAIOSFODNN7EXAMPLE",
        "[redacted:by-key:~16]",
        "12",
        "kJ8sP2qX9vL4mN7rT1wZ5yB3",
        "see ghp_0123456789abcdefghijABCDEFGHIJ012345 here",
        "plain words",
    ];
    let mut next = crate::domain::test_draws(0x853c_49e6_748f_ea9b_u64);
    fn value(
        next: &mut dyn FnMut(usize) -> usize,
        depth: u32,
        keys: &[&str],
        strings: &[&str],
    ) -> Value {
        match if depth > 2 { next(3) } else { next(6) } {
            0 => json!(strings[next(strings.len())]),
            1 => json!(next(100)),
            2 => Value::Null,
            3 => Value::Array(
                (0..next(4))
                    .map(|_| value(next, depth + 1, keys, strings))
                    .collect(),
            ),
            _ => Value::Object(
                (0..next(5))
                    .map(|_| {
                        (
                            keys[next(keys.len())].to_string(),
                            value(next, depth + 1, keys, strings),
                        )
                    })
                    .collect(),
            ),
        }
    }
    let (mut secret_keys, mut redacted) = (0, 0);
    for _ in 0..3000 {
        let v = value(&mut next, 0, &keys, &strings);
        let mut mine = Vec::new();
        redacted_strings(&v, &mut mine);
        let want = copys(&v);
        assert_eq!(mine, want, "{v}");
        secret_keys += usize::from(v.to_string().contains("\"ghp_"));
        redacted += usize::from(want.iter().any(|s| s.contains("[redacted:")));
    }
    assert!(
        secret_keys > 100 && redacted > 500,
        "{secret_keys} {redacted}"
    );
}
