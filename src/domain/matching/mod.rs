//! How sessionkit reads people's words when it matches them: the one
//! text-matching layer behind the closer's evidence judge, `recall`'s query
//! words and the prompt recall. Pure.
//!
//! A text becomes terms. Each word is case-folded and stemmed (Snowball
//! English), so *migrated*, *migrating* and *migrate* are one term; an
//! identifier (`snake_case`, `camelCase`, `kebab-case`, a path such as
//! `src/api/routes.ts`) is kept whole, as a strong term, and split into its
//! words too; a number or version (`v2`, `1.4.0`) is kept whole. Words
//! engineers use for one another (docs and documentation, db and
//! database) become one term through the alias table (`aliases`).

mod aliases;

pub use aliases::Aliases;
pub use query::{Highlighter, search_expression, too_large};
pub use terms::{holds_phrases, index_terms};

mod query;
mod terms;

use std::sync::LazyLock;

/// What a term is, which sets how much it says about what a text is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    /// A verb that names the kind of work (add, fix, update).
    Generic,
    /// A word of an identifier or compound (after its whole).
    Part,
    /// A word.
    Word,
    /// A hyphenated word kept whole (`warm-up`).
    Compound,
    /// An identifier, a path, a file name, a number or version.
    Identifier,
}

impl Strength {
    /// How much a match of the term counts.
    pub fn weight(self) -> f32 {
        match self {
            Strength::Generic | Strength::Part => 0.5,
            Strength::Word => 1.0,
            Strength::Compound => 2.0,
            Strength::Identifier => 3.0,
        }
    }
}

/// One term of a text: its key (the stem, or the alias group's) and its
/// strength.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub key: String,
    pub strength: Strength,
}

static STEMMER: LazyLock<rust_stemmers::Stemmer> =
    LazyLock::new(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English));

/// The stem of a folded word.
pub fn stem(word: &str) -> String {
    STEMMER.stem(word).into_owned()
}

/// Words that say nothing about what a text is about.
const STOP: &[&str] = &[
    "a", "about", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at",
    "be", "been", "before", "being", "both", "but", "by", "can", "did", "do", "does", "for",
    "from", "had", "has", "have", "he", "her", "here", "him", "his", "how", "i", "i'm", "i've",
    "if", "in", "into", "is", "it", "it's", "its", "just", "let", "let's", "me", "more", "most",
    "my", "new", "of", "on", "one", "onto", "or", "our", "out", "over", "per", "so", "some",
    "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those",
    "to", "too", "up", "us", "via", "was", "we", "we've", "were", "what", "when", "where", "which",
    "while", "who", "why", "with", "you", "your",
];

/// Verbs that name the kind of work, not the work: they count as little as
/// a part (agents rarely repeat them, and every commitment has one).
const GENERIC_VERBS: &[&str] = &[
    "add",
    "build",
    "chang",
    "creat",
    "do",
    "ensur",
    "fix",
    "get",
    "handl",
    "implement",
    "improv",
    "make",
    "move",
    "set",
    "support",
    "updat",
    "use",
    "write",
];

/// A query word must be in more memories than this (and in over a tenth of
/// them) before a search leaves it out for rarer words; small stores keep
/// every word.
pub const COMMON_WORD_MIN_DOCS: i64 = 2000;

/// The query words a search ranks by, given how many of `total` documents
/// hold each (`counted`, in query order): a word in more than a tenth of
/// them (and in thousands) barely moves bm25 but costs a score for every
/// document it is in, so it is left out when the query has rarer words.
/// The second value says every word was common (then all are kept).
pub fn uncommon<'a>(counted: &[(i64, &'a str)], total: i64) -> (Vec<&'a str>, bool) {
    let common = |n: i64| n * 10 > total && n > COMMON_WORD_MIN_DOCS;
    let all_common = counted.iter().all(|(n, _)| common(*n));
    let kept = counted
        .iter()
        .filter(|(n, _)| all_common || !common(*n))
        .map(|(_, t)| *t)
        .collect();
    (kept, all_common)
}

/// Whether the folded word is a stop word.
pub fn is_stop(word: &str) -> bool {
    STOP.binary_search(&word).is_ok()
}

/// The chunk's shape: how to read it.
fn is_number(s: &str) -> bool {
    let s = s.strip_prefix('v').unwrap_or(s);
    !s.is_empty()
        && s.chars().next().is_some_and(|c| c.is_ascii_digit())
        && s.chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == '-')
}

