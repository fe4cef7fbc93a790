//! The token counts a session's records state: each message's usage,
//! folded once however many records repeat it (streamed and multi-block
//! responses), unless the reader reads words alone.

use super::SessionParser;
use super::block::{observation, usage_parts};
use crate::domain::clock::Millis;
use crate::domain::transcript::usage::UsageObservation;
use crate::domain::transcript::wire::Record;

impl SessionParser {
    /// Whether token counts are read (they are unless this says not): a
    /// reader for the search index alone leaves them.
    pub fn read_usage(&mut self, on: bool) {
        self.usage = on;
    }

    /// One API response's usage, stated once in this session's own
    /// records (no billing facts beyond its tokens).
    pub(crate) fn add_response(
        &mut self,
        agent: &str,
        message_id: String,
        model: String,
        at: Option<Millis>,
        buckets: crate::domain::transcript::usage::Buckets,
    ) {
        let record_session_id = self.out.session_id.clone();
        self.add_usage(UsageObservation {
            message_id,
            agent_id: agent.to_string(),
            record_session_id,
            model,
            at,
            buckets,
            billing: crate::domain::transcript::usage::Billing::default(),
        });
    }

    pub(crate) fn add_usage(&mut self, obs: UsageObservation) {
        if !self.usage {
            return;
        }
        if let Some(&i) = self.usage_index.get(&obs.message_id) {
            self.out.usage[i].combine(&obs);
        } else {
            self.usage_index
                .insert(obs.message_id.clone(), self.out.usage.len());
            self.out.usage.push(obs);
        }
    }

    /// Folds a record's usage into its message: in place, without allocating,
    /// when the message was already seen (streamed and multi-block responses).
    pub(super) fn see_usage(&mut self, rec: &Record<'_>, agent: &str, at: Option<Millis>) {
        if !self.usage {
            return;
        }
        let Some((id, model, buckets, billing)) = usage_parts(rec) else {
            return;
        };
        if let Some(&i) = self.usage_index.get(id) {
            self.out.usage[i].combine_parts(buckets, model, at, billing);
            return;
        }
        if let Some(obs) = observation(rec, agent, &self.out.session_id, at) {
            self.usage_index
                .insert(obs.message_id.clone(), self.out.usage.len());
            self.out.usage.push(obs);
        }
    }

    /// Whether this part has already seen message `id`'s usage.
    pub(crate) fn knows_message(&self, id: &str) -> bool {
        self.usage_index.contains_key(id)
    }
}
