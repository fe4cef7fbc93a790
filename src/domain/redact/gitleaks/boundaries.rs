//! Every catalogue example's secret (`examples.rs`, generated from
//! gitleaks' own true examples) is redacted whatever punctuation stands
//! around it, and so is each of sessionkit's own shapes.

use super::examples;

/// Characters a secret may stand after (`(key`, `"key`, `key:` …) and
/// before (`key.`, `key)`, `key,`, `key。` …): thirty each.
pub(in crate::domain::redact) const LEADING: [&str; 30] = [
    " ", "\t", "\n", "(", "[", "{", "<", "\"", "'", "`", ":", "=", ",", ";", ">", "/", "|", "!",
    "?", "&", "*", "#", "。", "「", "（", "«", "，", "、", "→ ", "~",
];
pub(in crate::domain::redact) const TRAILING: [&str; 30] = [
    " ", "\t", "\n", ".", ",", ")", "]", "}", ":", "/", "?", "!", ">", "&", "。", "\"", "'", "`",
    ";", "|", "*", "、", "，", "）", "」", "»", "…", "”", "’", " →",
];

/// Every catalogue example's secret is redacted whatever stands around
/// it: each of thirty characters before it, after it, and both.
#[test]
fn secrets_are_redacted_whatever_punctuation_stands_around_them() {
    use super::super::redact_text;
    let mut stored = Vec::new();
    let mut tried = 0;
    for (rule, example) in examples::TRUE_EXAMPLES {
        let bare = redact_text(example);
        // The secret: what redaction took out of the bare example.
        let prefix = example
            .bytes()
            .zip(bare.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let suffix = example
            .bytes()
            .rev()
            .zip(bare.bytes().rev())
            .take_while(|(a, b)| a == b)
            .count()
            .min(example.len() - prefix);
        let secret = &example[prefix..example.len() - suffix];
        assert!(secret.len() >= 8, "{rule}: {example:?} -> {bare:?}");
        let mut contexts: Vec<(&str, &str)> = Vec::new();
        contexts.extend(LEADING.iter().map(|l| (*l, "")));
        contexts.extend(TRAILING.iter().map(|t| ("", *t)));
        contexts.extend(LEADING.iter().zip(TRAILING.iter()).map(|(l, t)| (*l, *t)));
        for (lead, trail) in contexts {
            tried += 1;
            let text = format!("{lead}{example}{trail}");
            if redact_text(&text).contains(secret) {
                stored.push(format!("{rule}: {text:?}"));
            }
        }
    }
    eprintln!("{tried} texts, {} examples", examples::TRUE_EXAMPLES.len());
    assert!(examples::TRUE_EXAMPLES.len() > 100);
    assert_eq!(stored, Vec::<String>::new());
}