/// Names written with a hump that are one word (`GitHub`).
const PRODUCTS: &[&str] = &[
    "devops",
    "fastapi",
    "github",
    "gitlab",
    "graphql",
    "javascript",
    "linkedin",
    "macos",
    "mongodb",
    "mysql",
    "nextjs",
    "nodejs",
    "openai",
    "openapi",
    "postgresql",
    "powershell",
    "sqlite",
    "typescript",
    "vscode",
    "webpack",
    "youtube",
];

/// Whether a chunk has a camelCase hump: a lowercase letter or digit, then
/// an uppercase letter, then a lowercase one (`parseConfig`, `UserService`;
/// not `PostgreSQL`, whose capitals end it).
fn humped(s: &str) -> bool {
    let c: Vec<char> = s.chars().collect();
    c.windows(3).any(|w| {
        (w[0].is_lowercase() || w[0].is_ascii_digit()) && w[1].is_uppercase() && w[2].is_lowercase()
    })
}

/// Splits a chunk into the words of an identifier: at `_ - . / : \`, and,
/// when `camel`, where a lowercase letter or digit is followed by an
/// uppercase one.
fn identifier_words(s: &str, camel: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev: Option<char> = None;
    for c in s.chars() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev = None;
            continue;
        }
        if c.is_uppercase()
            && prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit())
            && !cur.is_empty()
            && camel
        {
            out.push(std::mem::take(&mut cur));
        }
        cur.push(c);
        prev = Some(c);
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out.into_iter().map(|w| w.to_lowercase()).collect()
}

/// Characters a chunk loses at its ends (quotes, brackets, sentence marks).
fn edge(c: char) -> bool {
    !(c.is_alphanumeric() || c == '_' || c == '/' || c == '#' || c == '@')
}

/// The terms of `text`, in order (a repeated word repeats).
pub fn terms(text: &str, aliases: &Aliases) -> Vec<Term> {
    let mut out = Vec::new();
    for raw in
        text.split(|c: char| c.is_whitespace() || c == '`' || c == ',' || c == '(' || c == ')')
    {
        let chunk = raw.trim_matches(edge);
        if chunk.is_empty() {
            continue;
        }
        let inner_sep = chunk
            .char_indices()
            .any(|(i, c)| matches!(c, '_' | '-' | '.' | '/' | ':' | '\\') && i > 0);
        let camel = humped(chunk) && !PRODUCTS.contains(&chunk.to_lowercase().as_str());
        if is_number(chunk) {
            out.push(Term {
                key: chunk.to_lowercase(),
                strength: Strength::Identifier,
            });
            continue;
        }
        if !(inner_sep || camel) {
            word(&chunk.to_lowercase(), Strength::Word, aliases, &mut out);
            continue;
        }
        let parts = identifier_words(chunk, camel);
        if parts.len() < 2 {
            for p in parts {
                word(&p, Strength::Word, aliases, &mut out);
            }
            continue;
        }
        // A plain hyphenated word (`warm-up`, `follow-up`) is a compound;
        // anything else with separators or humps is an identifier.
        let hyphenated = chunk.chars().all(|c| c.is_alphabetic() || c == '-') && !camel;
        let strength = if hyphenated {
            Strength::Compound
        } else {
            Strength::Identifier
        };
        let whole: String = parts.iter().map(|p| stem(p)).collect::<Vec<_>>().join("-");
        out.push(Term {
            key: aliases.group_of(whole),
            strength,
        });
        for p in parts {
            word(&p, Strength::Part, aliases, &mut out);
        }
    }
    out
}

/// Adds the term of one folded word (nothing for a stop word).
fn word(w: &str, strength: Strength, aliases: &Aliases, out: &mut Vec<Term>) {
    let w = w.trim_matches('\'');
    if w.is_empty() || is_stop(w) {
        return;
    }
    let w = w.strip_suffix("'s").unwrap_or(w);
    if w.chars().count() < 2 && !w.chars().all(|c| c.is_ascii_digit()) {
        return;
    }
    let key = aliases.key(w);
    let strength = if GENERIC_VERBS.contains(&key.as_str()) {
        Strength::Generic
    } else {
        strength
    };
    out.push(Term { key, strength });
}

#[cfg(test)]
mod tests;
