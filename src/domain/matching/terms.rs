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

/// A hasher for the short words of the stem cache: a multiply and rotate
/// per eight bytes (the shape of rustc's `FxHasher`), several times
/// quicker than a general hash on words of a few bytes.
#[derive(Default, Clone, Copy)]
struct WordHasher(u64);

impl std::hash::Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x517c_c1b7_2722_0a95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("eight bytes"));
            self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(K);
        }
        // The last up to seven bytes, read without a copy: four from each
        // end when there are four (they may overlap), else the first,
        // middle and last.
        let rest = chunks.remainder();
        let n = rest.len();
        let four = |at: usize| {
            u64::from(u32::from_le_bytes(
                rest[at..at + 4].try_into().expect("four"),
            ))
        };
        let tail = if n >= 4 {
            four(0) << 32 | four(n - 4)
        } else if n > 0 {
            u64::from(rest[0]) << 16 | u64::from(rest[n / 2]) << 8 | u64::from(rest[n - 1])
        } else {
            0
        };
        self.0 = (self.0.rotate_left(5) ^ tail ^ bytes.len() as u64).wrapping_mul(K);
    }

    /// `str`'s hash ends with a 0xff byte, so that a tuple's strings
    /// stay apart; the cache's keys are single words: nothing to mix.
    #[inline]
    fn write_u8(&mut self, _: u8) {}

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A folded word's stem, and the last text (by `TEXTS`) it was a term of.
type Stems = HashMap<Box<str>, (Box<str>, u64), std::hash::BuildHasherDefault<WordHasher>>;

thread_local! {
    static STEMS: RefCell<Stems> = RefCell::new(Stems::default());
    /// Texts made into terms on this thread, numbering each.
    static TEXTS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Pushes the term of a folded word to `out`: its stem (a number or
/// version as it is; Snowball leaves words of one or two letters alone).
/// With `text` (the text's number), a word the text already gave is not
/// pushed again: whether it was is known from the stem's own entry.
/// Whether it pushed.
fn push_term(stems: &mut Stems, folded: &str, text: Option<u64>, out: &mut String) -> bool {
    if folded.starts_with(|c: char| c.is_ascii_digit()) {
        out.push_str(folded);
        return true;
    }
    if let Some((stem, last)) = stems.get_mut(folded) {
        if let Some(t) = text {
            if *last == t {
                return false;
            }
            *last = t;
        }
        out.push_str(stem);
        return true;
    }
    let stem = if folded.len() <= 2 {
        folded.to_string()
    } else {
        super::stem(folded)
    };
    out.push_str(&stem);
    if stems.len() >= STEMS_KEPT {
        stems.clear();
    }
    stems.insert(folded.into(), (stem.into_boxed_str(), text.unwrap_or(0)));
    true
}

/// The term of a word (folded and stemmed).
pub fn term(word: &str) -> String {
    let mut out = String::new();
    STEMS.with(|stems| push_term(&mut stems.borrow_mut(), &fold(word), None, &mut out));
    out
}

/// The words of a text: runs of letters and digits.
pub fn words(text: &str) -> Words<'_> {
    Words {
        text,
        at: 0,
        upper: false,
        wide: false,
    }
}

/// ASCII letters and digits, as a table (`UPPER` for a capital, 1 for
/// the rest, 0 for any other byte): every byte of a text is looked up.
static ALNUM: [u8; 128] = {
    let mut t = [0; 128];
    let mut c = 0;
    while c < 128 {
        let b = c as u8;
        t[c] = if b.is_ascii_uppercase() {
            UPPER
        } else if b.is_ascii_alphanumeric() {
            1
        } else {
            0
        };
        c += 1;
    }
    t
};

/// `ALNUM`'s mark of an upper-case ASCII letter.
const UPPER: u8 = 2;

/// The words of a text (`words`): read byte by byte where the text is
/// ASCII, character by character elsewhere.
#[derive(Clone)]
pub struct Words<'a> {
    text: &'a str,
    at: usize,
    /// The last word has an upper-case ASCII letter.
    upper: bool,
    /// The last word has a character that is not ASCII.
    wide: bool,
}

