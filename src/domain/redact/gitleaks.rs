//! gitleaks' default rule catalogue as redaction rules: the table in
//! `catalogue.rs` (generated from the pinned `config/gitleaks.toml`; see the
//! test at the end), run the way gitleaks runs it. A rule's keywords are
//! found in one pass over the text (Aho-Corasick, in any ASCII case; the
//! pass redaction makes for its own rules too), and only the
//! rules whose keywords occur are compiled (once) and run, so ordinary text
//! costs one scan. A match counts when its secret (the rule's secret group,
//! else its first non-empty group, else the whole match) has more than the
//! rule's entropy, holds a digit for a `generic-*` rule, and no allowlist
//! (the catalogue's global one, the rule's own) says otherwise. Rules bound
//! to a file path (`path`) are left out: hook payloads and memories have
//! no path.

use std::borrow::Cow;
use std::sync::{LazyLock, OnceLock};

use regex_automata::meta::Regex;

use super::catalogue::{Allow, CatalogueRule, GLOBAL_REGEXES, GLOBAL_STOPWORDS, RULES, Target};

/// The operator part of gitleaks' generic `NAME ... = value` template.
const GENERIC_ASSIGNMENT: &str = r"(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)";

/// Token characters a short keyword must be followed by to wake its rules
/// (every rule with one requires many more).
const SHORT_KEYWORD_RUN: usize = 8;

/// Whether `rest` starts with `n` characters a token may hold.
fn token_run(rest: &[u8], n: usize) -> bool {
    rest.len() >= n
        && rest[..n].iter().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'+' | b'/' | b'=' | b'~')
        })
}

/// A compiled regex, or why it could not be.
type Compiled = Result<Regex, String>;

/// A Go (RE2) pattern as Rust's regex syntax reads it: RE2 takes a `{`
/// that opens no repetition (`{{ x }}`, `import {`) as a literal brace,
/// Rust's parser refuses it, so such braces are escaped.
pub fn from_go(pattern: &str) -> Cow<'_, str> {
    let b = pattern.as_bytes();
    let mut out: Option<String> = None;
    let (mut i, mut in_class) = (0, false);
    let mut open_reps: Vec<bool> = Vec::new();
    while i < b.len() {
        let c = b[i];
        let mut literal = false;
        match c {
            b'\\' => {
                if let Some(o) = out.as_mut() {
                    o.push_str(&pattern[i..(i + 2).min(b.len())]);
                }
                i += 2;
                continue;
            }
            b'[' if !in_class => in_class = true,
            b']' if in_class => in_class = false,
            b'{' if !in_class => {
                let rest = &pattern[i + 1..];
                let close = rest.find('}');
                let rep = close.is_some_and(|j| {
                    let inner = &rest[..j];
                    let (lo, hi) = inner.split_once(',').unwrap_or((inner, ""));
                    !lo.is_empty()
                        && lo.bytes().all(|d| d.is_ascii_digit())
                        && hi.bytes().all(|d| d.is_ascii_digit())
                });
                literal = !rep;
                open_reps.push(rep);
            }
            b'}' if !in_class => literal = !open_reps.pop().unwrap_or(false),
            _ => {}
        }
        if literal {
            let o = out.get_or_insert_with(|| pattern[..i].to_string());
            o.push('\\');
            o.push(c as char);
        } else if let Some(o) = out.as_mut() {
            let len = pattern[i..].chars().next().map_or(1, char::len_utf8);
            o.push_str(&pattern[i..i + len]);
            i += len;
            continue;
        }
        i += 1;
    }
    out.map_or(Cow::Borrowed(pattern), Cow::Owned)
}

/// Compiles a gitleaks (RE2) pattern: ASCII classes first (cheaper, and
/// secrets are ASCII), Unicode ones when the pattern needs them.
pub fn compile(pattern: &str) -> Compiled {
    let pattern = from_go(pattern);
    let pattern = pattern.as_ref();
    let build = |unicode: bool| {
        Regex::builder()
            .syntax(
                regex_automata::util::syntax::Config::new()
                    .unicode(unicode)
                    .utf8(false),
            )
            .configure(Regex::config().auto_prefilter(false))
            .build(pattern)
            .map_err(|e| e.to_string())
    };
    build(false).or_else(|_| build(true))
}

/// gitleaks' ends of a secret: a quote, a space, `;`, an escaped line
/// break, or the end (and a few rules' own variants). A secret followed
/// by the punctuation that ends a sentence, a bracket or a URL's part
/// (`key.`, `key)`, `key, and`, `key/`, `key?`, `key&`, `key。`) escaped
/// them, so the end a rule is run with also takes `) ] } < > / ? ! & | *
/// \`, any non-ASCII character, and `. , :` where no word goes on after
/// them (`name.png` is not a key's end). An opening bracket stays no end
/// (`Name(` is code, not a key).
const SECRET_ENDS: [&str; 3] = [
    r#"(?:[\x60'"\s;]|\\[nr]|$)"#,
    r"(?:\s|\z)",
    r#"(?:$|[\\'"\x60\s<),])"#,
];
const SECRET_END_WIDE: &str =
    r#"(?:[\x60'"\s;)\]}<>/?!&|*\\]|[.,:](?:[^A-Za-z0-9_-]|$)|\\[nr]|$|[^\x00-\x7f])"#;

