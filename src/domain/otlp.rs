//! OpenTelemetry's wire shapes (OTLP/JSON, as the Collector's
//! `otlpjsonfile` receiver and OTLP/HTTP read them) for what sessionkit
//! backfills: Claude Code's own metrics, under its names, units, attribute
//! keys and temporality, and each session's agent tree as a trace. Pure:
//! figures in, JSON out.
//!
//! Claude Code's telemetry (its "Monitoring" documentation) counts
//! `claude_code.token.usage` (unit `tokens`, attribute `type`: `input`,
//! `output`, `cacheRead`, `cacheCreation`; and `model`) and
//! `claude_code.cost.usage` (unit `USD`; `model`) and
//! `claude_code.session.count` (unit `count`, one per session started), all monotonic sums with
//! delta temporality, every point carrying `session.id` (and, where known,
//! `app.version`, `terminal.type`, `user.*`, `organization.id`, which
//! transcripts do not hold). sessionkit adds `harness` (every agent it
//! reads, not Claude Code alone) and `sessionkit.backfill = true`.
//!
//! Trace and span ids are derived from session and agent ids (SHA-256),
//! so an export made twice is the same and a backend keeps one copy.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::domain::clock::Millis;

/// The instrumentation scope sessionkit writes under.
pub const SCOPE: &str = "sessionkit";

/// `aggregationTemporality` for delta sums (OTLP's enum value 1).
pub const DELTA: u8 = 1;

/// A metric's name and unit, as Claude Code writes it.
pub const TOKEN_USAGE: (&str, &str) = ("claude_code.token.usage", "tokens");
pub const COST_USAGE: (&str, &str) = ("claude_code.cost.usage", "USD");
pub const SESSION_COUNT: (&str, &str) = ("claude_code.session.count", "count");

/// The token types of `claude_code.token.usage`, in Claude Code's words.
pub const TOKEN_TYPES: [&str; 4] = ["input", "output", "cacheRead", "cacheCreation"];

fn digest(parts: &[&str]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    h.finalize().into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A session's trace id: 16 bytes, lowercase hex (OTLP/JSON writes ids as
/// hex, not base64).
pub fn trace_id(session_id: &str) -> String {
    hex(&digest(&["sessionkit.trace", session_id])[..16])
}

/// An agent's span id in its session's trace: 8 bytes, lowercase hex.
pub fn span_id(session_id: &str, agent_id: &str) -> String {
    hex(&digest(&["sessionkit.span", session_id, agent_id])[..8])
}

/// Nanoseconds since the epoch, as OTLP/JSON writes a 64-bit integer (a
/// string).
pub fn nanos(ms: Millis) -> String {
    (i128::from(ms) * 1_000_000).to_string()
}

/// A key-value attribute.
pub fn attr(key: &str, value: Value) -> Value {
    let v = match value {
        Value::String(s) => json!({ "stringValue": s }),
        Value::Bool(b) => json!({ "boolValue": b }),
        Value::Number(n) if n.is_i64() || n.is_u64() => json!({ "intValue": n.to_string() }),
        Value::Number(n) => json!({ "doubleValue": n.as_f64().unwrap_or(0.0) }),
        other => json!({ "stringValue": other.to_string() }),
    };
    json!({ "key": key, "value": v })
}

/// One point of a delta sum over `[start, end)`.
pub struct Point {
    pub attributes: Vec<Value>,
    pub start: Millis,
    pub end: Millis,
    pub value: PointValue,
}

/// A point's value: tokens count as integers, dollars as doubles.
pub enum PointValue {
    Int(u64),
    Double(f64),
}

/// A monotonic delta sum named `name` with `unit`, of `points`.
pub fn sum_metric(name: &str, unit: &str, description: &str, points: &[Point]) -> Value {
    let data: Vec<Value> = points
        .iter()
        .map(|p| {
            let mut d = json!({
                "attributes": p.attributes,
                "startTimeUnixNano": nanos(p.start),
                "timeUnixNano": nanos(p.end),
            });
            match p.value {
                PointValue::Int(n) => d["asInt"] = Value::String(n.to_string()),
                PointValue::Double(x) => d["asDouble"] = json!(x),
            }
            d
        })
        .collect();
    json!({
        "name": name,
        "unit": unit,
        "description": description,
        "sum": {
            "aggregationTemporality": DELTA,
            "isMonotonic": true,
            "dataPoints": data,
        }
    })
}

/// The resource every request names: the service, as Claude Code names its
/// own (`claude-code`), and the source.
pub fn resource(version: &str) -> Value {
    json!({
        "attributes": [
            attr("service.name", json!("claude-code")),
            attr("telemetry.sdk.name", json!("sessionkit")),
            attr("telemetry.sdk.version", json!(version)),
        ]
    })
}

/// An `ExportMetricsServiceRequest` of `metrics`.
pub fn metrics_request(version: &str, metrics: Vec<Value>) -> Value {
    let metrics = Value::Array(metrics);
    json!({
        "resourceMetrics": [{
            "resource": resource(version),
            "scopeMetrics": [{
                "scope": { "name": SCOPE, "version": version },
                "metrics": metrics,
            }]
        }]
    })
}

/// An `ExportTraceServiceRequest` of `spans`.
pub fn traces_request(version: &str, spans: Vec<Value>) -> Value {
    let spans = Value::Array(spans);
    json!({
        "resourceSpans": [{
            "resource": resource(version),
            "scopeSpans": [{
                "scope": { "name": SCOPE, "version": version },
                "spans": spans,
            }]
        }]
    })
}

/// An event of a span (a compaction).
pub struct SpanEvent {
    pub name: String,
    pub at: Millis,
    pub attributes: Vec<Value>,
}

/// One agent as a span of its session's trace.
pub struct Span<'a> {
    pub session_id: &'a str,
    pub agent_id: &'a str,
    pub parent_agent_id: Option<&'a str>,
    pub name: String,
    pub start: Millis,
    pub end: Millis,
    pub failed: bool,
    pub attributes: Vec<Value>,
    pub events: Vec<SpanEvent>,
}

