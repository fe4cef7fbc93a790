//! Needles (lowercase) to find in text whatever its ASCII case, all of
//! them, overlapping (a text is searched as it is, not lowercased first: a
//! copy of every text was a tenth of the redaction's time): an automaton
//! that fits how much this process searches. A contiguous NFA builds in
//! about 0.1 ms (a hook builds it for a few texts); once a process has
//! searched `TABLE_AFTER` texts (a bulk import searches every memory, a
//! search index build every text) it makes a table of its own from
//! aho-corasick's DFA, a few milliseconds, which searches a long text as
//! two halves at once (each byte's next state waits on the last, so one
//! walk leaves the processor idle between loads): about 1.7 times as fast
//! as the DFA, which was 1.5 to 2 times the NFA. All three find the same
//! matches.

use std::collections::HashMap;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use aho_corasick::automaton::{Automaton, StateID};
use aho_corasick::{AhoCorasick, Anchored, MatchKind};

pub(crate) struct Needles {
    words: Vec<Vec<u8>>,
    nfa: AhoCorasick,
    table: OnceLock<Table>,
    searched: AtomicUsize,
}

pub(super) const TABLE_AFTER: usize = 200;

impl Needles {
    pub(crate) fn new<S: AsRef<[u8]>>(words: &[S]) -> Needles {
        let words: Vec<Vec<u8>> = words.iter().map(|w| w.as_ref().to_vec()).collect();
        debug_assert!(
            words.iter().flatten().all(|b| !b.is_ascii_uppercase()),
            "needles are lowercase"
        );
        Needles {
            nfa: AhoCorasick::builder()
                .match_kind(MatchKind::Standard)
                .ascii_case_insensitive(true)
                .kind(Some(aho_corasick::AhoCorasickKind::ContiguousNFA))
                .build(&words)
                .expect("the needles build an automaton"),
            words,
            table: OnceLock::new(),
            searched: AtomicUsize::new(0),
        }
    }

    /// Calls `found(end, needle, len)` for every needle in `text`: where
    /// it ends, which (its index in `new`'s words) and its length, in
    /// no particular order.
    pub(crate) fn each(&self, text: &[u8], found: impl FnMut(usize, usize, usize)) {
        if let Some(t) = self.table() {
            return t.each(text, found);
        }
        let mut found = found;
        for m in self.nfa.find_overlapping_iter(text) {
            found(m.end(), m.pattern().as_usize(), m.len());
        }
    }

    /// The table, once this process has searched enough to want it.
    fn table(&self) -> Option<&Table> {
        if let Some(t) = self.table.get() {
            return Some(t);
        }
        if self.searched.fetch_add(1, Ordering::Relaxed) < TABLE_AFTER {
            return None;
        }
        Some(self.table.get_or_init(|| Table::new(&self.words)))
    }

    /// The needles, as given to `new`.
    pub(crate) fn words(&self) -> &[Vec<u8>] {
        &self.words
    }

    #[cfg(test)]
    pub(super) fn has_table(&self) -> bool {
        self.table.get().is_some()
    }
}

/// Every state a search can reach from `start`, in the order first
/// reached, and each one's number in that order.
fn reachable(
    dfa: &aho_corasick::dfa::DFA,
    start: StateID,
) -> (Vec<StateID>, HashMap<StateID, usize>) {
    let mut number: HashMap<StateID, usize> = HashMap::from([(start, 0)]);
    let mut states = vec![start];
    let mut at = 0;
    while let Some(&s) = states.get(at) {
        for b in 0..=255u8 {
            let n = dfa.next_state(Anchored::No, s, b);
            number.entry(n).or_insert_with(|| {
                states.push(n);
                states.len() - 1
            });
        }
        at += 1;
    }
    (states, number)
}

/// The needles' DFA as a table of our own: each state's row of next
/// states by byte class (the row's start, so a step is one addition and
/// one load), the states that end a needle numbered first (so a step tests
/// one comparison), and what each of those ends.
struct Table {
    class: [u8; 256],
    stride: usize,
    next: Vec<u32>,
    /// Rows below this start are states that end needles.
    ends_below: u32,
    /// Per such state: the needles it ends, with their lengths.
    ends: Vec<Vec<(usize, usize)>>,
    start: u32,
    /// The longest needle.
    longest: usize,
}

