//! The OpenTelemetry export: every counted message as Claude Code's token
//! and cost metrics (summed per session, model and hour, delta
//! temporality), every session's agent tree as a trace, in requests of a
//! bounded size; written as OTLP/JSON lines or sent to an OTLP/HTTP
//! endpoint, which gets each message once across runs.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::{Result, bail};
use serde_json::{Value, json};

use crate::domain::clock::Millis;
use crate::domain::otlp::{
    self, COST_USAGE, Point, PointValue, SESSION_COUNT, Span, SpanEvent, TOKEN_USAGE, attr,
};
use crate::domain::pricing::usd;
use crate::domain::text;
use crate::domain::transcript::Buckets;
use crate::services::report;
use crate::store::Store;
use crate::store::otlp::MessageRow;

/// Points or spans one request holds at most.
pub const BATCH: usize = 2000;

/// A metric point's period: the hour its messages fall in.
const HOUR: Millis = 3_600_000;

/// Which OTLP signal a request carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signal {
    Metrics,
    Traces,
}

impl Signal {
    /// The OTLP/HTTP path a request of this signal is posted to.
    pub fn path(self) -> &'static str {
        match self {
            Signal::Metrics => "/v1/metrics",
            Signal::Traces => "/v1/traces",
        }
    }
}

/// One request, and what it covers (recorded once an endpoint took it).
#[derive(Debug)]
pub struct Request {
    pub signal: Signal,
    pub body: Value,
    pub points: usize,
    pub spans: usize,
    pub messages: Vec<(String, String)>,
    pub sessions: Vec<(String, Option<Millis>)>,
}

/// The sums of one point group: a session's messages of one model in one
/// hour.
#[derive(Default)]
struct Group {
    tokens: Buckets,
    cost: i64,
    priced: bool,
    harness: String,
    version: Option<String>,
}

/// What every point says of where it comes from: its session, model (for
/// tokens and cost), agent, that it is a backfill, and the client's version
/// when known.
fn point_attributes(
    session: &str,
    model: Option<&str>,
    harness: &str,
    version: Option<&str>,
) -> Vec<Value> {
    let mut a = vec![attr("session.id", json!(session))];
    if let Some(m) = model {
        a.push(attr("model", json!(m)));
    }
    a.push(attr("harness", json!(harness)));
    a.push(attr("sessionkit.backfill", json!(true)));
    if let Some(v) = version {
        a.push(attr("app.version", json!(v)));
    }
    a
}

/// The metric points of `groups`: four token types and the cost for each.
fn points(groups: &BTreeMap<(String, String, Millis), Group>) -> (Vec<Point>, Vec<Point>) {
    let (mut tokens, mut costs) = (Vec::new(), Vec::new());
    for ((session, model, hour), g) in groups {
        let base = |extra: Option<(&str, &str)>| {
            let mut a = point_attributes(session, Some(model), &g.harness, g.version.as_deref());
            if let Some((k, v)) = extra {
                a.push(attr(k, json!(v)));
            }
            a
        };
        let t = &g.tokens;
        for (kind, n) in otlp::TOKEN_TYPES.iter().zip([
            t.input,
            t.output,
            t.cache_read,
            t.cache_write_5m + t.cache_write_1h,
        ]) {
            if n > 0 {
                tokens.push(Point {
                    attributes: base(Some(("type", kind))),
                    start: *hour,
                    end: hour + HOUR,
                    value: PointValue::Int(n),
                });
            }
        }
        if g.priced {
            costs.push(Point {
                attributes: base(None),
                start: *hour,
                end: hour + HOUR,
                value: PointValue::Double(usd(g.cost)),
            });
        }
    }
    (tokens, costs)
}

/// A metrics request's body of `groups`' points, and how many.
fn metrics_body(
    version: &str,
    groups: &BTreeMap<(String, String, Millis), Group>,
) -> (Value, usize) {
    let (tokens, costs) = points(groups);
    let n = tokens.len() + costs.len();
    let body = otlp::metrics_request(
        version,
        vec![
            otlp::sum_metric(
                TOKEN_USAGE.0,
                TOKEN_USAGE.1,
                "Number of tokens used",
                &tokens,
            ),
            otlp::sum_metric(
                COST_USAGE.0,
                COST_USAGE.1,
                "Cost of the Claude Code session",
                &costs,
            ),
        ],
    );
    (body, n)
}

