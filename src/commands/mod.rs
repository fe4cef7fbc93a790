//! One module per verb: arguments → a domain call → rendered result.

pub mod brief;
pub mod check;
pub mod completions;
pub mod config;
pub mod cost;
pub mod hook;
pub mod ingest;
pub mod man;
pub mod memory;
pub mod pricing;
pub mod prune;
pub mod replay;
pub mod session;
pub mod sessions;
pub mod show;
pub mod status;
pub mod sweep;
pub mod tree;

use std::path::PathBuf;

use anyhow::Result;
use serde_json::{Map, Value, json};

use crate::clock::{Millis, format_instant};
use crate::output::Output;
use crate::store::Store;
use crate::store::reports::Totals;

/// What every command that uses the database gets.
pub struct Ctx {
    pub db: PathBuf,
    pub out: Output,
}

impl Ctx {
    pub fn open(&self) -> Result<Store> {
        Store::open(&self.db)
    }

    /// `open` for a command that writes: it drains the hook spool first,
    /// being the next writer (`store::spool`). A drain that fails leaves the
    /// spool as it is, says so, and the command goes on.
    pub fn open_writer(&self) -> Result<Store> {
        let mut store = Store::open(&self.db)?;
        if let Err(e) = store.drain_spool() {
            self.out.note(&format!(
                "the hook spool was not drained ({e:#}); it is kept for the next writer"
            ));
        }
        Ok(store)
    }
}

/// Bytes as text, or an error naming where they came from and what was not
/// done (`{name} is not UTF-8 (invalid byte at offset N): {consequence}`).
pub(crate) fn utf8(bytes: Vec<u8>, name: &str, consequence: &str) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{name} is not UTF-8 (invalid byte at offset {}): {consequence}",
            e.utf8_error().valid_up_to()
        )
    })
}

/// All of stdin.
pub(crate) fn stdin_bytes() -> Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow::anyhow!("reading stdin: {e}"))?;
    Ok(bytes)
}

/// A flag's value, or all of stdin (as UTF-8) when the value is `-`.
pub(crate) fn value_or_stdin(v: &str, name: &str) -> Result<String> {
    if v != "-" {
        return Ok(v.to_string());
    }
    utf8(stdin_bytes()?, name, "nothing was written")
}

/// An instant as JSON: RFC 3339 UTC, or null when unknown.
/// The clock and watchdog window reports show statuses by (Decision 7:
/// a status whose last evidence is older than the window is not live).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Watch {
    pub now: Millis,
    pub window_ms: i64,
}

impl Watch {
    pub fn load(store: &Store) -> Result<Watch> {
        Ok(Watch {
            now: crate::clock::now(),
            window_ms: crate::settings::minutes_ms(store, "watchdog.minutes")?,
        })
    }

    /// The status to show for a stored one.
    pub fn status(&self, status: &str, at: Option<Millis>, last_seen: Option<Millis>) -> String {
        crate::status::shown(status, at, last_seen, self.now, self.window_ms).to_string()
    }
}

pub(crate) fn time(v: Option<Millis>) -> Value {
    v.map_or(Value::Null, |t| Value::String(format_instant(t)))
}

/// Adds the token fields every report uses to a JSON object.
pub(crate) fn put_totals(o: &mut Map<String, Value>, t: &Totals) {
    let b = t.tokens;
    o.insert("messages".into(), json!(t.messages));
    o.insert("input_tokens".into(), json!(b.input));
    o.insert("output_tokens".into(), json!(b.output));
    o.insert("cache_write_5m_tokens".into(), json!(b.cache_write_5m));
    o.insert("cache_write_1h_tokens".into(), json!(b.cache_write_1h));
    o.insert("cache_read_tokens".into(), json!(b.cache_read));
    o.insert("total_tokens".into(), json!(b.total()));
    put_cost(o, t);
}

/// `cost_usd` (rounded to 6 decimals, for people and jq), `cost_nanousd` (the
/// exact integer) and `unpriced_tokens`; the cost is null only when nothing in
/// the row is priced (Decision 4).
pub(crate) fn put_cost(o: &mut Map<String, Value>, t: &Totals) {
    let none_priced = t.priced_messages == 0 && t.messages > 0;
    o.insert(
        "cost_usd".into(),
        if none_priced {
            Value::Null
        } else {
            json!(crate::pricing::usd(t.cost_nanousd))
        },
    );
    o.insert(
        "cost_nanousd".into(),
        if none_priced {
            Value::Null
        } else {
            json!(t.cost_nanousd)
        },
    );
    o.insert("unpriced_tokens".into(), json!(t.unpriced_tokens));
}
