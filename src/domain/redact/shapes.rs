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
    // Each bare shape, whatever punctuation stands around it.
    use super::gitleaks::boundaries::{LEADING, TRAILING};
    let mut stored = Vec::new();
    // (A password found by its name alone is not a shape.)
    for (_, secret) in cases.iter().filter(|(_, s)| !redact_text(s).contains(*s)) {
        for (lead, trail) in LEADING.iter().zip(TRAILING.iter()) {
            for text in [
                format!("{lead}{secret}"),
                format!("{secret}{trail}"),
                format!("{lead}{secret}{trail}"),
            ] {
                if redact_text(&text).contains(secret) {
                    stored.push(text);
                }
            }
        }
    }
    assert_eq!(stored, Vec::<String>::new());
}

/// A credential given as a command's argument goes whatever its shape,
/// after a flag known to take one; the same flags with a reference, a
/// port or another flag after them keep it.
#[test]
fn credentials_after_their_flags_are_redacted() {
    for (text, secret) in [
        ("mysql -u root -p hunter2 app", "hunter2"),
        ("mysql -uroot -phunter2 app", "hunter2"),
        ("mysqldump --user=root --password=hunter2 app", "hunter2"),
        ("psql --password 'correct horse'", "correct horse"),
        ("deploy --token abc", "abc"),
        ("gh auth login --with-token x --api-key q1w2", "q1w2"),
        ("cli --api-key=K3y", "K3y"),
        ("vault login --client-secret \"s p a c e\"", "s p a c e"),
        ("redis-cli -h cache -a hunter2 ping", "hunter2"),
        ("sshpass -p hunter2 ssh host", "hunter2"),
        (
            "machine api.example.com login ana password hunter2",
            "hunter2",
        ),
        ("redis://:hunter2@cache:6379/0", "hunter2"),
        (
            "curl https://api.telegram.org/bot123456789:AAHk3k2jd8Dkeid9dkeI3kdkeJd93kd_Abc/getMe",
            "AAHk3k2jd8Dkeid9dkeI3kdkeJd93kd_Abc",
        ),
    ] {
        let out = redact_text(text);
        assert!(!out.contains(secret), "{text} -> {out}");
    }
    for text in [
        "cargo test -p billing",
        "mkdir -p /tmp/x && ssh -p 2222 host",
        "mysql -P 3306 -h db",
        "deploy --token $DEPLOY_TOKEN",
        "deploy --token \"${TOKEN}\"",
        "docker login --password-stdin",
        "llm --max-tokens 4096 --token-file ~/.tok",
        "mongodump --port 27017",
        "docker run -p 8080:80 app",
        "unzip -o a.zip -d out",
        "7z x archive.7z",
        "the login password reset",
    ] {
        assert_eq!(redact_text(text), text);
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
