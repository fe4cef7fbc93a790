//! One hook delivery from bytes to the database: parse, detect the harness,
//! normalize, redact, key, store and apply its status, in one transaction.
//! Every `hook <event>` command records through here.

use std::path::Path;
use std::time::Instant;

use anyhow::Result;

use crate::domain::clock::Millis;
use crate::domain::harness::{
    Harness, HookEvent, InputError, canonical, detect, event_key, normalize, parse_input,
};
use crate::store::events::NewEvent;
use crate::store::{Store, retry_busy, spool};

/// What the caller knows besides the bytes.
#[derive(Debug, Clone, Default)]
pub struct Delivery<'a> {
    pub harness: Option<Harness>,
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

/// What became of a delivery.
pub enum Delivered {
    /// In the database (the store stays open for the hook's other work).
    Stored(Box<Store>),
    /// The database could not take it within the budget: it waits in the
    /// spool. The error is why.
    Spooled(anyhow::Error),
}

/// Records `ev` in the database at `db` before `deadline` (draining the
/// spool first, so spooled events keep their order), retrying lock errors,
/// and runs `then` in the event's own write transaction (what the hook
/// writes besides); when that fails, appends the event to the spool (and
/// `then` does not run). Fails only when the spool cannot be written
/// either: then the event is lost, and the error says so.
pub fn deliver(
    db: &Path,
    ev: &HookEvent,
    delivery_id: Option<&str>,
    now: Millis,
    deadline: Instant,
    then: impl Fn(&rusqlite::Transaction<'_>) -> Result<()>,
) -> Result<Delivered> {
    with_row(ev, delivery_id, now, |row| {
        let stored = retry_busy(deadline, |left| {
            let mut store = Store::open_waiting(db, left)?;
            // A spool that cannot be drained (busy aside) never keeps the
            // event from the database: `status` reports the spool.
            if let Err(e) = store.drain_spool()
                && crate::store::is_busy(&e)
            {
                return Err(e);
            }
            store.record_event_then(row, &then)?;
            Ok(store)
        });
        match stored {
            Ok(store) => {
                // While the disk has room: the ledger a lost event is
                // counted in (one look when it is there).
                let _ = spool::prepare_ledger(db);
                Ok(Delivered::Stored(Box::new(store)))
            }
            Err(why) => match spool::append(db, row, spool::max_bytes(db)) {
                Ok(_) => Ok(Delivered::Spooled(why)),
                Err(e) => {
                    let counted = match spool::count_lost(db) {
                        Ok(at) => {
                            format!("counted in {}, which status and check report", at.display())
                        }
                        Err(c) => format!("not even counted ({c:#})"),
                    };
                    Err(why.context(format!(
                        "the event is lost, {counted}: the spool failed too ({e:#})"
                    )))
                }
            },
        }
    })
}

/// The `events_raw` row for `ev`, handed to `f`.
fn with_row<T>(
    ev: &HookEvent,
    delivery_id: Option<&str>,
    now: Millis,
    f: impl FnOnce(&NewEvent<'_>) -> T,
) -> T {
    let delivery_id = delivery_id.filter(|d| !d.is_empty());
    let sender = crate::domain::harness::sender::sender();
    let payload = canonical(&ev.payload);
    f(&NewEvent {
        key: event_key(
            ev,
            delivery_id,
            delivery_id
                .is_none()
                .then(crate::domain::harness::sender::client)
                .flatten()
                .as_deref(),
        ),
        has_delivery_id: delivery_id.is_some(),
        harness: ev.harness.as_str(),
        event: &ev.event,
        session_id: ev.session_id.as_deref(),
        agent_id: ev.agent_id.as_deref(),
        received_at: now,
        payload: &payload,
        target: ev.target(now),
        sender: sender.as_deref(),
    })
}
