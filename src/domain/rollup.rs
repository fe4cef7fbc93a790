//! The report rollup: counted messages summed per agent, model and UTC hour
//! (the `usage_rollup` table, migration 0001). The one statement of the
//! rule: a whole session summed, a part's change moved in, and a recount
//! after repricing or pruning all go through [`Sums::count`].

use std::collections::BTreeMap;

/// A rollup row's key: agent, model, and the hour of [`hour_of`].
pub type Key = (String, String, i64);

/// Rollup rows summed in memory.
pub type Rollup = BTreeMap<Key, Sums>;

/// The rollup's hour of a time: whole hours since the epoch, -1 for none
/// (or a time before the epoch), so days of any zone whose offset is whole
/// hours come from the rollup.
pub fn hour_of(at: Option<i64>) -> i64 {
    at.filter(|t| *t >= 0).map_or(-1, |t| t / 3_600_000)
}

/// The key a counted message is summed under.
pub fn key(agent: &str, model: &str, at: Option<i64>) -> Key {
    (agent.to_string(), model.to_string(), hour_of(at))
}

/// One counted message as the rollup sees it.
#[derive(Debug, Clone, Copy)]
pub struct Counted<'a> {
    /// The agent that made the call (the session id for the main agent).
    pub agent: &'a str,
    pub model: &'a str,
    pub at: Option<i64>,
    /// Input, output, 5-minute cache write, 1-hour cache write, cache
    /// read, and reasoning (part of the output, so never summed with them).
    pub tokens: [i64; 6],
    /// Nano-dollars; `None` when the model has no price.
    pub cost: Option<i64>,
}

/// Sums the counted messages of one session. Grouped under borrowed keys
/// first: one owned key per row of the result, not per message.
pub fn sum<'a>(rows: impl IntoIterator<Item = Counted<'a>>) -> Rollup {
    let mut groups: BTreeMap<(&str, &str, i64), Sums> = BTreeMap::new();
    for r in rows {
        groups
            .entry((r.agent, r.model, hour_of(r.at)))
            .or_default()
            .count(r.tokens, r.cost, r.at, 1);
    }
    groups
        .into_iter()
        .map(|((agent, model, hour), s)| ((agent.to_string(), model.to_string(), hour), s))
        .collect()
}

/// Adds one counted message to its row.
pub fn add(rollup: &mut Rollup, r: Counted<'_>) {
    rollup
        .entry(key(r.agent, r.model, r.at))
        .or_default()
        .count(r.tokens, r.cost, r.at, 1);
}

/// One rollup row's sums (or a change to them).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Sums {
    pub messages: i64,
    /// In the order of [`Counted::tokens`].
    pub tokens: [i64; 6],
    /// Messages with a price.
    pub priced: i64,
    /// Nano-dollars of the priced messages.
    pub cost: i64,
    /// Tokens of the messages without a price.
    pub unpriced: i64,
    pub first: Option<i64>,
    pub last: Option<i64>,
}

impl Sums {
    /// Adds one counted message (`sign` 1) or takes it away (-1); only an
    /// added message moves the first and last times.
    pub fn count(&mut self, tokens: [i64; 6], cost: Option<i64>, at: Option<i64>, sign: i64) {
        self.messages += sign;
        for (acc, t) in self.tokens.iter_mut().zip(tokens) {
            *acc += sign * t;
        }
        match cost {
            Some(c) => {
                self.priced += sign;
                self.cost += sign * c;
            }
            // The five buckets; reasoning is inside the output already.
            None => self.unpriced += sign * tokens[..5].iter().sum::<i64>(),
        }
        if sign > 0
            && let Some(a) = at
        {
            self.first = Some(self.first.map_or(a, |f| f.min(a)));
            self.last = Some(self.last.map_or(a, |l| l.max(a)));
        }
    }

    /// Adds a change summed apart (messages counted in or out) to these
    /// sums. The first and last times only widen: a caller that takes a
    /// message away from a group recounts the group instead.
    pub fn absorb(&mut self, change: &Sums) {
        self.messages += change.messages;
        for (acc, t) in self.tokens.iter_mut().zip(change.tokens) {
            *acc += t;
        }
        self.priced += change.priced;
        self.cost += change.cost;
        self.unpriced += change.unpriced;
        self.first = widen(self.first, change.first, i64::min);
        self.last = widen(self.last, change.last, i64::max);
    }
}

fn widen(a: Option<i64>, b: Option<i64>, pick: fn(i64, i64) -> i64) -> Option<i64> {
    match (a, b) {
        (Some(x), Some(y)) => Some(pick(x, y)),
        (x, y) => x.or(y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row<'a>(agent: &'a str, at: Option<i64>, cost: Option<i64>) -> Counted<'a> {
        Counted {
            agent,
            model: "m",
            at,
            tokens: [1, 2, 3, 4, 5, 1],
            cost,
        }
    }

    #[test]
    fn hours_are_whole_hours_since_the_epoch_and_minus_one_without_a_time() {
        assert_eq!(hour_of(Some(0)), 0);
        assert_eq!(hour_of(Some(3_599_999)), 0);
        assert_eq!(hour_of(Some(3_600_000)), 1);
        assert_eq!(hour_of(None), -1);
        assert_eq!(hour_of(Some(-5)), -1);
    }

    #[test]
    fn a_session_sums_by_agent_model_and_hour_with_unpriced_tokens_apart() {
        let r = sum([
            row("s", Some(10), Some(7)),
            row("s", Some(20), None),
            row("s", Some(3_600_000), Some(1)),
            row("a", None, Some(2)),
        ]);
        assert_eq!(r.len(), 3);
        let first = &r[&key("s", "m", Some(0))];
        assert_eq!(
            *first,
            Sums {
                messages: 2,
                tokens: [2, 4, 6, 8, 10, 2],
                priced: 1,
                cost: 7,
                // Reasoning is inside the output: not counted again.
                unpriced: 15,
                first: Some(10),
                last: Some(20),
            }
        );
        assert_eq!(r[&key("a", "m", None)].first, None);
        assert_eq!(r[&key("s", "m", Some(3_600_000))].cost, 1);
    }

    #[test]
    fn absorbing_a_change_equals_summing_everything_at_once() {
        let all = sum([row("s", Some(30), Some(1)), row("s", Some(10), None)]);
        let mut stored = sum([row("s", Some(30), Some(1))]);
        let change = sum([row("s", Some(10), None)]);
        for (k, c) in &change {
            stored.entry(k.clone()).or_default().absorb(c);
        }
        assert_eq!(stored, all);
        let mut timeless = Sums::default();
        timeless.absorb(&all[&key("s", "m", Some(0))]);
        assert_eq!((timeless.first, timeless.last), (Some(10), Some(30)));
    }

    #[test]
    fn taking_a_message_away_undoes_its_sums_but_not_its_times() {
        let mut s = Sums::default();
        s.count([1, 1, 1, 1, 1, 0], None, Some(5), 1);
        s.count([2, 0, 0, 0, 0, 0], Some(9), Some(6), 1);
        s.count([1, 1, 1, 1, 1, 0], None, Some(5), -1);
        assert_eq!(
            s,
            Sums {
                messages: 1,
                tokens: [2, 0, 0, 0, 0, 0],
                priced: 1,
                cost: 9,
                unpriced: 0,
                first: Some(5),
                last: Some(6),
            }
        );
    }
}
