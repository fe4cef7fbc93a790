//! The stem cache: each folded word's stem, remembered per thread (the
//! same few thousand words make most of any text, and a lookup costs a
//! tenth of stemming), with the last text it was a term of, so that a
//! text gives each term once.

use std::collections::HashMap;

/// The most stems a thread keeps: past it, the cache starts again.
const STEMS_KEPT: usize = 100_000;

/// A hasher for the stem cache's longer words: a multiply and rotate per
/// eight bytes (the shape of rustc's `FxHasher`), several times quicker
/// than a general hash on words of a few dozen bytes.
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

/// A word of up to `SHORT` bytes as the stem cache's key: its bytes read
/// as two numbers (from both ends, overlapping: with its length they
/// give the word back, so two words are one key only when equal), and a
/// hash of them. Compared without a call to `memcmp`, and without the
/// word's own allocation.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Short {
    hash: u64,
    a: u64,
    b: u64,
    len: u8,
}

/// The longest word kept as a `Short` (longer ones are kept by their text).
const SHORT: usize = 16;

fn le8(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().expect("eight bytes"))
}

fn le4(b: &[u8]) -> u64 {
    u64::from(u32::from_le_bytes(b[..4].try_into().expect("four bytes")))
}

impl Short {
    fn of(w: &[u8]) -> Short {
        let n = w.len();
        debug_assert!(n <= SHORT);
        // Eight bytes from each end; four from each end; the first,
        // middle and last: every byte is read at least once.
        let (a, b) = if n >= 8 {
            (le8(w), le8(&w[n - 8..]))
        } else if n >= 4 {
            (le4(w) | le4(&w[n - 4..]) << 32, 0)
        } else if n > 0 {
            (
                u64::from(w[0]) | u64::from(w[n / 2]) << 8 | u64::from(w[n - 1]) << 16,
                0,
            )
        } else {
            (0, 0)
        };
        // Multiplies and rotations that lose nothing (each step is a
        // bijection but for mixing in `b`), then murmur3's finaliser: the
        // table's low bits and its tag's high bits depend on every byte.
        const K: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut h = (a.wrapping_mul(K).rotate_left(26) ^ b).wrapping_mul(K) ^ n as u64;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^= h >> 33;
        Short {
            hash: h,
            a,
            b,
            len: n as u8,
        }
    }
}

impl std::hash::Hash for Short {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// Passes a `Short`'s own hash on to the table.
#[derive(Default, Clone, Copy)]
struct Given(u64);

impl std::hash::Hasher for Given {
    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is called (`Short`'s hash); anything else is
        // still hashed, not lost.
        let mut h = WordHasher(self.0);
        h.write(bytes);
        self.0 = h.0;
    }

    fn write_u64(&mut self, h: u64) {
        self.0 = h;
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// A short word's stem and a space (the first `n` bytes of `term`), and
/// the last text (by `TEXTS`) it was a term of.
#[derive(Clone, Copy)]
struct Entry {
    term: [u8; SHORT],
    n: u8,
    last: u64,
}

/// Stems remembered per thread, by folded word: a short word's inline
/// (`Short`, `Entry`), a longer one's by its text, with the last text it
/// was a term of.
#[derive(Default)]
pub(super) struct Stems {
    short: HashMap<Short, Entry, std::hash::BuildHasherDefault<Given>>,
    long: HashMap<Box<str>, (Box<str>, u64), std::hash::BuildHasherDefault<WordHasher>>,
}

impl Stems {
    fn len(&self) -> usize {
        self.short.len() + self.long.len()
    }

    fn clear(&mut self) {
        self.short.clear();
        self.long.clear();
    }
}

/// Pushes the term of a folded word to `out`, and a space: its stem (a
/// number or version as it is; Snowball leaves words of one or two
/// letters alone). With `text` (the text's number), a word the text
/// already gave is not pushed again: whether it was is known from the
/// stem's own entry.
#[inline]
pub(super) fn push_term(stems: &mut Stems, folded: &str, text: Option<u64>, out: &mut Vec<u8>) {
    let w = folded.as_bytes();
    if w.first().is_some_and(u8::is_ascii_digit) {
        out.extend_from_slice(w);
        out.push(b' ');
        return;
    }
    if w.len() <= SHORT {
        let key = Short::of(w);
        if let Some(e) = stems.short.get_mut(&key) {
            if let Some(t) = text {
                if e.last == t {
                    return;
                }
                e.last = t;
            }
            // Sixteen bytes copied at once, then cut to the term.
            let at = out.len();
            out.extend_from_slice(&e.term);
            out.truncate(at + usize::from(e.n));
            return;
        }
    }
    push_new(stems, folded, text, out);
}

/// `push_term` of a word that is not a short one the cache holds.
#[inline(never)]
fn push_new(stems: &mut Stems, folded: &str, text: Option<u64>, out: &mut Vec<u8>) {
    let w = folded.as_bytes();
    // A short word whose stem and space do not fit inline (a word of
    // sixteen bytes the stemmer leaves whole) is kept by its text too.
    if let Some((stem, last)) = stems.long.get_mut(folded) {
        if let Some(t) = text {
            if *last == t {
                return;
            }
            *last = t;
        }
        out.extend_from_slice(stem.as_bytes());
        out.push(b' ');
        return;
    }
    let stem = if folded.len() <= 2 {
        folded.to_string()
    } else {
        crate::domain::matching::stem(folded)
    };
    out.extend_from_slice(stem.as_bytes());
    out.push(b' ');
    if stems.len() >= STEMS_KEPT {
        stems.clear();
    }
    let last = text.unwrap_or(0);
    if w.len() <= SHORT && stem.len() < SHORT {
        let mut term = [0; SHORT];
        term[..stem.len()].copy_from_slice(stem.as_bytes());
        term[stem.len()] = b' ';
        let n = stem.len() as u8 + 1;
        stems.short.insert(Short::of(w), Entry { term, n, last });
    } else {
        stems
            .long
            .insert(folded.into(), (stem.into_boxed_str(), last));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two words are one key of the stem cache only when they are equal:
    /// every word of up to twelve letters from two, and longer ones.
    #[test]
    fn short_keys_tell_words_apart() {
        let mut words: Vec<Vec<u8>> = vec![Vec::new()];
        for len in 1..=12 {
            for n in 0..1u32 << len {
                words.push((0..len).map(|i| b'a' + (n >> i & 1) as u8).collect());
            }
        }
        let mut next = crate::domain::test_draws(0x2d35_8dcc_aa6c_78a5_u64);
        for _ in 0..20_000 {
            let len = 13 + next(4);
            words.push((0..len).map(|_| b'a' + next(2) as u8).collect());
        }
        words.sort();
        words.dedup();
        let keys: std::collections::HashSet<_> = words
            .iter()
            .map(|w| {
                let k = Short::of(w);
                (k.a, k.b, k.len)
            })
            .collect();
        assert_eq!(keys.len(), words.len());
        let hashes: std::collections::HashSet<u64> =
            words.iter().map(|w| Short::of(w).hash).collect();
        assert_eq!(hashes.len(), words.len());
    }
}