/// Whether the character at byte `i` of `text` (not ASCII: ASCII bytes
/// are looked up in `ALNUM` by the caller) is a letter or digit, and its
/// length.
#[cold]
fn alnum_char(text: &str, i: usize) -> (bool, usize) {
    let c = text[i..].chars().next().expect("a character starts here");
    (c.is_alphanumeric(), c.len_utf8())
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let b = self.text.as_bytes();
        let mut i = self.at;
        // Up to the next letter or digit, then to the next other character.
        let start = loop {
            match b.get(i) {
                None => {
                    self.at = i;
                    return None;
                }
                Some(&c) if c < 0x80 => {
                    if ALNUM[usize::from(c)] != 0 {
                        break i;
                    }
                    i += 1;
                }
                Some(_) => match alnum_char(self.text, i) {
                    (true, _) => break i,
                    (false, n) => i += n,
                },
            }
        };
        let (mut upper, mut wide) = (false, false);
        loop {
            match b.get(i) {
                Some(&c) if c < 0x80 => {
                    let k = ALNUM[usize::from(c)];
                    if k == 0 {
                        break;
                    }
                    upper |= k == UPPER;
                    i += 1;
                }
                Some(_) => match alnum_char(self.text, i) {
                    (true, n) => {
                        wide = true;
                        i += n;
                    }
                    (false, _) => break,
                },
                None => break,
            }
        }
        self.at = i;
        self.upper = upper;
        self.wide = wide;
        Some(&self.text[start..i])
    }
}

/// What the index holds for a text said by `tool` (its name's words
/// first): its terms, each once (the index keeps which texts hold a term,
/// not how often), each followed by a space.
pub fn index_terms(tool: Option<&str>, text: &str) -> String {
    let serial = TEXTS.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    terms_of(tool, text, Some(serial))
}

/// The terms of a text, in order, each followed by a space; with
/// `once` (the text's number), each term once.
fn terms_of(tool: Option<&str>, text: &str, once: Option<u64>) -> String {
    let mut out = String::with_capacity(text.len() / 2 + 16);
    let mut lower = String::new();
    STEMS.with(|stems| {
        let stems = &mut stems.borrow_mut();
        let mut push = |w: &str, upper: bool, wide: bool| {
            // An ASCII word is folded into one reused buffer; only a
            // word with other letters is folded by `fold`.
            let pushed = if wide {
                push_term(stems, &fold(w), once, &mut out)
            } else if upper {
                lower.clear();
                lower.push_str(w);
                lower.make_ascii_lowercase();
                push_term(stems, &lower, once, &mut out)
            } else {
                push_term(stems, w, once, &mut out)
            };
            if pushed {
                out.push(' ');
            }
        };
        for text in tool.into_iter().chain([text]) {
            let mut words = words(text);
            while let Some(w) = words.next() {
                push(w, words.upper, words.wide);
            }
        }
    });
    out
}

/// Whether `text` holds each phrase's terms one after another.
pub fn holds_phrases(text: &str, phrases: &[Vec<String>]) -> bool {
    let terms = terms_of(None, text, None);
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
    /// The words are the runs of letters and digits of any script, as
    /// splitting at every other character makes them.
    #[test]
    fn words_are_the_runs_of_letters_and_digits() {
        let pieces = [
            "ab", "Z9", " ", "-", "é", "日本", "ß", "\u{301}", "_", "\n", "٣", "🦀", "x",
        ];
        let mut next = crate::domain::test_draws(0x2545_f491_4f6c_dd1d_u64);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..next(12) {
                text.push_str(pieces[next(pieces.len())]);
            }
            seen.insert(text.clone());
            let split: Vec<&str> = text
                .split(|c: char| !c.is_alphanumeric())
                .filter(|w| !w.is_empty())
                .collect();
            assert_eq!(words(&text).collect::<Vec<_>>(), split, "{text:?}");
            // Each word's marks, and the terms they fold by, are the
            // word's own: an ASCII capital, a character past ASCII.
            let mut it = words(&text);
            while let Some(w) = it.next() {
                assert_eq!(it.upper, w.bytes().any(|b| b.is_ascii_uppercase()), "{w:?}");
                assert_eq!(it.wide, !w.is_ascii(), "{w:?}");
            }
            let each: String = split.iter().map(|w| term(w) + " ").collect();
            assert_eq!(terms_of(None, &text, None), each, "{text:?}");
        }
        assert!(seen.len() > 1500, "{} texts", seen.len());
        assert_eq!(
            words("Café, naïve 日本 x_y").collect::<Vec<_>>(),
            ["Café", "naïve", "日本", "x", "y"]
        );
    }

    #[test]
    fn a_text_and_a_query_make_the_same_terms() {
        assert_eq!(
            index_terms(Some("Bash"), "Migrating the CAFÉ's tables: café_v2 1.4.0"),
            "bash migrat the cafe s tabl v2 1 4 0 "
        );
        // Each term once per text, whatever its case; numbers as they come.
        assert_eq!(
            index_terms(None, "The cat and the hat, THE end: 7 7"),
            "the cat and hat end 7 7 "
        );
        assert_eq!(index_terms(None, "the cat"), "the cat ");
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
        // A term said twice still stands where it stands each time.
        assert!(holds_phrases("the cat and the hat", &p("the hat")));
        assert!(holds_phrases(text, &[]));
        let both = [p("parse config").remove(0), p("src api").remove(0)];
        assert!(holds_phrases(text, &both));
        let one = [p("parse config").remove(0), p("api src").remove(0)];
        assert!(!holds_phrases(text, &one));
    }
}
