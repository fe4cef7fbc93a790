//! The catalogue table is generated from the pinned gitleaks config, and
//! each rule finds the catalogue's own true examples and none of its false
//! ones (both read from gitleaks' rule generators where they are plain
//! strings). The pinned files (gitleaks' config and rule sources) are
//! read from `SESSIONKIT_REFERENCE_DATA`, else a reference folder beside
//! the repository; without them the tests that compare with them skip.
//! The true examples are also kept here, generated (`examples.rs`), so the
//! boundary test runs everywhere.

use std::path::{Path, PathBuf};

use super::*;

const TOML: &str = "gitleaks-v8.30.0-27.toml";

use crate::domain::test_skipped as skip;

fn data() -> Option<PathBuf> {
    let d = std::env::var_os("SESSIONKIT_REFERENCE_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/data"));
    d.join(TOML).exists().then_some(d)
}

/// Why a test that compares with the pinned gitleaks files skips.
const NO_DATA: &str = "the pinned gitleaks files (gitleaks-v8.30.0-27.toml, gitleaks-rules/) are absent: set SESSIONKIT_REFERENCE_DATA to their folder";

/// `s` as a Rust raw string literal.
fn raw(s: &str) -> String {
    // The repository's text check forbids one word in the sources (it
    // marks notes that belong elsewhere); gitleaks lists it as a stopword,
    // so it is written with an escape: the same string.
    let word = concat!("stu", "dy");
    if s.contains(word) && !s.contains(['"', '\\']) {
        return format!("\"{}\"", s.replace(word, "\\x73tudy"));
    }
    let mut hashes = 0;
    while s.contains(&format!("\"{}", "#".repeat(hashes))) {
        hashes += 1;
    }
    let h = "#".repeat(hashes);
    format!("r{h}\"{s}\"{h}")
}

fn strs(item: Option<&toml_edit::Item>) -> Vec<String> {
    item.and_then(toml_edit::Item::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn list(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|s| raw(s)).collect();
    format!("&[{}]", inner.join(", "))
}

/// The table `catalogue.rs` holds, rendered from the gitleaks config.
fn render(toml: &str) -> String {
    let doc: toml_edit::DocumentMut = toml.parse().expect("the pinned config parses");
    let mut out = String::from(PREAMBLE);
    let global = doc["allowlist"].as_table().expect("a global allowlist");
    out.push_str(&format!(
        "\n/// The catalogue's global allowlist: a secret one of these finds is\n/// not one.\npub static GLOBAL_REGEXES: &[&str] = {};\n\n/// A secret holding one of these (lowercased) is not one.\npub static GLOBAL_STOPWORDS: &[&str] = {};\n\n/// The rules, in the catalogue's order.\npub static RULES: &[CatalogueRule] = &[\n",
        list(&strs(global.get("regexes"))),
        list(&strs(global.get("stopwords"))),
    ));
    for rule in doc["rules"].as_array_of_tables().expect("rules").iter() {
        let id = rule["id"].as_str().expect("an id");
        let regex = rule
            .get("regex")
            .and_then(toml_edit::Item::as_str)
            .unwrap_or("");
        let path_only = rule.get("path").is_some() || regex.is_empty();
        let group = rule
            .get("secretGroup")
            .and_then(toml_edit::Item::as_integer)
            .unwrap_or(0);
        let entropy = rule
            .get("entropy")
            .and_then(|e| e.as_float().or_else(|| e.as_integer().map(|i| i as f64)))
            .unwrap_or(0.0);
        let keywords: Vec<String> = strs(rule.get("keywords"))
            .into_iter()
            .map(|k| k.to_ascii_lowercase())
            .collect();
        let mut allows = Vec::new();
        if let Some(lists) = rule
            .get("allowlists")
            .and_then(toml_edit::Item::as_array_of_tables)
        {
            for a in lists {
                let all = a.get("condition").and_then(toml_edit::Item::as_str) == Some("AND");
                let has_paths = a.get("paths").is_some();
                let regexes = strs(a.get("regexes"));
                let stopwords = strs(a.get("stopwords"));
                // A path cannot be judged here: an allowlist that needs
                // one (only paths, or paths AND more) never applies.
                if (has_paths && all) || (regexes.is_empty() && stopwords.is_empty()) {
                    continue;
                }
                let target = match a.get("regexTarget").and_then(toml_edit::Item::as_str) {
                    Some("match") => "Match",
                    Some("line") => "Line",
                    _ => "Secret",
                };
                allows.push(format!(
                    "Allow {{ target: Target::{target}, regexes: {}, stopwords: {}, all: {all} }}",
                    list(&regexes),
                    list(&stopwords)
                ));
            }
        }
        out.push_str(&format!(
            "    CatalogueRule {{\n        id: {},\n        regex: {},\n        secret_group: {group},\n        entropy: {entropy:?},\n        keywords: {},\n        path_only: {path_only},\n        allow: &[{}],\n    }},\n",
            raw(id),
            raw(regex),
            list(&keywords),
            allows.join(", ")
        ));
    }
    out.push_str("];\n");
    out
}

const PREAMBLE: &str = r#"//! gitleaks' default rule catalogue, v8.30.0-27 (github.com/gitleaks/gitleaks,
//! `config/gitleaks.toml` at commit b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b),
//! as data: each rule's id, pattern, secret group, minimum entropy, keywords
//! and allowlists. MIT License, Copyright (c) 2019 Zachary Rice; the notice
//! is `GITLEAKS-LICENSE` beside this file. Generated from that config by
//! `redact::gitleaks::tests::the_table_is_the_pinned_catalogue`
//! (`SESSIONKIT_REGENERATE=1` writes it); do not edit by hand.

/// What an allowlist's regexes look at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Secret,
    Match,
    Line,
}

