//! sessionkit's own rules by shape: each secret's pattern, the needles
//! that must be in a text before its pattern runs, and the checks a match
//! must pass (a key-like value, entropy, an assignment's name).

use regex_automata::meta::Regex;
use std::sync::LazyLock;

/// One rule: what it finds, and which capture group is the secret (the
/// rest of the match, such as `PASSWORD=`, stays).
pub(super) struct Rule {
    pub(super) kind: &'static str,
    pub(super) pattern: &'static str,
    pub(super) group: usize,
    /// A further test of the secret itself (entropy, mixed characters).
    pub(super) accept: fn(&str) -> bool,
    /// Lowercase literals one of which any match contains: a rule runs (and
    /// is compiled, once) only for text holding one, so a hook with
    /// ordinary text compiles no regex at all.
    pub(super) needles: &'static [&'static [u8]],
    /// The rule matches `NAME = value` only: a needle must be followed by
    /// more name characters, spaces and `=` or `:` before the rule is worth
    /// compiling ("the key was", "an API for" are not).
    pub(super) assigned: bool,
    pub(super) re: std::sync::OnceLock<Regex>,
}

impl Rule {
    /// The rule's regex, compiled once, ASCII only: secrets are ASCII, and
    /// Unicode classes (`\b`, `\s`, case folding) made compiling the rules a
    /// hook meets cost milliseconds of its budget. It runs over bytes, so a
    /// negated class may take a non-ASCII password; every boundary a rule
    /// can match at sits beside an ASCII character, a char boundary.
    /// Prefilters are off: a rule runs only on text holding a needle.
    pub(super) fn regex(&self) -> &Regex {
        self.re.get_or_init(|| {
            Regex::builder()
                .syntax(
                    regex_automata::util::syntax::Config::new()
                        .unicode(false)
                        .utf8(false),
                )
                .configure(Regex::config().auto_prefilter(false))
                .build(self.pattern)
                .expect("a redaction rule compiles")
        })
    }
}

pub(super) fn any(_: &str) -> bool {
    true
}

/// Digits and letters of both cases: a key (32 random base62 characters
/// lack a digit once in 250, an uppercase letter almost never), not a word
/// or a path slug (`-home-dev-sk-projects-app`).
pub(super) fn keylike(s: &str) -> bool {
    let (mut lower, mut upper, mut digit) = (false, false, false);
    for b in s.bytes() {
        lower |= b.is_ascii_lowercase();
        upper |= b.is_ascii_uppercase();
        digit |= b.is_ascii_digit();
    }
    lower && upper && digit
}

/// Shannon entropy in bits per character.
pub fn entropy(s: &str) -> f64 {
    let mut counts = [0u32; 256];
    for b in s.bytes() {
        counts[b as usize] += 1;
    }
    let n = s.len() as f64;
    if n == 0.0 {
        return 0.0;
    }
    counts
        .iter()
        .filter(|c| **c > 0)
        .map(|c| {
            let p = f64::from(*c) / n;
            -p * p.log2()
        })
        .sum()
}

/// Not a lowercase word (`a bearer of tokens`): a credential.
pub(super) fn not_a_word(s: &str) -> bool {
    !s.bytes().all(|b| b.is_ascii_lowercase())
}

/// Random-looking: 3.5 bits a character or more, not a lowercase word.
pub(super) fn random_value(s: &str) -> bool {
    entropy(s) >= 3.5 && not_a_word(s) && !s.bytes().all(|b| b.is_ascii_digit())
}

/// Not a count and not a plain word: a value an assignment may hide.
pub(super) fn assigned_secret(s: &str) -> bool {
    let v = s.trim_matches(|c| c == '"' || c == '\'');
    !v.is_empty()
        && !v.starts_with("${")
        && !matches!(
            v.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "none" | "yes" | "no" | "redacted"
        )
        && !v.starts_with("[redacted")
}

/// A flag's value that is a credential: not a reference to one (`$VAR`,
/// `${VAR}`, `"$VAR"`), not the next flag, not `-` (standard input), not
/// a placeholder (`<token>`).
pub(super) fn flag_value(s: &str) -> bool {
    let v = s.trim_matches(|c| c == '"' || c == '\'');
    let reference = v.starts_with('$') || v.starts_with('-') || v.starts_with("[redacted");
    let placeholder = v.starts_with('<') && v.ends_with('>');
    let word = matches!(v.to_ascii_lowercase().as_str(), "stdin" | "prompt");
    !(v.is_empty() || reference || placeholder || word)
}

