//! The layering in ARCHITECTURE.md, checked on the source: every `crate::`
//! and `super::` path a module names must point down (or across, within a
//! layer), and a command never reaches into another command. Test code (each
//! item `#[cfg(test)]` marks) is not checked; the code after it is.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Layer {
    /// Types and rules: no database, no I/O beyond reading files.
    Domain,
    /// SQL in, domain types out.
    Store,
    /// Ingest, briefing, hook lifecycle: domain rules over the store.
    Services,
    /// How records are laid out (JSON, CSV, tables, trees).
    Output,
    /// One file per verb, the CLI, the library entry point.
    Commands,
}

/// The layer of a module path (`["store", "events"]`, `["hooks"]`).
fn layer_of(path: &[&str]) -> Layer {
    match path {
        ["store", ..] => Layer::Store,
        ["ingest" | "settings" | "project" | "push", ..] => Layer::Services,
        [
            "hooks",
            "prompt" | "receive" | "session" | "stop" | "doctor" | "install",
            ..,
        ] => Layer::Services,
        ["continuity", "brief" | "close" | "endpoint", ..] => Layer::Services,
        ["output", ..] => Layer::Output,
        ["commands" | "cli", ..] | ["lib" | "main"] => Layer::Commands,
        _ => Layer::Domain,
    }
}

/// Module paths that are modules (directories and files) under `src/`.
fn modules(src: &Path) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    for f in rs_files(src) {
        out.insert(module_path(src, &f));
    }
    out
}

fn rs_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(rs_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// `src/hooks/mod.rs` -> `["hooks"]`, `src/store/events.rs` -> `["store", "events"]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The longest known module a path names (`crate::store::events::Recorded`
/// names `store::events`).
fn target(known: &BTreeSet<Vec<String>>, path: &[String]) -> Vec<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| known.contains(p))
        .unwrap_or_else(|| path[..1].to_vec())
}

/// The paths (`crate::a::b`, `super::c`) named in `code`, resolved from `me`.
fn referenced(code: &str, me: &[String], is_mod_file: bool) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let (base, skip) = if rest.starts_with(b"crate::") && (i == 0 || !ident(bytes[i - 1])) {
            (Vec::new(), "crate::".len())
        } else if rest.starts_with(b"super::") && (i == 0 || !ident(bytes[i - 1])) {
            // `super` of a mod.rs file is its parent's parent module.
            let up = if is_mod_file { 1 } else { 0 };
            let keep = me.len().saturating_sub(1 + up);
            (me[..keep].to_vec(), "super::".len())
        } else {
            i += 1;
            continue;
        };
        let mut path = base;
        let mut j = i + skip;
        loop {
            let start = j;
            while j < bytes.len() && ident(bytes[j]) {
                j += 1;
            }
            if j == start {
                break;
            }
            path.push(code[start..j].to_string());
            if bytes[j..].starts_with(b"::") && bytes.get(j + 2).is_some_and(|b| ident(*b)) {
                j += 2;
            } else {
                break;
            }
        }
        if !path.is_empty() {
            out.push(path);
        }
        i = j.max(i + 1);
    }
    out
}