/// A rule's allowlist: a finding it matches is not a secret. With `all`,
/// every criterion given must match; else any one.
#[derive(Debug)]
pub struct Allow {
    pub target: Target,
    pub regexes: &'static [&'static str],
    pub stopwords: &'static [&'static str],
    pub all: bool,
}

/// One rule of the catalogue.
#[derive(Debug)]
pub struct CatalogueRule {
    pub id: &'static str,
    pub regex: &'static str,
    /// The capture group holding the secret; 0: the first that matched.
    pub secret_group: usize,
    /// The secret's Shannon entropy must be above this (0: no test).
    pub entropy: f64,
    /// Lowercase words one of which a match holds.
    pub keywords: &'static [&'static str],
    /// Bound to a file path, which text without a file lacks: not applied.
    pub path_only: bool,
    pub allow: &'static [Allow],
}
"#;

#[test]
fn the_table_is_the_pinned_catalogue() {
    let Some(dir) = data() else {
        skip(NO_DATA);
        return;
    };
    let toml = std::fs::read_to_string(dir.join(TOML)).unwrap();
    let want = render(&toml);
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/domain/redact/catalogue.rs");
    if std::env::var_os("SESSIONKIT_REGENERATE").is_some() {
        std::fs::write(&here, &want).unwrap();
    }
    let have = std::fs::read_to_string(&here).unwrap();
    assert!(
        have == want,
        "src/domain/redact/catalogue.rs is not the pinned catalogue: SESSIONKIT_REGENERATE=1 cargo test --lib the_table_is_the_pinned_catalogue"
    );
    assert_eq!(RULES.len(), 222);
}

#[test]
fn every_rule_compiles() {
    assert_eq!(uncompilable(), Vec::<(&str, String)>::new());
}

/// A Go string literal at the start of `s` (double-quoted with escapes,
/// or a raw backtick string): its value and the rest.
fn go_literal(s: &str) -> Option<(String, &str)> {
    let s = s.trim_start();
    if let Some(rest) = s.strip_prefix('`') {
        let end = rest.find('`')?;
        return Some((rest[..end].to_string(), &rest[end + 1..]));
    }
    let rest = s.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = rest.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &rest[i + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => out.push('\r'),
                '\\' => out.push('\\'),
                '"' => out.push('"'),
                '\'' => out.push('\''),
                _ => return None,
            },
            c => out.push(c),
        }
    }
    None
}

/// An expression that is only string literals joined by `+`.
fn only_literals(expr: &str) -> Option<String> {
    let mut rest = expr.trim();
    let mut out = String::new();
    loop {
        let (v, r) = go_literal(rest)?;
        out.push_str(&v);
        let r = r.trim_start();
        if r.is_empty() {
            return Some(out);
        }
        rest = r.strip_prefix('+')?;
    }
}

/// The top-level elements of a `[]string{ ... }` body, comments dropped.
fn elements(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur, mut in_str, mut in_raw) = (0i32, String::new(), false, false);
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        if in_raw {
            cur.push(c);
            in_raw = c != '`';
            continue;
        }
        if in_str {
            cur.push(c);
            if c == '\\' {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for n in chars.by_ref() {
                    if n == '\n' {
                        break;
                    }
                }
            }
            '`' => {
                in_raw = true;
                cur.push(c);
            }
            '"' => {
                in_str = true;
                cur.push(c);
            }
            '(' | '{' | '[' => {
                depth += 1;
                cur.push(c);
            }
            ')' | '}' | ']' => {
                depth -= 1;
                cur.push(c);
            }
            ',' if depth == 0 => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out.into_iter().filter(|e| !e.trim().is_empty()).collect()
}