macro_rules! rule {
    ($kind:literal, $group:literal, $accept:expr, [$($needle:literal),+], $re:literal) => {
        rule!(@ $kind, $group, $accept, false, [$($needle),+], $re)
    };
    ($kind:literal, $group:literal, $accept:expr, assigned [$($needle:literal),+], $re:literal) => {
        rule!(@ $kind, $group, $accept, true, [$($needle),+], $re)
    };
    (@ $kind:literal, $group:literal, $accept:expr, $assigned:literal, [$($needle:literal),+], $re:literal) => {
        Rule {
            kind: $kind,
            pattern: $re,
            group: $group,
            accept: $accept,
            needles: &[$($needle),+],
            assigned: $assigned,
            re: std::sync::OnceLock::new(),
        }
    };
}

pub(super) static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let rules = vec![
        // gitleaks private-key
        rule!(
            "private-key",
            0,
            any,
            [b"-----begin"],
            r"(?s)-----BEGIN[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END[ A-Z0-9_-]*PRIVATE KEY(?: BLOCK)?-----|\z)"
        ),
        // gitleaks aws-access-token (AKIA long-term, ASIA temporary, ...)
        rule!(
            "aws-access-key",
            1,
            any,
            [b"a3t", b"akia", b"asia", b"abia", b"acca"],
            r"\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b"
        ),
        // An AWS secret access key where it is named (40 base64 characters).
        rule!(
            "aws-secret",
            1,
            any,
            [b"aws"],
            r#"(?i)aws[A-Za-z0-9_.-]*?(?:secret|private)[A-Za-z0-9_.-]*['"]?\s*[:=]\s*['"]?([A-Za-z0-9/+]{40})\b"#
        ),
        // gitleaks github-pat, -oauth, -app-token, -refresh-token, -fine-grained-pat
        rule!(
            "github",
            1,
            any,
            [b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_", b"github_pat_"],
            r"\b((?:ghp|gho|ghu|ghs|ghr)_[0-9A-Za-z]{20,}|github_pat_[0-9A-Za-z_]{22,})"
        ),
        // gitleaks gitlab-pat and its siblings
        rule!(
            "gitlab",
            1,
            any,
            [
                b"glpat-",
                b"gldt-",
                b"glptt-",
                b"glrt-",
                b"glsoat-",
                b"glcbt-",
                b"glimt-",
                b"glft-",
                b"glagent-"
            ],
            r"\b((?:glpat|gldt|glptt|glrt|glsoat|glcbt|glimt|glft|glagent)-[0-9A-Za-z_-]{20,})"
        ),
        // gitleaks slack-bot-token, -user-token, -app-token, -config-access-token
        rule!(
            "slack",
            1,
            any,
            [b"xox", b"xapp-"],
            r"\b(xox[abeoprs]-[0-9A-Za-z-]{10,}|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)"
        ),
        // gitleaks stripe-access-token
        rule!(
            "stripe",
            1,
            any,
            [b"_test_", b"_live_", b"_prod_"],
            r"\b((?:sk|rk|pk)_(?:test|live|prod)_[0-9A-Za-z]{10,})"
        ),
        // gitleaks gcp-api-key
        rule!(
            "google-api-key",
            1,
            any,
            [b"aiza"],
            r"\b(AIza[0-9A-Za-z_-]{35})"
        ),
        // gitleaks npm-access-token
        rule!("npm", 1, any, [b"npm_"], r"\b(npm_[0-9A-Za-z]{36})"),
        // gitleaks huggingface-access-token (and organisation tokens)
        rule!(
            "huggingface",
            1,
            any,
            [b"hf_", b"api_org_"],
            r"\b((?:hf|api_org)_[A-Za-z]{34})"
        ),
        // gitleaks anthropic-api-key, openai-api-key; any sk- key after `_`,
        // a letter or a boundary, when it looks like a key.
        rule!(
            "api-key",
            1,
            any,
            [b"sk-ant-"],
            r"(sk-ant-(?:api|admin|oat)\d\d-[A-Za-z0-9_-]{8,})"
        ),
        rule!(
            "api-key",
            1,
            keylike,
            [b"sk-"],
            r"(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,})"
        ),
        // gitleaks jwt
        rule!(
            "jwt",
            1,
            any,
            [b"eyj"],
            r"\b(ey[A-Za-z0-9_-]{4,}\.ey[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,})"
        ),
        // Authorization: Bearer ... / Basic ... (gitleaks generic-api-key's shapes)
        rule!(
            "bearer",
            1,
            not_a_word,
            [b"bearer"],
            r"(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{6,})"
        ),
        rule!(
            "basic-auth",
            1,
            any,
            [b"basic"],
            r#"(?i)authorization['"]?\s*[:=]\s*['"]?basic\s+([A-Za-z0-9+/]{4,}={0,2})"#
        ),
        // gitleaks generic-api-key: a name that says key, token, secret or
        // auth, then a random-looking value (3.5 bits a character or more).
        rule!(
            "generic-api-key",
            2,
            random_value,
            assigned [
                b"key",
                b"api",
                b"token",
                b"secret",
                b"client",
                b"passwd",
                b"password",
                b"auth",
                b"access"
            ],
            r#"(?i)\b([A-Z0-9_.-]*(?:KEY|API|TOKEN|SECRET|CLIENT|PASSWD|PASSWORD|AUTH|ACCESS)[A-Z0-9_.-]*)\s*[=:]\s*['"]?([A-Za-z0-9_.=+/-]{10,})"#
        ),
        // A password in a URL: scheme://user:password@host, the user
        // possibly empty (`redis://:password@host`).
        rule!(
            "url-password",
            1,
            any,
            [b"://"],
            r"\b[A-Za-z][A-Za-z0-9+.-]+://[^\s:/@]*:([^\s@/]+)@"
        ),
        // A Telegram bot's token in its API URL (`api.telegram.org/bot<id>:<key>`).
        rule!(
            "telegram-bot-token",
            1,
            any,
            [b"/bot"],
            r"(?i)api\.telegram\.org/(?:file/)?bot([0-9]{5,16}:[A-Za-z0-9_-]{30,})"
        ),
        // A credential given as a command's argument, whatever its shape:
        // after a long flag that names one (`--password X`, `--token=X`,
        // `--api-key 'X'`, `--client-secret X`), after `-p` of the clients
        // whose `-p` is a password (mysql and its tools, mongo's, sshpass,
        // `docker login`, 7z; `-pX` too), `-P` of zip, unzip and sqlcmd,
        // redis-cli's `-a`, ldap tools' `-w`, PuTTY's `-pw`, openssl's
        // `pass:`, and netrc's `password`.
        rule!(
            "argument-credential",
            1,
            flag_value,
            [
                b"--",
                b"mysql",
                b"mariadb",
                b"mongo",
                b"sshpass",
                b"redis-cli",
                b"machine",
                b"default",
                b"login",
                b"pass:",
                b"zip",
                b"7z",
                b"sqlcmd",
                b"ldap",
                b"plink",
                b"pscp"
            ],
            r#"(?:--(?i:(?:[a-z0-9]+-)*(?:password|passwd|passphrase|pass|token|api-?key|secret|credentials?))(?:=|[ \t]+)|\b(?i:mysql[a-z]*|mariadb[a-z-]*|mongo[a-z]*|sshpass)\b[^\n;|&]*?[ \t]-p[ \t]*|\bredis-cli\b[^\n;|&]*?[ \t]-a[ \t]+|\b(?:docker|podman|nerdctl)[ \t]+login\b[^\n;|&]*?[ \t]-p[ \t]*|\b(?:zip|unzip|sqlcmd)\b[^\n;|&]*?[ \t]-P[ \t]*|\b7za?\b[^\n;|&]*?[ \t]-p|\bldap[a-z]*\b[^\n;|&]*?[ \t]-w[ \t]+|\b(?:plink|pscp|psftp)\b[^\n;|&]*?[ \t]-pw[ \t]+|[ \t]-pass(?:in|out)?[ \t]+pass:|\b(?:machine[ \t]+\S+|default)[ \t]+(?:login[ \t]+\S+[ \t]+)?(?:account[ \t]+\S+[ \t]+)?password[ \t]+)('[^'\n]+'|"[^"\n]+"|[^\s'"]+)"#
        ),
        // NAME=value / NAME: value with a secret name (.env files, shells,
        // YAML): the value goes, the name stays. A count (`*_TOKENS`) and a
        // value that is a reference (`${X}`) are left.
        rule!(
            "password",
            2,
            assigned_secret,
            assigned [
                b"pass",
                b"pwd",
                b"secret",
                b"token",
                b"api",
                b"key",
                b"credential",
                b"auth"
            ],
            r#"(?i)\b([A-Z0-9_.-]*(?:PASSWORD|PASSWD|PASSPHRASE|_PASS|PWD|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)|PASS)['"]?\s*[=:]\s*("[^"\n]+"|'[^'\n]+'|[^\s"',;&]+)"#
        ),
    ];
    // `may_match` keeps one bit per rule.
    assert!(rules.len() <= 64, "at most 64 rules");
    rules
});
