use super::*;

/// Shapes of the classes the hand-written rules missed (cloud key ids,
/// model hub, package registry, e-commerce, messaging and e-mail API
/// keys, passwords as JSON and YAML values), each in the text around
/// it: the secret goes, the text stays.
#[test]
fn secret_shapes_in_every_setting_are_redacted() {
    let cases: &[(&str, &str)] = &[
        (
            "export AWS_ACCESS_KEY_ID=AKIAZ7VRSQ3XK4MN2PLA",
            "AKIAZ7VRSQ3XK4MN2PLA",
        ),
        (
            "aws key ASIAY34FZKBOKMUTVV7A in the log",
            "ASIAY34FZKBOKMUTVV7A",
        ),
        (
            "HF token 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 used",
            "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",
        ),
        (
            "//registry.npmjs.org/:_authToken=npm_a8Kd93LmQ2xZ7pR4tV6yW1nB5cE0fH3jG9sU",
            "npm_a8Kd93LmQ2xZ7pR4tV6yW1nB5cE0fH3jG9sU",
        ),
        (
            "pypi token pypi-AgEIcHlwaS5vcmcCJGY4ZDM2MjQ1LTk3ZjQtNDU0Mi04ZTFkLTJkMzM4ZjY5MGNkZAACKlszLCJmOGQzNjI0NS05N2Y0LTQ1NDItOGUxZC0yZDMzOGY2OTBjZGQiXQAABiD6hJ9kRz3",
            "pypi-AgEIcHlwaS5vcmcCJGY4ZDM2MjQ1LTk3ZjQtNDU0Mi04ZTFkLTJkMzM4ZjY5MGNkZAACKlszLCJmOGQzNjI0NS05N2Y0LTQ1NDItOGUxZC0yZDMzOGY2OTBjZGQiXQAABiD6hJ9kRz3",
        ),
        (
            "shopify: 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",
            "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",
        ),
        (
            "stripe sk_live_51HqLyjWDarjtT1zdp7dcXYZ4wR8 here",
            "sk_live_51HqLyjWDarjtT1zdp7dcXYZ4wR8",
        ),
        (
            "SLACK=xoxb-2213748293-3928472938473-Abc9dEfGhIjKlMnOpQrStUvW",
            "xoxb-2213748293-3928472938473-Abc9dEfGhIjKlMnOpQrStUvW",
        ),
        (
            "sendgrid 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 here",
            "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",
        ),
        (
            "twilio SK3f9a2b7c4d1e8f06a5b9c3d2e7f4a1b8 key",
            "SK3f9a2b7c4d1e8f06a5b9c3d2e7f4a1b8",
        ),
        (
            r#"{"user": "ana", "password": "Tr0ub4dor&3"}"#,
            "Tr0ub4dor&3",
        ),
        ("db:\n  password: \"Tr0ub4dor&3\"\n", "Tr0ub4dor&3"),
        (
            r#"config = {'db_password': 'hunter2hunter2'}"#,
            "hunter2hunter2",
        ),
    ];
    for (text, secret) in cases {
        let out = redact_text(text);
        assert!(!out.contains(secret), "{text} -> {out}");
        assert!(out.contains("[redacted:"), "{text} -> {out}");
    }
}

/// Look-alikes stay as they are: paths, SHAs, UUIDs, words about keys.
#[test]
fn look_alikes_are_kept() {
    for text in [
        "/home/dev/.claude/projects/-home-dev-sk-live-app/4b497318-ae10-42a1-9483-4cfcf6c508ac.jsonl",
        "commit 9ab1bcd7f7e1b736118ad23a69e3ca77a5ccb2d2 fixed the token counts",
        "the password field is required; the API key is read from the environment",
        "session 01a24264-f167-7980-9aec-711f1df6997b ended",
        "input_tokens: 1200, output_tokens: 7, max_tokens = 4096",
        "they asked for the task list; tests. key points",
        "password: ${DB_PASSWORD}",
    ] {
        assert_eq!(redact_text(text), text);
    }
}