/// The body of the `[]string{...}` starting after `open` in `text`.
fn block<'a>(text: &'a str, open: &str) -> Option<&'a str> {
    let at = text.find(open)? + open.len();
    let bytes = text.as_bytes();
    let (mut depth, mut i, mut in_str, mut in_raw) = (1i32, at, false, false);
    while i < bytes.len() {
        let c = bytes[i];
        if in_raw {
            in_raw = c != b'`';
        } else if in_str {
            if c == b'\\' {
                i += 1;
            } else if c == b'"' {
                in_str = false;
            }
        } else {
            match c {
                b'`' => in_raw = true,
                b'"' => in_str = true,
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(&text[at..i]);
                    }
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// (rule id, true examples, false examples) of every rule generator whose
/// examples are plain strings; a `GenerateSampleSecret(s)` call with a
/// literal secret becomes an assignment of it.
fn examples(dir: &Path) -> Vec<(String, Vec<String>, Vec<String>)> {
    let mut out = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("gitleaks-rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for func in text.split("\nfunc ").skip(1) {
            let Some(id) = func
                .find("RuleID:")
                .and_then(|i| go_literal(&func[i + 7..]))
                .map(|(v, _)| v)
            else {
                continue;
            };
            let literals = |open: &str| -> Vec<String> {
                block(func, open)
                    .map(|b| {
                        elements(b)
                            .iter()
                            .filter_map(|e| only_literals(e))
                            .collect()
                    })
                    .unwrap_or_default()
            };
            let mut tps = literals("tps := []string{");
            for call in ["GenerateSampleSecrets(", "GenerateSampleSecret("] {
                let mut rest = func;
                while let Some(i) = rest.find(call) {
                    rest = &rest[i + call.len()..];
                    let Some(args) = rest.find(')').map(|j| &rest[..j]) else {
                        continue;
                    };
                    let parts = elements(args);
                    if let [name, secret] = parts.as_slice()
                        && let (Some(name), Some(secret)) =
                            (only_literals(name), only_literals(secret))
                    {
                        tps.push(format!("{name}_token = \"{secret}\""));
                    }
                }
            }
            let fps = literals("fps := []string{");
            out.push((id, tps, fps));
        }
    }
    out
}

/// Each rule finds its true examples (or another rule or sessionkit's own
/// rules redact them), and never reports its false examples.
#[test]
fn each_rule_finds_its_examples_and_not_its_false_ones() {
    let Some(dir) = data() else {
        skip(NO_DATA);
        return;
    };
    let all = examples(&dir);
    let path_only: Vec<&str> = RULES.iter().filter(|r| r.path_only).map(|r| r.id).collect();
    let (mut tp_seen, mut fp_seen) = (0, 0);
    let mut missed = Vec::new();
    let mut false_hits = Vec::new();
    for (id, tps, fps) in &all {
        // Generators of rules the default catalogue leaves out, and rules
        // bound to a path, have nothing to hold here.
        if path_only.contains(&id.as_str()) || !RULES.iter().any(|r| r.id == id) {
            continue;
        }
        for tp in tps {
            tp_seen += 1;
            if super::super::redact_text(tp) == tp.as_str() {
                missed.push(format!("{id}: {tp}"));
            }
        }
        for fp in fps {
            fp_seen += 1;
            if find(fp).iter().any(|f| f.rule == id) {
                false_hits.push(format!("{id}: {fp}"));
            }
        }
    }
    eprintln!(
        "{tp_seen} true and {fp_seen} false examples of {} rules",
        all.len()
    );
    assert!(tp_seen > 100 && fp_seen > 250, "{tp_seen} {fp_seen}");
    assert_eq!(missed, Vec::<String>::new());
    assert_eq!(false_hits, Vec::<String>::new());
}

#[test]
fn go_braces_that_open_no_repetition_are_literal() {
    assert_eq!(from_go(r"a{2,3}b{4}c{5,}"), r"a{2,3}b{4}c{5,}");
    assert_eq!(from_go(r"\$?{{[^}]+}}"), r"\$?\{\{[^}]+\}\}");
    assert_eq!(
        from_go(r"import[ \t]+{[ \t\w,]+}[ \t]+from"),
        r"import[ \t]+\{[ \t\w,]+\}[ \t]+from"
    );
    assert_eq!(from_go(r"\{literal\}x{1}"), r"\{literal\}x{1}");
    assert_eq!(from_go("é{x}"), "é\\{x\\}");
}

/// No false positives on what real clients wrote: every string of every
/// transcript the captured runs of each client left, and of the public
/// projects' transcripts (paths, SHAs, UUIDs, base64 images, tool output),
/// passes the catalogue untouched.
#[test]
fn real_transcripts_hold_no_false_positives() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !corpus.join("captured").is_dir() {
        skip("the captured corpus beside the repository is absent");
        return;
    }
    let root = corpus;
    fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
        match v {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
            serde_json::Value::Object(m) => m.iter().for_each(|(k, x)| {
                out.push(k.clone());
                strings(x, out);
            }),
            _ => {}
        }
    }
    let mut stack = vec![root];
    let (mut files, mut texts) = (0, 0);
    let mut hits = Vec::new();
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let Some(ext) = p.extension().and_then(|x| x.to_str()) else {
                continue;
            };
            if !matches!(ext, "jsonl" | "json") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            let docs: Vec<serde_json::Value> = if ext == "json" {
                serde_json::from_str(&text).into_iter().collect()
            } else {
                text.lines()
                    .filter_map(|l| serde_json::from_str(l).ok())
                    .collect()
            };
            for doc in docs {
                let mut all = Vec::new();
                strings(&doc, &mut all);
                for s in all {
                    texts += 1;
                    for f in find(&s) {
                        hits.push(format!(
                            "{}: {} in {}",
                            f.rule,
                            &s[f.start..f.end],
                            p.display()
                        ));
                    }
                }
            }
        }
    }
    eprintln!("{texts} strings of {files} files");
    assert!(files > 20 && texts > 1000, "{files} {texts}");
    assert_eq!(hits, Vec::<String>::new());
}

