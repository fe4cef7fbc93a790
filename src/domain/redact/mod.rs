//! Secrets out before anything from outside is stored or hashed. One rule set for hook payloads, and the text of run
//! excerpts, memories and the transcript text sessionkit keeps.
//!
//! - By shape, in any string: sessionkit's own rules (private key blocks of
//!   every type, AWS, GitHub, GitLab, Slack, Stripe, Google API, npm and
//!   Hugging Face tokens, JWTs, OpenAI and Anthropic keys, `Bearer` and
//!   `Basic` credentials, passwords in URLs, and `NAME=value` or
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

#[rustfmt::skip]
mod catalogue;
pub mod gitleaks;

use std::borrow::Cow;
use std::sync::LazyLock;

use regex_automata::meta::Regex;
use serde_json::{Map, Value};

/// One rule: what it finds, and which capture group is the secret (the
/// rest of the match, such as `PASSWORD=`, stays).
struct Rule {
    kind: &'static str,
    pattern: &'static str,
    group: usize,
    /// A further test of the secret itself (entropy, mixed characters).
    accept: fn(&str) -> bool,
    /// Lowercase literals one of which any match contains: a rule runs (and
    /// is compiled, once) only for text holding one, so a hook with
    /// ordinary text compiles no regex at all.
    needles: &'static [&'static [u8]],
    /// The rule matches `NAME = value` only: a needle must be followed by
    /// more name characters, spaces and `=` or `:` before the rule is worth
    /// compiling ("the key was", "an API for" are not).
    assigned: bool,
    re: std::sync::OnceLock<Regex>,
}

