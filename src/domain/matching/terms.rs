//! The terms the transcript search index holds for a text, made where the
//! text is read (on a reader thread), so that the index's own tokenizer
//! only splits on spaces: each word (a run of letters and digits) case
//! folded, its diacritics removed, and stemmed (Snowball English). A
//! query's words become terms by the same functions, and a phrase is
//! checked against the text itself (`holds_phrases`): the index keeps which
//! texts hold a term, not where.

use std::borrow::Cow;
use std::cell::RefCell;

use unicode_normalization::UnicodeNormalization;

mod stems;

use stems::{Stems, push_term};

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

thread_local! {
    static STEMS: RefCell<Stems> = RefCell::new(Stems::default());
    /// Texts made into terms on this thread, numbering each.
    static TEXTS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The term of a word (folded and stemmed).
pub fn term(word: &str) -> String {
    let mut out = Vec::new();
    STEMS.with(|stems| push_term(&mut stems.borrow_mut(), &fold(word), None, &mut out));
    out.pop();
    String::from_utf8(out).expect("terms are text")
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

/// The words of a text (`words`): read sixteen bytes at a time where the
/// text is ASCII, character by character elsewhere.
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
/// are classed by `masks`) is a letter or digit, and its length.
#[cold]
fn alnum_char(text: &str, i: usize) -> (bool, usize) {
    let c = text[i..].chars().next().expect("a character starts here");
    (c.is_alphanumeric(), c.len_utf8())
}

/// Of the 16 bytes of `b` from `at` (those past its end read as 0), as
/// bits (bit k for the byte at `at + k`): the ASCII letters and digits,
/// the capitals among them, and the bytes that are not ASCII.
#[inline]
fn masks(b: &[u8], at: usize) -> (u32, u32, u32) {
    if let Some(c) = b.get(at..at + 16) {
        return classify(c.try_into().expect("sixteen bytes"));
    }
    let mut buf = [0; 16];
    let rest = &b[at.min(b.len())..];
    buf[..rest.len()].copy_from_slice(rest);
    classify(&buf)
}

/// `masks` of sixteen bytes, compared all at once (SSE2, which every
/// x86-64 processor has).
#[cfg(target_arch = "x86_64")]
#[inline]
#[allow(unsafe_code)]
fn classify(c: &[u8; 16]) -> (u32, u32, u32) {
    use std::arch::x86_64::{
        __m128i, _mm_add_epi8, _mm_cmplt_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set_epi64x,
        _mm_set1_epi8,
    };
    let half = |at: usize| i64::from_le_bytes(c[at..at + 8].try_into().expect("eight bytes"));
    // SAFETY: these take and give values only (no pointers), and need
    // SSE2, which x86-64 has in its baseline: every processor this code
    // is built for runs them.
    unsafe {
        let v = _mm_set_epi64x(half(8), half(0));
        // Whether a byte is in `from..from + n`: moved so that the range
        // starts at -128, then compared as signed.
        let within = |x: __m128i, from: u8, n: u8| {
            let moved = _mm_add_epi8(x, _mm_set1_epi8(0x80u8.wrapping_sub(from) as i8));
            _mm_cmplt_epi8(moved, _mm_set1_epi8((0x80u8 + n) as i8))
        };
        let letter = within(_mm_or_si128(v, _mm_set1_epi8(0x20)), b'a', 26);
        let alnum = _mm_or_si128(letter, within(v, b'0', 10));
        let bits = |x: __m128i| _mm_movemask_epi8(x) as u32;
        (bits(alnum), bits(within(v, b'A', 26)), bits(v))
    }
}

/// `masks` of sixteen bytes, one at a time.
#[cfg(not(target_arch = "x86_64"))]
fn classify(c: &[u8; 16]) -> (u32, u32, u32) {
    classify_bytes(c)
}

/// `classify`, one byte at a time: what other processors run (and what
/// the tests hold the SSE2 reading to).
#[cfg(any(test, not(target_arch = "x86_64")))]
fn classify_bytes(c: &[u8; 16]) -> (u32, u32, u32) {
    let (mut alnum, mut upper, mut wide) = (0, 0, 0);
    for (k, &b) in c.iter().enumerate() {
        alnum |= u32::from(b.is_ascii_alphanumeric()) << k;
        upper |= u32::from(b.is_ascii_uppercase()) << k;
        wide |= u32::from(!b.is_ascii()) << k;
    }
    (alnum, upper, wide)
}

impl<'a> Iterator for Words<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let b = self.text.as_bytes();
        let mut i = self.at;
        // Up to the next letter or digit, sixteen bytes at a time; a
        // character that is not ASCII is looked at on its own.
        let start = loop {
            if i >= b.len() {
                self.at = b.len();
                return None;
            }
            let (alnum, _, wide) = masks(b, i);
            let maybe = alnum | wide;
            if maybe == 0 {
                i += 16;
                continue;
            }
            let k = maybe.trailing_zeros();
            i += k as usize;
            if wide >> k & 1 == 0 {
                break i;
            }
            match alnum_char(self.text, i) {
                (true, _) => break i,
                (false, n) => i += n,
            }
        };
        // Then to the next other character.
        let (mut upper, mut wide) = (false, false);
        loop {
            let (alnum, capitals, other) = masks(b, i);
            let run = (!alnum).trailing_zeros();
            upper |= capitals & ((1 << run) - 1) != 0;
            i += run as usize;
            if run == 16 {
                continue;
            }
            if other >> run & 1 == 0 {
                break;
            }
            match alnum_char(self.text, i) {
                (true, n) => {
                    wide = true;
                    i += n;
                }
                (false, _) => break,
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
    let mut out = Vec::with_capacity(text.len() / 2 + 16);
    let mut lower = String::new();
    STEMS.with(|stems| {
        let stems = &mut stems.borrow_mut();
        let mut push = |w: &str, upper: bool, wide: bool| {
            // An ASCII word is folded into one reused buffer; only a
            // word with other letters is folded by `fold`.
            if wide {
                push_term(stems, &fold(w), once, &mut out);
            } else if upper {
                lower.clear();
                lower.push_str(w);
                lower.make_ascii_lowercase();
                push_term(stems, &lower, once, &mut out);
            } else {
                push_term(stems, w, once, &mut out);
            }
        };
        for text in tool.into_iter().chain([text]) {
            let mut words = words(text);
            while let Some(w) = words.next() {
                push(w, words.upper, words.wide);
            }
        }
    });
    String::from_utf8(out).expect("terms are text")
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
        // Long runs too: a word read over more than sixteen bytes, and
        // longer than the stem cache keeps inline.
        let pieces = [
            "ab",
            "Z9",
            " ",
            "-",
            "é",
            "日本",
            "ß",
            "\u{301}",
            "_",
            "\n",
            "٣",
            "🦀",
            "x",
            "Migrations",
            "abcdefghijklmnopq",
            "0123456789abcdef",
            "THE",
        ];
        // Stemmed without the cache, for the cache to be held to.
        let uncached = |w: &str| {
            let f = fold(w);
            if f.starts_with(|c: char| c.is_ascii_digit()) || f.len() <= 2 {
                f.into_owned()
            } else {
                super::super::stem(&f)
            }
        };
        let mut next = crate::domain::test_draws(0x2545_f491_4f6c_dd1d_u64);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..next(24) {
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
            let each: String = split.iter().map(|w| uncached(w) + " ").collect();
            assert_eq!(terms_of(None, &text, None), each, "{text:?}");
        }
        assert!(seen.len() > 1500, "{} texts", seen.len());
        assert_eq!(
            words("Café, naïve 日本 x_y").collect::<Vec<_>>(),
            ["Café", "naïve", "日本", "x", "y"]
        );
    }

    /// Sixteen bytes classed at once are classed as one at a time: every
    /// byte value at every place among the others.
    #[test]
    fn sixteen_bytes_at_once_class_as_one_at_a_time() {
        let mut next = crate::domain::test_draws(0x9e37_79b9_7f4a_7c15_u64);
        for b in 0..=255u8 {
            for k in 0..16 {
                let mut chunk = [0u8; 16];
                chunk.iter_mut().for_each(|c| *c = next(256) as u8);
                chunk[k] = b;
                assert_eq!(classify(&chunk), classify_bytes(&chunk), "{chunk:?}");
            }
        }
        let (alnum, upper, wide) = classify(b"aZ9_ \x80\xff@[`{/:0zA");
        assert_eq!(alnum, 0b1110_0000_0000_0111);
        assert_eq!(upper, 0b1000_0000_0000_0010);
        assert_eq!(wide, 0b0000_0000_0110_0000);
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
        // Each once, whether its stem is kept inline or by its text (a
        // word of sixteen letters the stemmer leaves whole, a longer one).
        let sixteen = "qwrtzpsdfghjklmn";
        assert_eq!(term(sixteen), sixteen);
        assert_eq!(
            index_terms(
                None,
                &format!("{sixteen} x {sixteen} qwrtzpsdfghjklmnvbcx x qwrtzpsdfghjklmnvbcx")
            ),
            format!("{sixteen} x qwrtzpsdfghjklmnvbcx ")
        );
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
