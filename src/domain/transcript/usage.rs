//! The counting rule: one row per API message id, every bucket the
//! maximum seen, the model of the record with the largest output (ties to the
//! lexicographically smallest model id), the time of the earliest record.
//!
//! `combine` is commutative and associative, so the result never depends on
//! the order records, files or sessions are read in.

use crate::domain::clock::Millis;

/// Token counts of one message, as the transcript states them.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Buckets {
    pub input: u64,
    pub output: u64,
    pub cache_write_5m: u64,
    pub cache_write_1h: u64,
    pub cache_read: u64,
    /// Of `output`, the tokens the model spent reasoning, where the
    /// transcript says (already inside `output`: never added to a total).
    #[serde(default)]
    pub reasoning: u64,
}

impl Buckets {
    pub fn max(self, o: Buckets) -> Buckets {
        Buckets {
            input: self.input.max(o.input),
            output: self.output.max(o.output),
            cache_write_5m: self.cache_write_5m.max(o.cache_write_5m),
            cache_write_1h: self.cache_write_1h.max(o.cache_write_1h),
            cache_read: self.cache_read.max(o.cache_read),
            reasoning: self.reasoning.max(o.reasoning),
        }
    }

    /// Adds, saturating (a sum is never wrapped).
    pub fn add(&mut self, o: Buckets) {
        self.input = self.input.saturating_add(o.input);
        self.output = self.output.saturating_add(o.output);
        self.cache_write_5m = self.cache_write_5m.saturating_add(o.cache_write_5m);
        self.cache_write_1h = self.cache_write_1h.saturating_add(o.cache_write_1h);
        self.cache_read = self.cache_read.saturating_add(o.cache_read);
        self.reasoning = self.reasoning.saturating_add(o.reasoning);
    }

    /// The buckets as the store's columns hold them: input, output, 5-minute
    /// write, 1-hour write, cache read, reasoning.
    pub fn columns(self) -> [i64; 6] {
        [
            self.input,
            self.output,
            self.cache_write_5m,
            self.cache_write_1h,
            self.cache_read,
            self.reasoning,
        ]
        .map(|v| i64::try_from(v).unwrap_or(i64::MAX))
    }

    pub fn total(self) -> u64 {
        [
            self.output,
            self.cache_write_5m,
            self.cache_write_1h,
            self.cache_read,
        ]
        .into_iter()
        .fold(self.input, u64::saturating_add)
    }
}

/// The buckets of an API `usage` object:
/// `cache_creation.ephemeral_5m/1h` when the object is there, else the flat
/// `cache_creation_input_tokens` as 5-minute writes; a missing count is 0.
pub(crate) fn buckets_of(u: &super::wire::Usage) -> Buckets {
    let (w5, w1) = match &u.cache_creation {
        Some(cc) => (
            cc.ephemeral_5m_input_tokens.unwrap_or(0),
            cc.ephemeral_1h_input_tokens.unwrap_or(0),
        ),
        None => (u.cache_creation_input_tokens.unwrap_or(0), 0),
    };
    Buckets {
        input: u.input_tokens.unwrap_or(0),
        output: u.output_tokens.unwrap_or(0),
        cache_write_5m: w5,
        cache_write_1h: w1,
        cache_read: u.cache_read_input_tokens.unwrap_or(0),
        // The API's usage does not say how much of the output was thinking.
        reasoning: 0,
    }
}

/// How a request is billed besides its tokens (Claude Code 2.1.3xx writes
/// these in `usage`): at the model's fast rates (`speed: "fast"`), with the
/// US-only inference multiplier (`inference_geo: "us"`), and per web search
/// (`server_tool_use.web_search_requests`). Every record of a message says
/// the same; combining takes the union and the largest count.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct Billing {
    pub fast: bool,
    pub us_only: bool,
    pub web_searches: u64,
}

