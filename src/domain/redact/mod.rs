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
mod tests {
    use super::*;

    /// The automaton switches to a DFA after `DFA_AFTER` searches; both
    /// find the same overlapping matches.
    #[test]
    fn needles_find_the_same_before_and_after_the_switch() {
        let n = Needles::new(&["api_key", "key", "token", "ghp_", "pass"]);
        let text = b"my api_key=ghp_xx and a token, a passkey";
        let found = |a: &aho_corasick::AhoCorasick| -> Vec<(usize, usize)> {
            a.find_overlapping_iter(&text[..])
                .map(|m| (m.pattern().as_usize(), m.start()))
                .collect()
        };
        let first = found(n.get());
        assert_eq!(first, [(0, 3), (1, 7), (3, 11), (2, 24), (4, 33), (1, 37)]);
        for _ in 0..DFA_AFTER {
            n.get();
        }
        assert!(n.dfa.get().is_some());
        assert_eq!(found(n.get()), first);
    }
    use serde_json::json;

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
}

#[cfg(test)]
mod shapes {
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
}