/// A span as OTLP/JSON writes it (kind INTERNAL; status ERROR for an agent
/// that failed, else unset).
pub fn span(s: &Span<'_>) -> Value {
    let mut v = json!({
        "traceId": trace_id(s.session_id),
        "spanId": span_id(s.session_id, s.agent_id),
        "name": s.name,
        "kind": 1,
        "startTimeUnixNano": nanos(s.start),
        "endTimeUnixNano": nanos(s.end.max(s.start)),
        "attributes": s.attributes,
        "events": s.events.iter().map(|e| json!({
            "timeUnixNano": nanos(e.at),
            "name": e.name,
            "attributes": e.attributes,
        })).collect::<Vec<_>>(),
    });
    if let Some(p) = s.parent_agent_id {
        v["parentSpanId"] = Value::String(span_id(s.session_id, p));
    }
    if s.failed {
        v["status"] = json!({ "code": 2 });
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_derived_and_stable() {
        let t = trace_id("s1");
        assert_eq!(t.len(), 32);
        assert_eq!(t, trace_id("s1"));
        assert_ne!(t, trace_id("s2"));
        assert_eq!(span_id("s1", "a").len(), 16);
        assert_ne!(span_id("s1", "a"), span_id("s2", "a"));
        assert_eq!(nanos(1_500), "1500000000");
    }

    #[test]
    fn attributes_and_points_take_otlp_s_json_shapes() {
        assert_eq!(
            attr("n", json!(3)),
            json!({"key": "n", "value": {"intValue": "3"}})
        );
        assert_eq!(
            attr("x", json!(0.5)),
            json!({"key": "x", "value": {"doubleValue": 0.5}})
        );
        let m = sum_metric(
            TOKEN_USAGE.0,
            TOKEN_USAGE.1,
            "tokens",
            &[Point {
                attributes: vec![attr("type", json!("input"))],
                start: 0,
                end: 1,
                value: PointValue::Int(7),
            }],
        );
        assert_eq!(m["sum"]["dataPoints"][0]["asInt"], "7");
        assert_eq!(m["sum"]["aggregationTemporality"], 1);
    }
}