impl Billing {
    pub fn merge(self, o: Billing) -> Billing {
        Billing {
            fast: self.fast || o.fast,
            us_only: self.us_only || o.us_only,
            web_searches: self.web_searches.max(o.web_searches),
        }
    }

    /// The flags as stored: bit 1 fast, bit 2 US-only; `None` for neither.
    pub fn flags(self) -> Option<i64> {
        let f = i64::from(self.fast) | (i64::from(self.us_only) << 1);
        (f != 0).then_some(f)
    }

    /// From the stored columns.
    pub fn from_columns(flags: Option<i64>, web_searches: Option<i64>) -> Billing {
        let f = flags.unwrap_or(0);
        Billing {
            fast: f & 1 != 0,
            us_only: f & 2 != 0,
            web_searches: web_searches.unwrap_or(0).max(0) as u64,
        }
    }
}

/// The billing facts of an API `usage` object.
pub(crate) fn billing_of(u: &super::wire::Usage) -> Billing {
    Billing {
        fast: u.speed.is_some_and(|s| s.0),
        us_only: u.inference_geo.is_some_and(|g| g.0),
        web_searches: u
            .server_tool_use
            .as_ref()
            .and_then(|t| t.web_search_requests)
            .unwrap_or(0),
    }
}

/// The largest token count a line may state: no API request carries a
/// billion tokens in one bucket (context windows are a few million), and
/// below this no sum of fewer than nine billion messages can overflow an
/// i64, nor can one message's cost at any listed rate. A larger count
/// (i64::MAX and past it included) makes its line a degraded line.
pub const MAX_TOKENS: u64 = 1_000_000_000;

/// The first count of a usage object over `MAX_TOKENS`, if any.
pub(crate) fn implausible(u: &super::wire::Usage) -> Option<u64> {
    let cc = u.cache_creation.as_ref();
    [
        u.input_tokens,
        u.output_tokens,
        u.cache_creation_input_tokens,
        u.cache_read_input_tokens,
        cc.and_then(|c| c.ephemeral_5m_input_tokens),
        cc.and_then(|c| c.ephemeral_1h_input_tokens),
        u.server_tool_use
            .as_ref()
            .and_then(|t| t.web_search_requests),
    ]
    .into_iter()
    .flatten()
    .find(|n| *n > MAX_TOKENS)
}

/// A message as one session's files show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageObservation {
    pub message_id: String,
    /// The agent whose records hold the message (first sighting in file order).
    pub agent_id: String,
    /// The `sessionId` the record itself carries. It differs from the session
    /// being parsed when a resumed or forked session copied earlier history.
    pub record_session_id: String,
    /// Model of the record with the largest output so far.
    pub model: String,
    /// Largest output seen with `model` (equals `buckets.output`).
    pub at: Option<Millis>,
    pub buckets: Buckets,
    pub billing: Billing,
}

impl UsageObservation {
    /// Folds a later sighting of the same message into this one.
    pub fn combine(&mut self, o: &UsageObservation) {
        debug_assert_eq!(self.message_id, o.message_id);
        self.combine_parts(o.buckets, &o.model, o.at, o.billing);
    }