/// A rule's own start of a secret, and the same widened likewise: also
/// after an opening bracket, `< ; / | ! ? & * # ~` or any non-ASCII
/// character.
const SECRET_START: &str = r#"(?:^|[\\'"\x60\s>=:(,)])"#;
const SECRET_START_WIDE: &str = r#"(?:^|[\\'"\x60\s>=:(,)\[{<;/|!?&*#~]|[^\x00-\x7f])"#;

/// A rule's pattern with its start and end widened (`SECRET_ENDS`).
pub fn widened(pattern: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(pattern);
    for end in SECRET_ENDS {
        if out.ends_with(end) {
            let cut = out.len() - end.len();
            out = Cow::Owned(format!("{}{SECRET_END_WIDE}", &out[..cut]));
        }
    }
    if out.starts_with(SECRET_START) {
        out = Cow::Owned(format!("{SECRET_START_WIDE}{}", &out[SECRET_START.len()..]));
    }
    out
}

struct Live {
    rule: &'static CatalogueRule,
    /// Built on gitleaks' generic template (`NAME ... = value`): worth
    /// running only when a keyword is followed by an assignment.
    assigned: bool,
    re: OnceLock<Compiled>,
    allow: OnceLock<Vec<Vec<Compiled>>>,
}

impl Live {
    fn regex(&self) -> Option<&Regex> {
        self.re
            .get_or_init(|| compile(&widened(self.rule.regex)))
            .as_ref()
            .ok()
    }

    fn allowlists(&self) -> &[Vec<Compiled>] {
        self.allow.get_or_init(|| {
            self.rule
                .allow
                .iter()
                .map(|a| a.regexes.iter().map(|r| compile(r)).collect())
                .collect()
        })
    }
}

/// The rules in force (those not bound to a path), and the keyword index.
struct Engine {
    rules: Vec<Live>,
    /// Keyword pattern -> the rules it wakes.
    wakes: Vec<Vec<usize>>,
    keywords: super::Needles,
    /// The global allowlist, compiled when a finding first needs it.
    global: OnceLock<Vec<Compiled>>,
}

static ENGINE: LazyLock<Engine> = LazyLock::new(|| {
    let rules: Vec<Live> = RULES
        .iter()
        .filter(|r| !r.path_only)
        .map(|rule| Live {
            rule,
            assigned: rule.regex.contains(GENERIC_ASSIGNMENT),
            re: OnceLock::new(),
            allow: OnceLock::new(),
        })
        .collect();
    let mut words: Vec<&str> = Vec::new();
    let mut wakes: Vec<Vec<usize>> = Vec::new();
    for (i, r) in rules.iter().enumerate() {
        for k in r.rule.keywords {
            if let Some(at) = words.iter().position(|w| w == k) {
                wakes[at].push(i);
            } else {
                words.push(k);
                wakes.push(vec![i]);
            }
        }
    }
    // The keywords are lowercase; the automaton folds ASCII case.
    let keywords = super::Needles::new(&words);
    Engine {
        rules,
        wakes,
        keywords,
        global: OnceLock::new(),
    }
});

/// Whether `secret` holds a stopword (compared lowercased).
fn has_stopword(secret: &str, words: &[&str]) -> bool {
    if words.is_empty() {
        return false;
    }
    let lower = secret.to_ascii_lowercase();
    words.iter().any(|w| lower.contains(w))
}

fn finds(compiled: &[Compiled], text: &str) -> bool {
    compiled
        .iter()
        .any(|c| c.as_ref().is_ok_and(|re| re.is_match(text.as_bytes())))
}

/// Whether one of the rule's allowlists lets this finding go.
fn allowed(live: &Live, secret: &str, whole: &str, line: &str) -> bool {
    live.rule
        .allow
        .iter()
        .zip(live.allowlists())
        .any(|(a, compiled): (&Allow, &Vec<Compiled>)| {
            let target = match a.target {
                Target::Secret => secret,
                Target::Match => whole,
                Target::Line => line,
            };
            let by_regex = !a.regexes.is_empty() && finds(compiled, target);
            let by_word = has_stopword(secret, a.stopwords);
            if a.all {
                (a.regexes.is_empty() || by_regex) && (a.stopwords.is_empty() || by_word)
            } else {
                by_regex || by_word
            }
        })
}

/// A secret the catalogue finds in `text`: where it is and which rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub start: usize,
    pub end: usize,
    pub rule: &'static str,
}

/// `find_lowered`, lowercasing `text` itself.
#[cfg(test)]
pub fn find(text: &str) -> Vec<Found> {
    find_lowered(text, &text.to_ascii_lowercase())
}