impl Table {
    fn new(words: &[Vec<u8>]) -> Table {
        let dfa = aho_corasick::dfa::DFA::builder()
            .match_kind(MatchKind::Standard)
            .ascii_case_insensitive(true)
            .build(words)
            .expect("the needles build a DFA");
        let start = dfa
            .start_state(Anchored::No)
            .expect("an unanchored search has a start");
        let (states, number) = reachable(&dfa, start);
        // Bytes every state treats alike share a class.
        let mut classes: HashMap<Vec<usize>, u8> = HashMap::new();
        let mut class = [0u8; 256];
        for b in 0..=255u8 {
            let column: Vec<usize> = states
                .iter()
                .map(|&s| number[&dfa.next_state(Anchored::No, s, b)])
                .collect();
            let fresh = u8::try_from(classes.len()).expect("at most 256 classes");
            class[usize::from(b)] = *classes.entry(column).or_insert(fresh);
        }
        let stride = classes.len();
        let mut example = vec![0u8; stride];
        for b in 0..=255u8 {
            example[usize::from(class[usize::from(b)])] = b;
        }
        // States that end needles first.
        let (ending, other): (Vec<usize>, Vec<usize>) =
            (0..states.len()).partition(|&i| dfa.is_match(states[i]));
        let mut row = vec![0; states.len()];
        for (r, &i) in ending.iter().chain(&other).enumerate() {
            row[i] = r;
        }
        let start_of = |i: usize| u32::try_from(row[i] * stride).expect("a table under 4 GiB");
        let mut next = vec![0; states.len() * stride];
        let mut ends = vec![Vec::new(); ending.len()];
        for (i, &s) in states.iter().enumerate() {
            for (c, &b) in example.iter().enumerate() {
                next[row[i] * stride + c] = start_of(number[&dfa.next_state(Anchored::No, s, b)]);
            }
            if let Some(e) = ends.get_mut(row[i]) {
                for k in 0..dfa.match_len(s) {
                    let p = dfa.match_pattern(s, k);
                    e.push((p.as_usize(), dfa.pattern_len(p)));
                }
            }
        }
        Table {
            class,
            stride,
            next,
            ends_below: u32::try_from(ending.len() * stride).expect("a table under 4 GiB"),
            ends,
            start: start_of(0),
            longest: words.iter().map(Vec::len).max().unwrap_or(0),
        }
    }

    #[inline(always)]
    fn step(&self, state: u32, byte: u8) -> u32 {
        self.next[state as usize + usize::from(self.class[usize::from(byte)])]
    }

    fn ended(&self, state: u32, end: usize, found: &mut impl FnMut(usize, usize, usize)) {
        for &(needle, len) in &self.ends[state as usize / self.stride] {
            found(end, needle, len);
        }
    }

    /// `Needles::each`: a long text as two halves walked side by side,
    /// the second begun early enough (the longest needle less one byte)
    /// to see every needle that ends in it, and reporting only those.
    fn each(&self, text: &[u8], mut found: impl FnMut(usize, usize, usize)) {
        let below = self.ends_below;
        let half = text.len() / 2;
        if half < 2 * self.longest + 32 {
            let mut s = self.start;
            for (i, &b) in text.iter().enumerate() {
                s = self.step(s, b);
                if s < below {
                    self.ended(s, i + 1, &mut found);
                }
            }
            return;
        }
        let from = half + 1 - self.longest;
        let (first, second) = (&text[..half], &text[from..]);
        let (mut a, mut b) = (self.start, self.start);
        for (i, (&x, &y)) in first.iter().zip(second).enumerate() {
            a = self.step(a, x);
            b = self.step(b, y);
            if a < below {
                self.ended(a, i + 1, &mut found);
            }
            if b < below && from + i + 1 > half {
                self.ended(b, from + i + 1, &mut found);
            }
        }
        for (i, &y) in second.iter().enumerate().skip(first.len()) {
            b = self.step(b, y);
            if b < below && from + i + 1 > half {
                self.ended(b, from + i + 1, &mut found);
            }
        }
    }
}