/// The metrics requests: messages summed per session, model and hour, in
/// requests of at most `BATCH` points (a session's points stay together).
fn metric_requests(
    store: &Store,
    since: Option<Millis>,
    endpoint: Option<&str>,
    each: &mut dyn FnMut(Request) -> Result<()>,
) -> Result<()> {
    let version = env!("CARGO_PKG_VERSION");
    // The first failure of `each`: the rest of the messages are passed over.
    let mut failed: Option<anyhow::Error> = None;
    let mut groups: BTreeMap<(String, String, Millis), Group> = BTreeMap::new();
    let mut messages: Vec<(String, String)> = Vec::new();
    let mut current: Option<String> = None;
    let mut flush = |groups: &mut BTreeMap<(String, String, Millis), Group>,
                     messages: &mut Vec<(String, String)>,
                     failed: &mut Option<anyhow::Error>| {
        if groups.is_empty() || failed.is_some() {
            return;
        }
        let (body, n) = metrics_body(version, groups);
        let r = Request {
            signal: Signal::Metrics,
            body,
            points: n,
            spans: 0,
            messages: std::mem::take(messages),
            sessions: Vec::new(),
        };
        groups.clear();
        if let Err(e) = each(r) {
            *failed = Some(e);
        }
    };
    store.otlp_messages(since, endpoint, |m: MessageRow| {
        if failed.is_some() {
            return;
        }
        if current.as_deref() != Some(m.session_id.as_str()) {
            // A new session: the batch closes when it is full.
            if groups.len() * 5 >= BATCH {
                flush(&mut groups, &mut messages, &mut failed);
            }
            current = Some(m.session_id.clone());
        }
        let hour = m.at.unwrap_or(0).div_euclid(HOUR) * HOUR;
        let g = groups
            .entry((m.session_id.clone(), m.model.clone(), hour))
            .or_default();
        g.tokens.add(m.tokens);
        if let Some(c) = m.cost_nanousd {
            g.cost += c;
            g.priced = true;
        }
        g.harness = m.harness;
        g.version = m.version;
        messages.push((m.session_id, m.message_id));
    })?;
    flush(&mut groups, &mut messages, &mut failed);
    failed.map_or(Ok(()), Err)
}

/// `claude_code.session.count`: one per session, at its start, in
/// requests of at most `BATCH` points.
fn session_count_requests(
    store: &Store,
    since: Option<Millis>,
    endpoint: Option<&str>,
    each: &mut dyn FnMut(Request) -> Result<()>,
) -> Result<()> {
    let version = env!("CARGO_PKG_VERSION");
    let sessions = store.otlp_uncounted_sessions(since, endpoint)?;
    for chunk in sessions.chunks(BATCH) {
        let points: Vec<Point> = chunk
            .iter()
            .map(|s| {
                let at = s.started_at.unwrap_or(0);
                let attributes =
                    point_attributes(&s.session_id, None, &s.harness, s.version.as_deref());
                Point {
                    attributes,
                    start: at,
                    end: at,
                    value: PointValue::Int(1),
                }
            })
            .collect();
        each(Request {
            signal: Signal::Metrics,
            points: points.len(),
            body: otlp::metrics_request(
                version,
                vec![otlp::sum_metric(
                    SESSION_COUNT.0,
                    SESSION_COUNT.1,
                    "Count of CLI sessions started",
                    &points,
                )],
            ),
            spans: 0,
            messages: chunk
                .iter()
                .map(|s| {
                    (
                        s.session_id.clone(),
                        crate::store::otlp::SESSION_COUNTED.to_string(),
                    )
                })
                .collect(),
            sessions: Vec::new(),
        })?;
    }
    Ok(())
}

/// One session's agents as spans: each agent a span under its parent's,
/// from its first activity to its last, with its tokens, cost, models and
/// status, and a span event per compaction.
fn session_spans(store: &Store, session_id: &str) -> Result<Vec<Value>> {
    let d = report::session_detail(store, session_id)?;
    let joins: BTreeMap<String, Option<String>> = store
        .agent_nodes(session_id)?
        .into_iter()
        .map(|n| (n.agent_id, n.join_path))
        .collect();
    let mut spans = Vec::new();
    for a in &d.agents {
        let main = a.agent_id == session_id;
        let start = a.first_seen_at.or(d.session.started_at).unwrap_or(0);
        let end = a
            .last_seen_at
            .or(d.session.last_activity_at)
            .unwrap_or(start);
        let attributes =
            agent_attributes(session_id, &d.session.harness, a, joins.get(&a.agent_id));
        let events = d
            .compactions
            .iter()
            .filter(|c| c.agent_id == a.agent_id)
            .map(|c| SpanEvent {
                name: "compaction".into(),
                at: c.at.unwrap_or(start),
                attributes: [
                    c.trigger.as_ref().map(|x| attr("trigger", json!(x))),
                    c.pre_tokens.map(|n| attr("pre_tokens", json!(n))),
                ]
                .into_iter()
                .flatten()
                .collect(),
            })
            .collect();
        spans.push(otlp::span(&Span {
            session_id,
            agent_id: &a.agent_id,
            parent_agent_id: if main {
                None
            } else {
                Some(a.parent_agent_id.as_deref().unwrap_or(session_id))
            },
            name: if main {
                format!("session {}", d.session.harness)
            } else {
                format!("agent {}", a.agent_type.as_deref().unwrap_or("subagent"))
            },
            start,
            end,
            failed: a.status == "error",
            attributes,
            events,
        }));
    }
    Ok(spans)
}

