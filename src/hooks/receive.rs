//! One hook delivery from bytes to the database: parse, detect the harness,
//! normalize, redact, key, store and apply its status, in one transaction.
//! Every `hook <event>` command records through here.

use anyhow::Result;

use super::{Harness, HookEvent, InputError, canonical, detect, event_key, normalize, parse_input};
use crate::clock::Millis;
use crate::store::Store;
use crate::store::events::{NewEvent, Recorded};

/// What the caller knows besides the bytes.
#[derive(Debug, Clone, Default)]
pub struct Delivery<'a> {
    pub harness: Option<Harness>,
    /// `--delivery-id` / `SESSIONKIT_DELIVERY_ID`; empty counts as absent.
    pub delivery_id: Option<&'a str>,
    /// The event the command stands for, when the payload names none.
    pub fallback_event: Option<&'a str>,
}

/// Parses `bytes` into an event (no database needed): `Ok(None)` when empty.
pub fn event_of(
    bytes: &[u8],
    d: &Delivery<'_>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Option<HookEvent>, InputError> {
    let Some(raw) = parse_input(bytes)? else {
        return Ok(None);
    };
    let harness = detect(d.harness, env, &raw);
    Ok(Some(normalize(harness, &raw, d.fallback_event)))
}

/// Stores a parsed event received at `now`, applying its status.
pub fn record(
    store: &mut Store,
    ev: &HookEvent,
    delivery_id: Option<&str>,
    now: Millis,
) -> Result<Recorded> {
    let delivery_id = delivery_id.filter(|d| !d.is_empty());
    let payload = canonical(&ev.payload);
    let key = event_key(ev, delivery_id);
    store.record_event(&NewEvent {
        key,
        has_delivery_id: delivery_id.is_some(),
        harness: ev.harness.as_str(),
        event: &ev.event,
        session_id: ev.session_id.as_deref(),
        agent_id: ev.agent_id.as_deref(),
        received_at: now,
        payload: &payload,
        target: ev.target(now),
    })
}