impl Rule {
    /// The rule's regex, compiled once, ASCII only: secrets are ASCII, and
    /// Unicode classes (`\b`, `\s`, case folding) made compiling the rules a
    /// hook meets cost milliseconds of its budget. It runs over bytes, so a
    /// negated class may take a non-ASCII password; every boundary a rule
    /// can match at sits beside an ASCII character, a char boundary.
    /// Prefilters are off: a rule runs only on text holding a needle.
    fn regex(&self) -> &Regex {
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

/// Needles to find in lowercased text, all of them, overlapping: an
/// automaton that fits how much this process searches. A contiguous NFA
/// builds in about 0.1 ms (a hook builds it for a few texts); once a
/// process has searched `DFA_AFTER` texts (a bulk import searches every
/// memory) it builds a DFA, about 0.5 ms, which searches 1.5 to 2 times as
/// fast. Both find the same matches.
pub(crate) struct Needles {
    words: Vec<Vec<u8>>,
    nfa: aho_corasick::AhoCorasick,
    dfa: std::sync::OnceLock<aho_corasick::AhoCorasick>,
    searched: std::sync::atomic::AtomicUsize,
}

const DFA_AFTER: usize = 200;

impl Needles {
    pub(crate) fn new<S: AsRef<[u8]>>(words: &[S]) -> Needles {
        let words: Vec<Vec<u8>> = words.iter().map(|w| w.as_ref().to_vec()).collect();
        Needles {
            nfa: Self::build(&words, aho_corasick::AhoCorasickKind::ContiguousNFA),
            words,
            dfa: std::sync::OnceLock::new(),
            searched: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    fn build(words: &[Vec<u8>], kind: aho_corasick::AhoCorasickKind) -> aho_corasick::AhoCorasick {
        aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::Standard)
            .kind(Some(kind))
            .build(words)
            .expect("the needles build an automaton")
    }

    /// The automaton for the next search.
    pub(crate) fn get(&self) -> &aho_corasick::AhoCorasick {
        if let Some(dfa) = self.dfa.get() {
            return dfa;
        }
        let n = self
            .searched
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if n < DFA_AFTER {
            return &self.nfa;
        }
        self.dfa
            .get_or_init(|| Self::build(&self.words, aho_corasick::AhoCorasickKind::DFA))
    }
}

/// Every rule's needles in one automaton, each with its rule's index: one
/// pass over a text tells which rules may match it (a search per needle per
/// text was most of the redaction's time in a bulk import).
static NEEDLES: LazyLock<(Needles, Vec<usize>)> = LazyLock::new(|| {
    let (mut needles, mut owners) = (Vec::new(), Vec::new());
    for (i, rule) in RULES.iter().enumerate() {
        for n in rule.needles {
            needles.push(*n);
            owners.push(i);
        }
    }
    (Needles::new(&needles), owners)
});

/// Which rules may match `lower` (the text, lowercased): a needle of the
/// rule is there (followed by an assignment, for a rule that needs one).
fn may_match(lower: &[u8]) -> Vec<bool> {
    let (automaton, owners) = &*NEEDLES;
    let mut may = vec![false; RULES.len()];
    for m in automaton.get().find_overlapping_iter(lower) {
        let i = owners[m.pattern().as_usize()];
        if !RULES[i].assigned || assignment_follows(&lower[m.end()..]) {
            may[i] = true;
        }
    }
    may
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

fn any(_: &str) -> bool {
    true
}

/// Digits and letters of both cases: a key (32 random base62 characters
/// lack a digit once in 250, an uppercase letter almost never), not a word
/// or a path slug (`-home-dev-sk-projects-app`).
fn keylike(s: &str) -> bool {
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
fn not_a_word(s: &str) -> bool {
    !s.bytes().all(|b| b.is_ascii_lowercase())
}

/// Random-looking: 3.5 bits a character or more, not a lowercase word.
fn random_value(s: &str) -> bool {
    entropy(s) >= 3.5 && not_a_word(s) && !s.bytes().all(|b| b.is_ascii_digit())
}

/// Not a count and not a plain word: a value an assignment may hide.
fn assigned_secret(s: &str) -> bool {
    let v = s.trim_matches(|c| c == '"' || c == '\'');
    !v.is_empty()
        && !v.starts_with("${")
        && !matches!(
            v.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "none" | "yes" | "no" | "redacted"
        )
        && !v.starts_with("[redacted")
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

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    vec![
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
        // A password in a URL: scheme://user:password@host
        rule!(
            "url-password",
            1,
            any,
            [b"://"],
            r"\b[A-Za-z][A-Za-z0-9+.-]+://[^\s:/@]+:([^\s@/]+)@"
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
    ]
});

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
    let lower = s.to_ascii_lowercase();
    let mut out: Cow<'_, str> = Cow::Borrowed(s);
    let may = may_match(lower.as_bytes());
    for (rule, _) in RULES.iter().zip(may).filter(|(_, may)| *may) {
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
    // The lowercased text the rules above read serves the catalogue too,
    // unless they changed the text.
    let lower = match &out {
        Cow::Borrowed(_) => lower,
        Cow::Owned(t) => t.to_ascii_lowercase(),
    };
    catalogue_pass(out, &lower)
}

/// gitleaks' catalogue over what the rules above left: each secret it
/// finds (outside a marker; of overlapping ones, the first and longest)
/// becomes a marker named by the gitleaks rule.
fn catalogue_pass<'a>(out: Cow<'a, str>, lower: &str) -> Cow<'a, str> {
    let mut found = gitleaks::find_lowered(&out, lower);
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

fn normalise_key(key: &str) -> String {
    key.chars()
        .filter(|c| !matches!(c, '-' | '_' | ' ' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Fields that name things, never secrets: kept verbatim, so a stored path
/// still points at its file and ids still join.
const STRUCTURAL: &[&str] = &[
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
fn is_count_key(norm: &str) -> bool {
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

fn is_secret_key(norm: &str) -> bool {
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
fn is_keylike_key(norm: &str) -> bool {
    norm.ends_with("key") || norm.contains("signature") || norm.contains("salt")
}

/// A high-entropy string: at least 16 characters, no spaces, 3.5 bits or more.
fn high_entropy(s: &str) -> bool {
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
                if STRUCTURAL.contains(&norm.as_str()) {
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

fn value_len(v: &Value) -> usize {
    match v {
        Value::String(s) => s.len(),
        other => other.to_string().len(),
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
mod shapes;
#[cfg(test)]
mod tests;