    /// `combine` from borrowed parts (no allocation for a repeated record).
    pub fn combine_parts(
        &mut self,
        buckets: Buckets,
        model: &str,
        at: Option<Millis>,
        billing: Billing,
    ) {
        self.billing = self.billing.merge(billing);
        if better_model(buckets.output, model, self.buckets.output, &self.model) {
            self.model.clear();
            self.model.push_str(model);
        }
        self.buckets = self.buckets.max(buckets);
        self.at = match (self.at, at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

/// Whether a record with (`out_a`, `model_a`) settles the model over (`out_b`, `model_b`).
pub fn better_model(out_a: u64, model_a: &str, out_b: u64, model_b: &str) -> bool {
    out_a > out_b || (out_a == out_b && model_a < model_b)
}

/// The owner and merged value of a message seen by several sessions.
///
/// `obs` pairs each observing session with what it saw. The message belongs to
/// the session its own records name (`record_session_id == session`); when no
/// observing session names itself (the original was deleted before it was
/// ingested), to the smallest observing session id. Among several sessions that
/// each name themselves, the smallest id wins. Deterministic and order-free.
pub fn settle(obs: &[(String, UsageObservation)]) -> Option<(&str, UsageObservation)> {
    let owner = obs
        .iter()
        .filter(|(s, o)| *s == o.record_session_id)
        .map(|(s, o)| (s, o))
        .min_by(|a, b| a.0.cmp(b.0))
        .or_else(|| obs.iter().map(|(s, o)| (s, o)).min_by(|a, b| a.0.cmp(b.0)))?;
    let mut merged = owner.1.clone();
    for (_, o) in obs {
        merged.combine(o);
    }
    merged.agent_id.clone_from(&owner.1.agent_id);
    merged
        .record_session_id
        .clone_from(&owner.1.record_session_id);
    Some((owner.0.as_str(), merged))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn obs(model: &str, out: u64, input: u64, at: i64) -> UsageObservation {
        UsageObservation {
            message_id: "msg_1".into(),
            agent_id: "a".into(),
            record_session_id: "s".into(),
            model: model.into(),
            at: Some(at),
            buckets: Buckets {
                input,
                output: out,
                ..Buckets::default()
            },
            billing: Billing::default(),
        }
    }

    #[test]
    fn streaming_snapshot_keeps_largest_output_and_its_model() {
        // The first streamed partial can carry a transient model label
        //; the largest output settles it.
        let mut a = obs("claude-fable-5", 3, 10, 100);
        a.combine(&obs("claude-opus-4-8", 87, 10, 107));
        assert_eq!(a.model, "claude-opus-4-8");
        assert_eq!(a.buckets.output, 87);
        assert_eq!(a.at, Some(100));
    }

    #[test]
    fn tie_goes_to_smallest_model_id() {
        let mut a = obs("zeta", 5, 1, 1);
        a.combine(&obs("alpha", 5, 1, 1));
        assert_eq!(a.model, "alpha");
        let mut b = obs("alpha", 5, 1, 1);
        b.combine(&obs("zeta", 5, 1, 1));
        assert_eq!(b.model, "alpha");
    }

    #[test]
    fn copied_record_belongs_to_the_session_it_names() {
        let mut orig = obs("m", 5, 1, 1);
        orig.record_session_id = "s1".into();
        orig.agent_id = "s1".into();
        let mut copy = orig.clone();
        copy.agent_id = "s2".into();
        let set = vec![("s2".to_string(), copy.clone()), ("s1".to_string(), orig)];
        let (owner, m) = settle(&set).unwrap();
        assert_eq!((owner, m.agent_id.as_str()), ("s1", "s1"));
        // Without the original, the smallest observing session holds it.
        let (owner, _) = settle(&set[..1]).unwrap();
        assert_eq!(owner, "s2");
    }

    proptest! {
        #[test]
        fn combine_is_order_free(v in proptest::collection::vec((0u8..3, 0u64..50, 0u64..50, 0i64..9), 1..8)) {
            let models = ["b", "a", "c"];
            let items: Vec<_> = v.iter().map(|&(m, o, i, t)| obs(models[m as usize], o, i, t)).collect();
            let fold = |xs: &mut dyn Iterator<Item = &UsageObservation>| {
                let it = xs;
                let mut acc = it.next().unwrap().clone();
                for x in it { acc.combine(x); }
                acc
            };
            let fwd = fold(&mut items.iter());
            let rev = fold(&mut items.iter().rev());
            prop_assert_eq!(fwd.model, rev.model);
            prop_assert_eq!(fwd.buckets, rev.buckets);
            prop_assert_eq!(fwd.at, rev.at);
        }
    }
}