#[test]
fn layers_only_point_down_and_commands_do_not_call_commands() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let known = modules(&src);
    let mut wrong = Vec::new();
    for file in rs_files(&src) {
        let me = module_path(&src, &file);
        let text = std::fs::read_to_string(&file).unwrap();
        // Code only: no test items, no comments.
        let code: String = without_test_items(&text)
            .lines()
            .map(|l| l.split("//").next().unwrap())
            .collect::<Vec<_>>()
            .join("\n");
        let is_mod = file.file_name().is_some_and(|n| n == "mod.rs");
        let mine: Vec<&str> = me.iter().map(String::as_str).collect();
        let from = layer_of(&mine);
        for path in referenced(&code, &me, is_mod) {
            let to_path = target(&known, &path);
            let to: Vec<&str> = to_path.iter().map(String::as_str).collect();
            let to_layer = layer_of(&to);
            let upward = to_layer > from;
            // Output lays records out; it does not reach into services.
            let output_to_services = from == Layer::Output && to_layer == Layer::Services;
            // A verb's file may use the commands module's shared pieces, not
            // another verb.
            let across_commands = mine.first() == Some(&"commands")
                && to.first() == Some(&"commands")
                && to.len() > 1
                && mine.len() > 1
                && to[1] != mine[1];
            if upward || output_to_services || across_commands {
                wrong.push(format!(
                    "{} ({from:?}) -> {} ({to_layer:?})",
                    me.join("::"),
                    to.join("::")
                ));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "arrows that point the wrong way (see ARCHITECTURE.md):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_path_reader_resolves_crate_and_super() {
    let me = vec!["store".to_string(), "events".to_string()];
    let got = referenced(
        "use super::Store; use crate::hooks::{Kind}; my_crate::no; let a = crate::clock::now();",
        &me,
        false,
    );
    assert_eq!(
        got,
        vec![
            vec!["store".to_string(), "Store".to_string()],
            vec!["hooks".to_string()],
            vec!["clock".to_string(), "now".to_string()],
        ]
    );
    let module = vec!["hooks".to_string()];
    assert_eq!(
        referenced("super::x", &module, true),
        vec![vec!["x".to_string()]]
    );
}

/// `text` without the items `#[cfg(test)]` marks (a test module, a helper
/// function, a `use`): each attribute and the item after it, to its
/// closing brace or semicolon, read past strings, characters and comments.
/// What follows a test item is production code and stays.
fn without_test_items(text: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let b = text.as_bytes();
    let mut out = String::new();
    let mut at = 0;
    while let Some(found) = text[at..].find(MARK) {
        let start = at + found;
        out.push_str(&text[at..start]);
        at = item_end(b, start + MARK.len());
    }
    out.push_str(&text[at..]);
    out
}

/// Where the item starting at or after `i` ends (after its `;`, or after
/// the brace that closes its first `{`), skipping literals and comments.
fn item_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                // A raw string: r"..." or r#"..."#.
                let mut j = i + 1;
                let mut hashes = 0;
                while b.get(j) == Some(&b'#') {
                    hashes += 1;
                    j += 1;
                }
                if b.get(j) == Some(&b'"') {
                    j += 1;
                    loop {
                        if j >= b.len() {
                            return b.len();
                        }
                        if b[j] == b'"'
                            && b[j + 1..]
                                .iter()
                                .take(hashes)
                                .filter(|&&c| c == b'#')
                                .count()
                                == hashes
                        {
                            i = j + 1 + hashes;
                            break;
                        }
                        j += 1;
                    }
                    continue;
                }
                i += 1;
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
                continue;
            }
            b'\'' => {
                // A character literal ('{', '\'', '\u{7b}'); a lifetime has
                // no closing quote close by.
                if b.get(i + 1) == Some(&b'\\') {
                    let close = b[i + 2..]
                        .iter()
                        .position(|&c| c == b'\'')
                        .map(|p| i + 2 + p);
                    i = close.map_or(i + 1, |c| c + 1);
                    continue;
                }
                if b.get(i + 2) == Some(&b'\'') {
                    i += 3;
                    continue;
                }
                i += 1;
                continue;
            }
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            b';' if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// The layering check reads what follows a test item: a helper marked
/// `#[cfg(test)]` in the middle of a file hides none of the code after it,
/// and braces inside strings and characters do not end an item early.
#[test]
fn code_after_a_test_item_is_checked() {
    let text = r##"use crate::clock::now;
#[cfg(test)]
fn helper() -> String { format!("{{ not a brace }} {}", '}') }
#[cfg(test)]
use crate::commands::cost;
pub fn after() { let _ = crate::commands::sweep::run; }
#[cfg(test)]
mod tests { fn t() { let s = r#"}"#; let c = '{'; } }
pub fn last<'a>(x: &'a str) -> &'a str { x }
"##;
    let kept = without_test_items(text);
    assert!(kept.contains("use crate::clock::now;"), "{kept}");
    assert!(
        kept.contains("pub fn after() { let _ = crate::commands::sweep::run; }"),
        "{kept}"
    );
    assert!(kept.contains("pub fn last<'a>"), "{kept}");
    assert!(!kept.contains("helper"), "{kept}");
    assert!(!kept.contains("commands::cost"), "{kept}");
    assert!(!kept.contains("mod tests"), "{kept}");
}