/// The rules a keyword in `lower` wakes: a rule with an assignment only
/// where one follows its keyword; a keyword of three bytes or fewer (`ey`,
/// `s.`, `sk`, part of many words) only where a long token follows.
fn woken_rules(engine: &Engine, lower: &str) -> Vec<usize> {
    let mut woken: Vec<usize> = Vec::new();
    engine.keywords.each(lower.as_bytes(), |end, keyword, len| {
        wake(keyword, len, &lower.as_bytes()[end..], &mut woken);
    });
    woken
}

/// `woken_rules` with the catalogue's own automaton, sorted.
#[cfg(test)]
pub(super) fn woken_alone(lower: &str) -> Vec<usize> {
    let mut woken = woken_rules(&ENGINE, lower);
    woken.sort_unstable();
    woken
}

/// The catalogue's keywords, lowercase: pattern `i` of an automaton built
/// on them is what `wake` takes as `keyword`.
pub(super) fn keywords() -> &'static [Vec<u8>] {
    ENGINE.keywords.words()
}

/// Adds to `woken` the rules keyword `keyword` (found `len` bytes long,
/// `after` the text after it, in any ASCII case) wakes.
pub(super) fn wake(keyword: usize, len: usize, after: &[u8], woken: &mut Vec<usize>) {
    let engine = &*ENGINE;
    let short_ok = len > 3 || token_run(after, SHORT_KEYWORD_RUN);
    for &r in &engine.wakes[keyword] {
        let wake = if engine.rules[r].assigned {
            super::assignment_near(after)
        } else {
            short_ok
        };
        if wake && !woken.contains(&r) {
            woken.push(r);
        }
    }
}

/// Every secret the catalogue's rules find in `text` (`lower` is `text`
/// lowercased, ASCII only), in no set order (ranges may overlap; the
/// caller keeps the first of overlapping ones).
pub fn find_lowered(text: &str, lower: &str) -> Vec<Found> {
    find_woken(text, woken_rules(&ENGINE, lower))
}

/// `find_lowered` for the rules `woken` (as `wake` found them).
pub(super) fn find_woken(text: &str, mut woken: Vec<usize>) -> Vec<Found> {
    let engine = &*ENGINE;
    woken.sort_unstable();
    let mut out = Vec::new();
    for i in woken {
        let live = &engine.rules[i];
        let Some(re) = live.regex() else { continue };
        for caps in re.captures_iter(text.as_bytes()) {
            let Some(whole) = caps.get_match() else {
                continue;
            };
            let group = if live.rule.secret_group > 0 {
                caps.get_group(live.rule.secret_group)
            } else {
                (1..caps.group_len())
                    .find_map(|g| caps.get_group(g).filter(|s| !s.is_empty()))
                    .or(Some(whole.span()))
            };
            let Some(span) = group else { continue };
            // A match that starts or ends on a non-ASCII character (the
            // start or end of a secret, `「key。`) does so inside it,
            // bytewise: the whole match takes the character in.
            let (mut whole_start, mut whole_end) = (whole.start(), whole.end());
            while !text.is_char_boundary(whole_start) {
                whole_start -= 1;
            }
            while !text.is_char_boundary(whole_end) {
                whole_end += 1;
            }
            let (Some(secret), Some(whole_text)) =
                (text.get(span.range()), text.get(whole_start..whole_end))
            else {
                continue;
            };
            if secret.is_empty()
                || (live.rule.entropy > 0.0 && super::entropy(secret) <= live.rule.entropy)
                || (live.rule.id.starts_with("generic")
                    && !secret.bytes().any(|b| b.is_ascii_digit()))
                || finds(
                    engine
                        .global
                        .get_or_init(|| GLOBAL_REGEXES.iter().map(|r| compile(r)).collect()),
                    secret,
                )
                || has_stopword(secret, GLOBAL_STOPWORDS)
            {
                continue;
            }
            let line_start = text[..whole_start].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[whole_end..]
                .find('\n')
                .map_or(text.len(), |i| whole_end + i);
            if allowed(live, secret, whole_text, &text[line_start..line_end]) {
                continue;
            }
            out.push(Found {
                start: span.start,
                end: span.end,
                rule: live.rule.id,
            });
        }
    }
    out
}

/// Rules whose pattern does not compile here (none, as generated; a test
/// holds it), with why.
#[cfg(test)]
pub fn uncompilable() -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = RULES
        .iter()
        .filter(|r| !r.path_only)
        .flat_map(|r| {
            std::iter::once(r.regex)
                .chain(r.allow.iter().flat_map(|a| a.regexes.iter().copied()))
                .filter_map(|p| compile(p).err().map(|e| (r.id, e)))
        })
        .collect();
    out.extend(
        GLOBAL_REGEXES
            .iter()
            .filter_map(|p| compile(p).err().map(|e| ("global allowlist", e))),
    );
    out
}

#[cfg(test)]
#[rustfmt::skip]
pub(super) mod examples;
#[cfg(test)]
pub(super) mod boundaries;
#[cfg(test)]
mod tests;
