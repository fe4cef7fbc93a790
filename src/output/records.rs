//! The JSON shapes commands print, field by field: the documented
//! contracts. Commands build their records here (or from these pieces);
//! the renderers in this module's siblings only lay them out.

use serde_json::{Map, Value, json};

use crate::clock::{Millis, format_instant};
use crate::store::reports::{SessionRow, Totals};

/// An instant as JSON: RFC 3339 UTC, or null when unknown.
pub fn time(v: Option<Millis>) -> Value {
    v.map_or(Value::Null, |t| Value::String(format_instant(t)))
}

/// Adds the token fields every report uses to a JSON object.
pub fn put_totals(o: &mut Map<String, Value>, t: &Totals) {
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
pub fn put_cost(o: &mut Map<String, Value>, t: &Totals) {
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

/// The JSON shape of a session (the documented contract).
pub fn session_json(s: &SessionRow) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("session_id".into(), json!(s.session_id));
    o.insert("harness".into(), json!(s.harness));
    o.insert("project".into(), json!(s.project));
    o.insert("project_slug".into(), json!(s.project_slug));
    o.insert("cwd".into(), json!(s.cwd));
    o.insert("git_branch".into(), json!(s.git_branch));
    o.insert("harness_version".into(), json!(s.harness_version));
    o.insert("started_at".into(), time(s.started_at));
    o.insert("last_activity_at".into(), time(s.last_activity_at));
    o.insert("status".into(), json!(s.status));
    o.insert("status_at".into(), time(s.status_at));
    o.insert("agents".into(), json!(s.agents));
    o.insert("models".into(), json!(s.models));
    put_totals(&mut o, &s.totals);
    o.insert("records".into(), json!(s.records));
    o.insert("unknown_records".into(), json!(s.unknown_records));
    o.insert("synthetic_messages".into(), json!(s.synthetic_messages));
    o.insert("degraded_lines".into(), json!(s.degraded_lines));
    o
}
