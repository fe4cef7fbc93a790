//! Words engineers use for one another: an abbreviation and its word, two
//! names of one thing. Each group becomes one term. Built in below; the
//! setting `match.aliases` adds groups (`k8s=kubernetes; pg=postgres,postgresql`).

use std::collections::HashMap;
use std::sync::LazyLock;

use anyhow::{Result, bail};

/// The built-in groups: the abbreviations and synonyms of everyday
/// engineering prose (commit messages, issue threads, agents' reports).
const BUILT_IN: &[&[&str]] = &[
    &["documentation", "docs", "doc"],
    &["database", "db"],
    &[
        "configuration",
        "config",
        "conf",
        "cfg",
        "settings",
        "setting",
    ],
    &["performance", "perf"],
    &["repository", "repo"],
    &["dependency", "dependencies", "deps", "dep"],
    &["authentication", "auth", "authn"],
    &["authorization", "authz", "permissions", "permission"],
    &["environment", "env"],
    &["production", "prod"],
    &["development", "dev"],
    &["implementation", "impl"],
    &["initialization", "initialize", "init"],
    &["message", "msg"],
    &["error", "err"],
    &["request", "req"],
    &["parameter", "param", "params"],
    &["argument", "arg", "args"],
    &["variable", "var", "vars"],
    &["function", "func", "fn"],
    &["package", "pkg"],
    &["library", "lib"],
    &["directory", "dir", "folder"],
    &["application", "app"],
    &["kubernetes", "k8s"],
    &["javascript", "js"],
    &["typescript", "ts"],
    &["python", "py"],
    &["postgresql", "postgres", "pg", "psql"],
    &["mongodb", "mongo"],
    &["specification", "spec"],
    &["temporary", "temp", "tmp"],
    &["maximum", "max"],
    &["minimum", "min"],
    &["statistics", "stats"],
    &["synchronization", "synchronize", "sync"],
    &["utility", "utilities", "util", "utils"],
    &["email", "e-mail", "mail"],
    &["login", "log-in", "signin", "sign-in"],
    &["logout", "log-out", "signout", "sign-out"],
    &["signup", "sign-up", "registration"],
    &["delete", "remove"],
    &["bug", "defect"],
    &["pull-request", "pr"],
    &["continuous-integration", "ci"],
    &["end-to-end", "e2e"],
    &["rate-limit", "throttle", "throttling"],
    &["timeout", "time-out"],
    &["websocket", "ws"],
];

/// Alias groups, each as one term key.
#[derive(Debug, Clone, Default)]
pub struct Aliases {
    /// A folded word, or its stem, to its group's key.
    map: HashMap<String, String>,
    /// A group's key to its words.
    words: HashMap<String, Vec<String>>,
}

static DEFAULT: LazyLock<Aliases> = LazyLock::new(|| {
    let mut a = Aliases::default();
    for group in BUILT_IN {
        a.add(group);
    }
    a
});

impl Aliases {
    /// The built-in groups.
    #[cfg(test)]
    pub fn built_in() -> &'static Aliases {
        &DEFAULT
    }

    /// The built-in groups and those of `spec` (setting `match.aliases`):
    /// groups separated by `;`, the words of one by `=` or `,`.
    pub fn with(spec: &str) -> Result<Aliases> {
        let mut a = DEFAULT.clone();
        for group in spec.split(';').map(str::trim).filter(|g| !g.is_empty()) {
            let words: Vec<String> = group
                .split(['=', ','])
                .map(|w| w.trim().to_lowercase())
                .filter(|w| !w.is_empty())
                .collect();
            if words.len() < 2 {
                bail!(
                    "match.aliases: {group:?} names one word; a group is two or more words joined by = or , (groups separated by ;)"
                );
            }
            if let Some(w) = words.iter().find(|w| w.chars().any(char::is_whitespace)) {
                bail!("match.aliases: {w:?} is more than one word; join its words with -");
            }
            let refs: Vec<&str> = words.iter().map(String::as_str).collect();
            a.add(&refs);
        }
        Ok(a)
    }

    /// Adds one group: every word (and its stem) to the key of the group's
    /// first word; a word already in a group takes this one along.
    fn add(&mut self, group: &[&str]) {
        let key = self
            .map
            .get(group[0])
            .cloned()
            .unwrap_or_else(|| canonical(group[0]));
        for w in group {
            self.map.insert((*w).to_string(), key.clone());
            self.map.insert(canonical(w), key.clone());
            let words = self.words.entry(key.clone()).or_default();
            if !words.iter().any(|x| x == w) {
                words.push((*w).to_string());
            }
        }
    }

    /// The words of `word`'s group (folded, `word` first); `word` alone
    /// when it is in none.
    pub fn variants(&self, word: &str) -> Vec<String> {
        let mut out = vec![word.to_string()];
        if let Some(key) = self
            .map
            .get(word)
            .or_else(|| self.map.get(&super::stem(word)))
        {
            for w in self.words.get(key).into_iter().flatten() {
                if !out.contains(w) {
                    out.push(w.clone());
                }
            }
        }
        out
    }

    /// A compound's key (its stems joined by `-`): its group's, else itself.
    pub fn group_of(&self, key: String) -> String {
        self.map.get(&key).cloned().unwrap_or(key)
    }

    /// The key of a folded word: its group's, else its stem.
    pub fn key(&self, word: &str) -> String {
        if let Some(k) = self.map.get(word) {
            return k.clone();
        }
        let s = super::stem(word);
        self.map.get(&s).cloned().unwrap_or(s)
    }
}

/// A group word's key: its stem, a hyphenated word's stems joined by `-`
/// (as `terms` keys a compound).
fn canonical(w: &str) -> String {
    w.split('-').map(super::stem).collect::<Vec<_>>().join("-")
}
