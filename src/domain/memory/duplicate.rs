//! The near-duplicate rule: a new memory is likely
//! a live one again when a live memory of the same kind and project has the
//! same topic (case-insensitive), or shares at least `NEAR_DUPLICATE` of
//! the words of topic and content. The store finds the candidates; this
//! decides.

use std::collections::BTreeSet;
use std::fmt;

/// The share of words (Jaccard similarity of the word sets of topic and
/// content) at which two memories are likely the same.
pub const NEAR_DUPLICATE: f64 = 0.8;

/// Why a memory is likely another one again.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Likeness {
    SameTopic,
    /// The share of words the two have in common (at least `NEAR_DUPLICATE`).
    SharedWords(f64),
}

impl fmt::Display for Likeness {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Likeness::SameTopic => f.write_str("same topic"),
            Likeness::SharedWords(s) => write!(f, "{:.0}% of the same words", s * 100.0),
        }
    }
}

/// Words for the rule: runs of letters and digits, lowercased (numbers
/// count: "PostgreSQL 16" is not "PostgreSQL 17").
pub fn words(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The words of a memory's topic and content together.
pub fn memory_words(topic: &str, content: &str) -> BTreeSet<String> {
    words(&format!("{topic} {content}"))
}

/// Jaccard similarity of two word sets.
pub fn similarity(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// Each word as its stem (`matching`): "deploys the API" and "deployed the
/// API" are the same words.
fn stems(words: &BTreeSet<String>) -> BTreeSet<String> {
    words
        .iter()
        .map(|w| crate::domain::matching::stem(w))
        .collect()
}

/// How a candidate with this topic and content compares with `mine` (the
/// new memory's `memory_words`), word for word by stem: `None` unless it is
/// likely the same.
pub fn likeness(mine: &BTreeSet<String>, topic: &str, content: &str) -> Option<Likeness> {
    let s = similarity(&stems(mine), &stems(&memory_words(topic, content)));
    (s >= NEAR_DUPLICATE).then_some(Likeness::SharedWords(s))
}

/// The words worth searching for, rarest first, given how many memories
/// hold each (`docs`, in the order of `mine`). A memory sharing at least
/// `NEAR_DUPLICATE` of the words holds all but `spare` of `mine`, so it
/// holds one of any `spare + 1` of them: searching for the rarest few
/// finds every candidate, and the candidates stay few at any size.
pub fn probe_words<'a>(mine: &'a BTreeSet<String>, docs: &[i64]) -> Vec<&'a str> {
    let spare = mine.len() - (mine.len() as f64 * NEAR_DUPLICATE).ceil() as usize;
    let mut by_rarity: Vec<(i64, &str)> = docs
        .iter()
        .copied()
        .zip(mine.iter().map(String::as_str))
        .collect();
    by_rarity.sort();
    by_rarity
        .into_iter()
        .take(spare + 1)
        .map(|(_, w)| w)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_duplicates_by_shared_words() {
        let a = words("Use PostgreSQL 16 for the orders service database");
        let b = words("use postgresql 16 for the orders service database!");
        assert!((similarity(&a, &b) - 1.0).abs() < 1e-9);
        let c = words("Use SQLite for the local cache of the CLI");
        assert!(similarity(&a, &c) < NEAR_DUPLICATE);
        assert_eq!(
            likeness(&a, "orders service", "use PostgreSQL 16 for the database"),
            Some(Likeness::SharedWords(1.0))
        );
        assert_eq!(
            likeness(&a, "cache", "Use SQLite for the local cache"),
            None
        );
        // Inflections are the same words.
        let d = words("Deploys the orders service nightly");
        assert_eq!(
            likeness(&d, "orders", "deployed the orders services nightly"),
            Some(Likeness::SharedWords(1.0))
        );
        assert_eq!(
            Likeness::SharedWords(0.8333).to_string(),
            "83% of the same words"
        );
        assert_eq!(Likeness::SameTopic.to_string(), "same topic");
    }

    /// Ten words: a memory sharing 80% holds at least 8 of them, so it
    /// holds one of any 3: the three rarest are searched, ties by word.
    #[test]
    fn the_rarest_words_that_any_near_duplicate_must_hold() {
        let mine = words("a b c d e f g h i j");
        let docs = [9, 1, 5, 0, 7, 1, 3, 2, 8, 4];
        assert_eq!(probe_words(&mine, &docs), ["d", "b", "f"]);
        // Five words: 80% is four; one may be missing, so two are searched.
        let five = words("v w x y z");
        assert_eq!(probe_words(&five, &[3, 3, 3, 3, 3]), ["v", "w"]);
        // One word: it must be held.
        assert_eq!(probe_words(&words("solo"), &[100]), ["solo"]);
    }
}
