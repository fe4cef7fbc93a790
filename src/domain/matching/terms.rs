//! The terms the transcript search index holds for a text, made where the
//! text is read (on a reader thread), so that the index's own tokenizer
//! only splits on spaces: each word (a run of letters and digits) case
//! folded, its diacritics removed, and stemmed (Snowball English). A
//! query's words become terms by the same functions, and a phrase is
//! checked against the text itself (`holds_phrases`): the index keeps which
//! texts hold a term, not where.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;

use unicode_normalization::UnicodeNormalization;

/// A word folded: lower case, without diacritics (`Café` is `cafe`).
pub fn fold(word: &str) -> Cow<'_, str> {
    if word
        .bytes()
        .all(|b| b.is_ascii() && !b.is_ascii_uppercase())
    {
        return Cow::Borrowed(word);
    }
    if word.is_ascii() {
        return Cow::Owned(word.to_ascii_lowercase());
    }
    Cow::Owned(
        word.to_lowercase()
            .nfd()
            .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
            .collect(),
    )
}

/// Stems remembered per thread: the same few thousand words make most of
/// any text, and a lookup costs a tenth of stemming.
const STEMS_KEPT: usize = 100_000;

thread_local! {
    static STEMS: RefCell<HashMap<Box<str>, Box<str>, xxhash_rust::xxh3::Xxh3Builder>> =
        RefCell::new(HashMap::with_hasher(xxhash_rust::xxh3::Xxh3Builder::new()));
}

/// The term of a folded word: its stem (a number or version as it is).
fn push_term(folded: &str, out: &mut String) {
    if folded.starts_with(|c: char| c.is_ascii_digit()) {
        out.push_str(folded);
        return;
    }
    STEMS.with(|stems| {
        let mut stems = stems.borrow_mut();
        if let Some(s) = stems.get(folded) {
            out.push_str(s);
            return;
        }
        let stem = super::stem(folded);
        out.push_str(&stem);
        if stems.len() >= STEMS_KEPT {
            stems.clear();
        }
        stems.insert(folded.into(), stem.into_boxed_str());
    });
}

/// The term of a word (folded and stemmed).
pub fn term(word: &str) -> String {
    let mut out = String::new();
    push_term(&fold(word), &mut out);
    out
}

/// The words of a text: runs of letters and digits.
pub fn words(text: &str) -> impl Iterator<Item = &str> + Clone {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// What the index holds for a text said by `tool` (its name's words
/// first): its terms, each followed by a space.
pub fn index_terms(tool: Option<&str>, text: &str) -> String {
    let mut out = String::with_capacity(text.len() / 2 + 16);
    for w in tool.into_iter().flat_map(words).chain(words(text)) {
        push_term(&fold(w), &mut out);
        out.push(' ');
    }
    out
}

/// Whether `text` holds each phrase's terms one after another.
pub fn holds_phrases(text: &str, phrases: &[Vec<String>]) -> bool {
    let terms = index_terms(None, text);
    let terms: Vec<&str> = terms.split_terminator(' ').collect();
    phrases.iter().all(|p| {
        p.is_empty()
            || terms
                .windows(p.len())
                .any(|w| w.iter().zip(p).all(|(a, b)| *a == b.as_str()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words fold and stem the same in a text and in a query, whatever
    /// their case and accents; numbers stay whole.
    #[test]
    fn a_text_and_a_query_make_the_same_terms() {
        assert_eq!(
            index_terms(Some("Bash"), "Migrating the CAFÉ's tables: café_v2 1.4.0"),
            "bash migrat the cafe s tabl cafe v2 1 4 0 "
        );
        assert_eq!(term("migrated"), "migrat");
        assert_eq!(term("Café"), "cafe");
        assert_eq!(term("2024"), "2024");
        assert_eq!(fold("naïve"), "naive");
        assert!(matches!(fold("plain"), Cow::Borrowed("plain")));
        assert_eq!(index_terms(None, "--- ... ---"), "");
    }

    /// A phrase holds where its terms stand together, by stem; not where
    /// they are apart or out of order.
    #[test]
    fn a_phrase_is_its_terms_one_after_another() {
        let p = |s: &str| vec![words(s).map(term).collect::<Vec<_>>()];
        let text = "It returns the value; parse_config(path) reads src/api/routes.ts";
        assert!(holds_phrases(text, &p("returns the values")));
        assert!(holds_phrases(text, &p("parse config")));
        assert!(holds_phrases(text, &p("api/routes.ts")));
        assert!(!holds_phrases(text, &p("returns value")));
        assert!(!holds_phrases(text, &p("config parse")));
        assert!(!holds_phrases(text, &p("routes ts js")));
        assert!(holds_phrases("a a b", &p("a b")));
        assert!(holds_phrases(text, &[]));
        let both = [p("parse config").remove(0), p("src api").remove(0)];
        assert!(holds_phrases(text, &both));
        let one = [p("parse config").remove(0), p("api src").remove(0)];
        assert!(!holds_phrases(text, &one));
    }
}