/// A span's attributes: the agent, its tokens, cost, models and status,
/// and how its parent was found.
fn agent_attributes(
    session_id: &str,
    harness: &str,
    a: &crate::store::reports::AgentRow,
    join: Option<&Option<String>>,
) -> Vec<Value> {
    let t = &a.totals;
    let mut attributes = vec![
        attr("session.id", json!(session_id)),
        attr("agent.id", json!(a.agent_id)),
        attr("harness", json!(harness)),
        attr("status", json!(a.status)),
        attr("models", json!(a.models.join(","))),
        attr("input_tokens", json!(t.tokens.input)),
        attr("output_tokens", json!(t.tokens.output)),
        attr("cache_read_tokens", json!(t.tokens.cache_read)),
        attr(
            "cache_creation_tokens",
            json!(t.tokens.cache_write_5m + t.tokens.cache_write_1h),
        ),
        attr("cost_usd", json!(usd(t.cost_nanousd))),
    ];
    if let Some(k) = &a.agent_type {
        attributes.push(attr("agent.type", json!(k)));
    }
    if let Some(desc) = &a.description {
        attributes.push(attr("agent.description", json!(desc)));
    }
    if let Some(Some(j)) = join {
        attributes.push(attr("join_path", json!(j)));
    }
    attributes
}

/// The traces requests: sessions' spans, at most `BATCH` spans a request
/// (a session's spans stay together).
fn trace_requests(
    store: &Store,
    since: Option<Millis>,
    endpoint: Option<&str>,
    each: &mut dyn FnMut(Request) -> Result<()>,
) -> Result<()> {
    let version = env!("CARGO_PKG_VERSION");
    let mut spans: Vec<Value> = Vec::new();
    let mut sessions = Vec::new();
    for (sid, last) in store.otlp_sessions(since, endpoint)? {
        let mut more = session_spans(store, &sid)?;
        if !spans.is_empty() && spans.len() + more.len() > BATCH {
            each(Request {
                signal: Signal::Traces,
                spans: spans.len(),
                body: otlp::traces_request(version, std::mem::take(&mut spans)),
                points: 0,
                messages: Vec::new(),
                sessions: std::mem::take(&mut sessions),
            })?;
        }
        spans.append(&mut more);
        sessions.push((sid, last));
    }
    if !sessions.is_empty() {
        each(Request {
            signal: Signal::Traces,
            spans: spans.len(),
            body: otlp::traces_request(version, spans),
            points: 0,
            messages: Vec::new(),
            sessions,
        })?;
    }
    Ok(())
}

/// Every request of an export since `since`, one at a time as it is built
/// (a large store is never held as JSON at once): metrics, then traces.
/// With `endpoint`, only what it has not taken yet. The first error of
/// `each` stops it.
pub fn each_request(
    store: &Store,
    since: Option<Millis>,
    endpoint: Option<&str>,
    each: &mut dyn FnMut(Request) -> Result<()>,
) -> Result<()> {
    metric_requests(store, since, endpoint, each)?;
    session_count_requests(store, since, endpoint, each)?;
    trace_requests(store, since, endpoint, each)
}