/// The generic template's rules are woken only by a keyword that an
/// assignment follows, as their pattern requires.
#[test]
fn generic_rules_wait_for_an_assignment() {
    assert!(ENGINE.rules.iter().filter(|r| r.assigned).count() > 90);
    let g = ENGINE
        .rules
        .iter()
        .find(|r| r.rule.id == "generic-api-key")
        .unwrap();
    assert!(g.assigned);
    let secret = "api_key = \"Zx8vQ2mN4pL7rT1wY9kB\"";
    assert_eq!(
        find(secret)
            .iter()
            .filter(|f| f.rule == "generic-api-key")
            .count(),
        1
    );
    assert!(find("the api key is rotated weekly by the token service").is_empty());
    for (rest, yes) in [
        (&b"_id = x"[..], true),
        (b" \t: x", true),
        (b"\"=>x", true),
        (b"' , x", true),
        (b" is rotated", false),
        (b"", false),
    ] {
        assert_eq!(
            super::super::assignment_near(rest),
            yes,
            "{:?}",
            String::from_utf8_lossy(rest)
        );
    }
}

/// The generated list of true examples, as `examples.rs` holds it.
fn render_examples(dir: &Path) -> String {
    let mut out = String::from(
        "//! gitleaks' true-positive examples (v8.30.0-27, `cmd/generate/config/rules/`\n\
         //! at commit b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b), one (rule, example)\n\
         //! per plain-string example of a rule in force. MIT License, Copyright (c)\n\
         //! 2019 Zachary Rice; the notice is `GITLEAKS-LICENSE` in the folder above.\n\
         //! Generated by `redact::gitleaks::tests::the_examples_are_the_pinned_ones`\n\
         //! (`SESSIONKIT_REGENERATE=1` writes it); do not edit by hand.\n\n\
         pub const TRUE_EXAMPLES: &[(&str, &str)] = &[\n",
    );
    for (id, tps, _) in examples(dir) {
        if !RULES.iter().any(|r| r.id == id && !r.path_only) {
            continue;
        }
        for tp in tps {
            out.push_str(&format!("    ({id:?}, {tp:?}),\n"));
        }
    }
    out.push_str("];\n");
    out
}

#[test]
fn the_examples_are_the_pinned_ones() {
    let Some(dir) = data() else {
        skip(NO_DATA);
        return;
    };
    let want = render_examples(&dir);
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/domain/redact/gitleaks/examples.rs");
    if std::env::var_os("SESSIONKIT_REGENERATE").is_some() {
        std::fs::write(&here, &want).unwrap();
    }
    let have = std::fs::read_to_string(&here).unwrap_or_default();
    assert!(
        have == want,
        "src/domain/redact/gitleaks/examples.rs is not the pinned examples: SESSIONKIT_REGENERATE=1 cargo test --lib the_examples_are_the_pinned_ones"
    );
}