/// Headers for the endpoint: `OTEL_EXPORTER_OTLP_HEADERS` (`k=v,k2=v2`,
/// values URL-decoded as the OpenTelemetry specification says), then the
/// command line's.
pub fn headers(env: Option<&str>, given: &[String]) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for pair in env
        .unwrap_or("")
        .split(',')
        .filter(|p| !p.trim().is_empty())
        .chain(given.iter().map(String::as_str))
    {
        let Some((k, v)) = pair.split_once('=') else {
            bail!("header {pair:?} is not KEY=VALUE");
        };
        let v = percent_decode(v.trim());
        out.push((k.trim().to_string(), v));
    }
    Ok(out)
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(h) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(h);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Tries before a request is given up, and the first wait (doubled each
/// time).
pub const ATTEMPTS: u32 = 4;
const FIRST_WAIT: Duration = Duration::from_millis(250);

/// An OTLP/HTTP endpoint: the URL requests go to, the same URL with its
/// password masked (every message shows that), and without its user
/// information at all (what the database records sent under).
#[derive(Debug, Clone)]
pub struct Endpoint {
    url: String,
    /// The URL as shown: a password masked.
    pub shown: String,
    /// The URL as stored: no user information.
    pub key: String,
}

impl Endpoint {
    /// Reads `--otlp-endpoint`: an `http://` or `https://` URL.
    pub fn parse(url: &str) -> Result<Endpoint> {
        let url = url.trim();
        let shown = text::mask_url(url);
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            bail!("--otlp-endpoint {shown:?} is not an http:// or https:// URL");
        }
        Ok(Endpoint {
            url: url.trim_end_matches('/').to_string(),
            key: text::url_without_userinfo(url)
                .trim_end_matches('/')
                .to_string(),
            shown,
        })
    }
}

/// At most this much of a refusing endpoint's answer is read, and this
/// many characters of it shown (control characters escaped).
const ANSWER_READ: u64 = 4096;
const ANSWER_SHOWN: usize = 200;

/// How one try ended, when it did not deliver.
enum Failed {
    /// Worth another try: no connection, a timeout, a 429 or a 5xx.
    Retry(String),
    /// Final: a refusal or a redirect.
    Final(String),
}

/// Posts `r` to `endpoint` as OTLP/HTTP JSON, retrying a failed connection,
/// a 429 or a 5xx with backoff. Only a 2xx delivers: a redirect is an error
/// that names where it points (never followed, so no header reaches
/// another origin), any other refusal is an error at once.
pub fn send(endpoint: &Endpoint, headers: &[(String, String)], r: &Request) -> Result<()> {
    let path = r.signal.path();
    let body = r.body.to_string();
    let agent = ureq::AgentBuilder::new()
        .timeout_connect(Duration::from_secs(10))
        .timeout(Duration::from_secs(30))
        .redirects(0)
        .build();
    let mut wait = FIRST_WAIT;
    let mut last = String::new();
    for attempt in 1..=ATTEMPTS {
        match try_once(&agent, endpoint, path, headers, &body) {
            Ok(()) => return Ok(()),
            Err(Failed::Final(e)) => bail!("{}{path} {e}", endpoint.shown),
            Err(Failed::Retry(e)) => last = e,
        }
        if attempt < ATTEMPTS {
            std::thread::sleep(wait);
            wait *= 2;
        }
    }
    bail!(
        "{}{path}: no answer after {ATTEMPTS} tries: {last}",
        endpoint.shown
    )
}

fn try_once(
    agent: &ureq::Agent,
    endpoint: &Endpoint,
    path: &str,
    headers: &[(String, String)],
    body: &str,
) -> Result<(), Failed> {
    let mut req = agent
        .post(&format!("{}{path}", endpoint.url))
        .set("Content-Type", "application/json");
    for (k, v) in headers {
        req = req.set(k, v);
    }
    let (code, resp) = match req.send_string(body) {
        Ok(resp) => (resp.status(), resp),
        Err(ureq::Error::Status(code, resp)) => (code, resp),
        Err(ureq::Error::Transport(t)) => {
            let why = t
                .message()
                .map_or_else(|| t.kind().to_string(), |m| format!("{}: {m}", t.kind()));
            return Err(Failed::Retry(text::sanitize(&text::mask_url(&why))));
        }
    };
    if (200..300).contains(&code) {
        return Ok(());
    }
    if (300..400).contains(&code) {
        let to = resp.header("location").map_or_else(
            || "nowhere".to_string(),
            |l| text::sanitize(&text::mask_url(l)),
        );
        return Err(Failed::Final(format!(
            "answered HTTP {code}, a redirect to {to}: nothing was sent there; give that URL as --otlp-endpoint if it is the collector"
        )));
    }
    let mut bytes = Vec::new();
    let _ = std::io::Read::read_to_end(
        &mut std::io::Read::take(resp.into_reader(), ANSWER_READ),
        &mut bytes,
    );
    let answer: String = String::from_utf8_lossy(&bytes)
        .trim()
        .chars()
        .take(ANSWER_SHOWN)
        .collect();
    let answer = text::sanitize(&answer);
    if code == 429 || code >= 500 {
        return Err(Failed::Retry(format!("HTTP {code} {answer}")));
    }
    Err(Failed::Final(format!(
        "refused the request: HTTP {code} {answer}"
    )))
}
