//! The MCP server's tools: each is the CLI command line an agent's call
//! stands for, run read-only with its JSON captured (`run_captured`). A
//! tool's input is checked against its declared shape before anything
//! runs; its result is the CLI's JSON, bounded in size, with the notes the
//! CLI would print on stderr.

use std::path::Path;
use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// What the server tells a client about its tools as a whole.
pub const INSTRUCTIONS: &str = "sessionkit's record of this machine's coding-agent sessions, read-only: what was said in them (search), the memories (recall, memories), sessions and what they cost (sessions, show, cost), and the briefing a new session starts with (brief). Calls that take a project default to the project of the directory the server runs in; all_projects widens them.";

/// Longest text of one piece of a conversation (`show` with `at`).
const PIECE_CHARS: usize = 2_000;

/// How a call fails.
#[derive(Debug)]
pub enum Failure {
    /// The arguments do not fit the tool (a JSON-RPC error).
    Arguments(String),
    /// No tool has this name (a JSON-RPC error).
    Unknown(String),
    /// The command ran and failed (a tool result marked as an error).
    Command(String),
}

/// A call's answer: `{"result": the CLI's JSON, "notes": [...], "cut":
/// null or {"shown", "of"}}`.
#[derive(Debug)]
pub struct Answer {
    pub structured: Value,
}

/// What every call knows.
pub struct Call<'a> {
    pub db: &'a Path,
    /// The server's project (its directory's, or `--project`).
    pub project: Option<&'a str>,
    pub max_bytes: usize,
}

/// The command lines a call stands for, or why its arguments do not fit.
type Lines = Result<Vec<Vec<String>>, Failure>;

/// A tool: its name, what it is for, its input's shape, the published
/// schema of its records, and the command lines a call stands for.
struct Spec {
    name: &'static str,
    about: &'static str,
    input: fn() -> Value,
    output: fn() -> Value,
    argv: fn(&Call<'_>, Value) -> Lines,
}

const TOOLS: &[Spec] = &[
    Spec {
        name: "search",
        about: "Find what users, agents and tools said in past sessions, by words (every word must be there, in any form; \"quoted words\" as a phrase; an identifier or path as one). Each hit names its session and record: `show` with `at` gives the conversation around it.",
        input: schema_of::<SearchArgs>,
        output: || listed("search"),
        argv: search_argv,
    },
    Spec {
        name: "recall",
        about: "Search the memories (decisions, commitments, constraints, facts...) by words, best first; live ones only unless all is true.",
        input: schema_of::<RecallArgs>,
        output: || listed("recall"),
        argv: recall_argv,
    },
    Spec {
        name: "memories",
        about: "A project's open commitments and its constraints, with their content; or the memories of one kind (and status).",
        input: schema_of::<MemoriesArgs>,
        output: || listed("memories"),
        argv: memories_argv,
    },
    Spec {
        name: "sessions",
        about: "Recent sessions, most recent first, each with its title, agent, status, tokens and cost.",
        input: schema_of::<SessionsArgs>,
        output: || listed("sessions"),
        argv: sessions_argv,
    },
    Spec {
        name: "show",
        about: "One session's summary: tokens, cost, models, agents, compactions. With `at` (a record id a search hit names), the conversation around that record instead, each text cut to 2,000 characters.",
        input: schema_of::<ShowArgs>,
        output: || {
            let (summary, defs) = record("show");
            let (piece, _) = record("show-at");
            rooted(
                json!({"anyOf": [summary, {"type": "array", "items": piece}]}),
                defs,
            )
        },
        argv: show_argv,
    },
    Spec {
        name: "cost",
        about: "What the agents cost: tokens and dollars grouped by day, week, month, session, model, project, harness or five-hour block (comma-separated keys), with the totals.",
        input: schema_of::<CostArgs>,
        output: || {
            let (row, defs) = record("cost");
            rooted(
                json!({"type": "object", "properties": {
                    "rows": {"type": "array", "items": row},
                    "totals": row,
                }, "required": ["rows", "totals"]}),
                defs,
            )
        },
        argv: cost_argv,
    },
    Spec {
        name: "brief",
        about: "The briefing the next session in a project would start with: its text, its sections and which memories made it in.",
        input: schema_of::<BriefArgs>,
        output: || {
            let (doc, defs) = record("brief");
            rooted(doc, defs)
        },
        argv: brief_argv,
    },
];

/// Every tool, as `tools/list` gives them.
pub fn list() -> Vec<Tool> {
    TOOLS
        .iter()
        .map(|t| {
            let mut tool = Tool::new_with_raw(t.name, Some(t.about.into()), object((t.input)()))
                .with_raw_output_schema(Arc::new(object((t.output)())))
                .with_annotations(
                    ToolAnnotations::new()
                        .read_only(true)
                        .destructive(false)
                        .idempotent(true)
                        .open_world(false),
                );
            tool.title = Some(format!("sessionkit {}", t.name));
            tool
        })
        .collect()
}

impl Call<'_> {
    /// Runs tool `name` with `args`.
    pub fn run(&self, name: &str, args: JsonObject) -> Result<Answer, Failure> {
        let spec = TOOLS
            .iter()
            .find(|t| t.name == name)
            .ok_or_else(|| Failure::Unknown(name.to_string()))?;
        let lines = (spec.argv)(self, Value::Object(args))?;
        let mut notes = Vec::new();
        let mut result: Option<Value> = None;
        for argv in &lines {
            let captured = crate::run_captured(self.db, argv).map_err(|e| {
                match e.downcast_ref::<clap::Error>() {
                    Some(c) => Failure::Arguments(clap_line(c)),
                    None => Failure::Command(crate::error_text(&e)),
                }
            })?;
            notes.extend(captured.notes);
            let value: Value = serde_json::from_slice(&captured.data)
                .map_err(|e| Failure::Command(format!("the command's JSON did not parse: {e}")))?;
            result = Some(match (result, value) {
                (Some(Value::Array(mut a)), Value::Array(b)) => {
                    a.extend(b);
                    Value::Array(a)
                }
                (_, v) => v,
            });
        }
        let mut result = result.unwrap_or(Value::Null);
        if name == "show" {
            cut_texts(&mut result, &mut notes);
        }
        let cut = bound(&mut result, self.max_bytes);
        if let Some((shown, of)) = cut {
            notes.push(format!(
                "the result was cut to {} bytes: {shown} of {of} records shown; narrow the call (a period, a project, a lower limit) to see the rest",
                self.max_bytes
            ));
        }
        let cut = cut.map_or(Value::Null, |(shown, of)| json!({"shown": shown, "of": of}));
        Ok(Answer {
            structured: json!({"result": result, "notes": notes, "cut": cut}),
        })
    }

    /// `--project P` for a call: the one it names, else (unless it asks
    /// for every project) the server's.
    fn project(&self, given: Option<&String>, all: bool) -> Vec<String> {
        match given.map(String::as_str).or(self.project) {
            Some(p) if !all => vec!["--project".into(), p.into()],
            _ => Vec::new(),
        }
    }
}

/// A clap error's first line, without its `error: ` prefix.
fn clap_line(e: &clap::Error) -> String {
    let text = e.to_string();
    let first = text.lines().next().unwrap_or("bad arguments");
    first.strip_prefix("error: ").unwrap_or(first).to_string()
}

/// `args` as `T`, or why not.
fn parse<T: DeserializeOwned>(args: Value) -> Result<T, Failure> {
    serde_json::from_value(args).map_err(|e| Failure::Arguments(e.to_string()))
}

/// A limit between 1 and `max`, `default` when not given.
fn limit(given: Option<u32>, default: u32, max: u32) -> Result<String, Failure> {
    match given.unwrap_or(default) {
        n @ 1.. if n <= max => Ok(n.to_string()),
        n => Err(Failure::Arguments(format!(
            "limit must be between 1 and {max}, not {n}"
        ))),
    }
}

/// `--flag value` when there is a value.
fn opt(flag: &str, value: Option<&String>) -> Vec<String> {
    value
        .map(|v| vec![flag.to_string(), v.clone()])
        .unwrap_or_default()
}

/// A period's bounds, each checked as the CLI reads them.
fn period(since: Option<&String>, until: Option<&String>) -> Result<Vec<String>, Failure> {
    let tz = jiff::tz::TimeZone::system();
    for (bound, end) in [(since, false), (until, true)] {
        if let Some(b) = bound {
            crate::domain::clock::parse_bound_in(b, &tz, end)
                .map_err(|e| Failure::Arguments(format!("{e:#}")))?;
        }
    }
    Ok([opt("--since", since), opt("--until", until)].concat())
}

/// A number given as a number or as its digits (some clients send every
/// argument as a string).
fn lenient_u32<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    use serde::de::Error;
    match Option::<Value>::deserialize(d)? {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| D::Error::custom(format!("{n} is not a whole number from 0"))),
        Some(Value::String(t)) => t
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| D::Error::custom(format!("{t:?} is not a whole number from 0"))),
        Some(v) => Err(D::Error::custom(format!("{v} is not a number"))),
    }
}

/// A yes or no given as a boolean or as `"true"`/`"false"`.
fn lenient_bool<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    use serde::de::Error;
    match Value::deserialize(d)? {
        Value::Null => Ok(false),
        Value::Bool(b) => Ok(b),
        Value::String(t) if t == "true" || t == "false" => Ok(t == "true"),
        v => Err(D::Error::custom(format!("{v} is not true or false"))),
    }
}

/// A tool's input: the fields a project-scoped call takes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchArgs {
    /// Words to look for
    query: String,
    /// Only this project (default: the server's project)
    project: Option<String>,
    /// Every project, not only the server's
    #[serde(default, deserialize_with = "lenient_bool")]
    all_projects: bool,
    /// Only this agent's sessions (claude-code, codex, gemini, ...)
    harness: Option<String>,
    /// Only what this role said: user, assistant or tool
    role: Option<String>,
    /// Only what was said since (a date, 7d, today, this-week, ...)
    since: Option<String>,
    /// Only what was said until (same forms; a date includes its day)
    until: Option<String>,
    /// Newest first instead of best first
    #[serde(default, deserialize_with = "lenient_bool")]
    newest: bool,
    /// At most this many hits (1 to 100; default 10)
    #[serde(default, deserialize_with = "lenient_u32")]
    limit: Option<u32>,
}

fn search_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: SearchArgs = parse(args)?;
    if a.query.trim().is_empty() {
        return Err(Failure::Arguments("query has no words".into()));
    }
    let mut argv = vec!["search".into(), "--format".into(), "json".into()];
    argv.extend(c.project(a.project.as_ref(), a.all_projects));
    argv.extend(opt("--harness", a.harness.as_ref()));
    argv.extend(opt("--role", a.role.as_ref()));
    argv.extend(period(a.since.as_ref(), a.until.as_ref())?);
    if a.newest {
        argv.push("--newest".into());
    }
    argv.extend(["--limit".into(), limit(a.limit, 10, 100)?]);
    argv.extend(["--".into(), a.query]);
    Ok(vec![argv])
}

/// The `recall` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RecallArgs {
    /// Words to look for (any of them)
    query: String,
    /// Only this project's memories (default: the server's project)
    project: Option<String>,
    /// Every project's memories
    #[serde(default, deserialize_with = "lenient_bool")]
    all_projects: bool,
    /// Only this kind: decision, commitment, constraint, fact, preference, blocker, ...
    kind: Option<String>,
    /// Superseded and archived memories too
    #[serde(default, deserialize_with = "lenient_bool")]
    all: bool,
    /// At most this many (1 to 100; default 10)
    #[serde(default, deserialize_with = "lenient_u32")]
    limit: Option<u32>,
}

fn recall_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: RecallArgs = parse(args)?;
    if a.query.trim().is_empty() {
        return Err(Failure::Arguments("query has no words".into()));
    }
    let mut argv = vec!["recall".into(), "--format".into(), "json".into()];
    argv.extend(c.project(a.project.as_ref(), a.all_projects));
    argv.extend(opt("--kind", a.kind.as_ref()));
    if a.all {
        argv.push("--all".into());
    }
    argv.extend(["--limit".into(), limit(a.limit, 10, 100)?]);
    argv.extend(["--".into(), a.query]);
    Ok(vec![argv])
}

/// The `memories` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct MemoriesArgs {
    /// Only this project (default: the server's project)
    project: Option<String>,
    /// Every project's
    #[serde(default, deserialize_with = "lenient_bool")]
    all_projects: bool,
    /// Only this kind (default: open commitments, then constraints)
    kind: Option<String>,
    /// With kind: only this status (open, waiting, resolved, expired, active, archived)
    status: Option<String>,
}

fn memories_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: MemoriesArgs = parse(args)?;
    let line = |kind: &str, status: Option<&str>| {
        let mut argv: Vec<String> = vec!["memories".into(), "--format".into(), "json".into()];
        argv.push("--full".into());
        argv.extend(c.project(a.project.as_ref(), a.all_projects));
        argv.extend(["--kind".into(), kind.into()]);
        if let Some(s) = status {
            argv.extend(["--status".into(), s.into()]);
        }
        argv
    };
    Ok(match (&a.kind, &a.status) {
        (None, None) => vec![line("commitment", Some("open")), line("constraint", None)],
        (None, Some(_)) => {
            return Err(Failure::Arguments("status needs a kind".into()));
        }
        (Some(k), s) => vec![line(k, s.as_deref())],
    })
}

/// The `sessions` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SessionsArgs {
    /// Only this project (default: the server's project)
    project: Option<String>,
    /// Every project's sessions
    #[serde(default, deserialize_with = "lenient_bool")]
    all_projects: bool,
    /// Only this agent's sessions
    harness: Option<String>,
    /// Only sessions active since (a date, 7d, today, ...)
    since: Option<String>,
    /// Only sessions started until (same forms)
    until: Option<String>,
    /// At most this many, most recent first (1 to 200; default 20)
    #[serde(default, deserialize_with = "lenient_u32")]
    limit: Option<u32>,
}

fn sessions_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: SessionsArgs = parse(args)?;
    let mut argv = vec!["sessions".into(), "--format".into(), "json".into()];
    argv.extend(c.project(a.project.as_ref(), a.all_projects));
    argv.extend(opt("--harness", a.harness.as_ref()));
    argv.extend(period(a.since.as_ref(), a.until.as_ref())?);
    argv.extend(["--limit".into(), limit(a.limit, 20, 200)?]);
    Ok(vec![argv])
}

/// The `show` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ShowArgs {
    /// The session's id, or a unique prefix of one
    session: String,
    /// A record id (as a search hit names it): the conversation around it
    at: Option<String>,
    /// With at: how many pieces before and after it (0 to 20; default 5)
    #[serde(default, deserialize_with = "lenient_u32")]
    context: Option<u32>,
}

fn show_argv(_: &Call<'_>, args: Value) -> Lines {
    let a: ShowArgs = parse(args)?;
    let mut argv = vec!["show".into(), "--format".into(), "json".into()];
    match (&a.at, a.context) {
        (Some(at), n) => {
            let n = n.unwrap_or(5);
            if n > 20 {
                return Err(Failure::Arguments(format!(
                    "context must be at most 20, not {n}"
                )));
            }
            argv.extend(["--at".into(), at.clone(), "--context".into(), n.to_string()]);
        }
        (None, Some(_)) => return Err(Failure::Arguments("context needs at".into())),
        (None, None) => {}
    }
    argv.extend(["--".into(), a.session]);
    Ok(vec![argv])
}

/// The `cost` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CostArgs {
    /// Group by these keys, comma-separated: day, week, month, session, model, project, harness, block (default day)
    by: Option<String>,
    /// From (a date, 7d, today, this-month, ...)
    since: Option<String>,
    /// Until (same forms; a date includes its day)
    until: Option<String>,
    /// Only this project (default: the server's project)
    project: Option<String>,
    /// Every project
    #[serde(default, deserialize_with = "lenient_bool")]
    all_projects: bool,
    /// Only this agent's sessions
    harness: Option<String>,
    /// Only this session (its id or a unique prefix)
    session: Option<String>,
}

fn cost_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: CostArgs = parse(args)?;
    let mut argv = vec!["cost".into(), "--format".into(), "json".into()];
    argv.extend(opt("--by", a.by.as_ref()));
    argv.extend(period(a.since.as_ref(), a.until.as_ref())?);
    // A session is its own scope: the server's project does not narrow it.
    let all = a.all_projects || (a.session.is_some() && a.project.is_none());
    argv.extend(c.project(a.project.as_ref(), all));
    argv.extend(opt("--harness", a.harness.as_ref()));
    argv.extend(opt("--session", a.session.as_ref()));
    Ok(vec![argv])
}

/// The `brief` tool's input.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct BriefArgs {
    /// The project (default: the server's project)
    project: Option<String>,
}

fn brief_argv(c: &Call<'_>, args: Value) -> Lines {
    let a: BriefArgs = parse(args)?;
    let project = c.project(a.project.as_ref(), false);
    if project.is_empty() {
        return Err(Failure::Arguments(
            "the server's directory names no project: pass project".into(),
        ));
    }
    Ok(vec![
        [
            vec!["brief".into(), "--format".into(), "json".into()],
            project,
        ]
        .concat(),
    ])
}

/// An input's JSON Schema (as it is read: a field with a default is not
/// required).
fn schema_of<T: JsonSchema>() -> Value {
    let mut s = serde_json::to_value(schemars::schema_for!(T)).unwrap_or_default();
    if let Some(o) = s.as_object_mut() {
        o.remove("$schema");
        o.remove("title");
    }
    s
}

/// A command's published record schema without its root keys, and its
/// shared definitions.
fn record(command: &str) -> (Value, Value) {
    let (mut s, _) = super::super::contract(command).unwrap_or((json!({}), ""));
    let defs = s
        .as_object_mut()
        .and_then(|o| {
            o.remove("$schema");
            o.remove("$defs")
        })
        .unwrap_or_else(|| json!({}));
    (s, defs)
}

/// A list of `command`'s records.
fn listed(command: &str) -> Value {
    let (s, defs) = record(command);
    rooted(json!({"type": "array", "items": s}), defs)
}

/// An answer's schema: its result shaped by `result`, the definitions
/// `result` refers to at the root.
fn rooted(result: Value, defs: Value) -> Value {
    let mut answer = json!({
        "type": "object",
        "properties": {
            "notes": {"type": "array", "items": {"type": "string"}},
            "cut": {"anyOf": [
                {"type": "null"},
                {"type": "object", "properties": {
                    "shown": {"type": "integer"}, "of": {"type": "integer"}
                }, "required": ["shown", "of"]},
            ]},
        },
        "required": ["result", "notes", "cut"],
    });
    answer["properties"]["result"] = result;
    answer["$defs"] = defs;
    answer
}

/// A schema as the JSON object MCP carries, without schemars' numeric
/// formats (`uint64`, `double`: not JSON Schema's, and validators warn
/// of each).
fn object(mut v: Value) -> JsonObject {
    numeric_formats_out(&mut v);
    match v {
        Value::Object(o) => o,
        _ => JsonObject::new(),
    }
}

fn numeric_formats_out(v: &mut Value) {
    match v {
        Value::Object(o) => {
            let numeric = o.get("format").and_then(Value::as_str).is_some_and(|f| {
                ["int", "uint", "double", "float"]
                    .iter()
                    .any(|p| f.starts_with(p))
            });
            if numeric {
                o.remove("format");
            }
            o.values_mut().for_each(numeric_formats_out);
        }
        Value::Array(a) => a.iter_mut().for_each(numeric_formats_out),
        _ => {}
    }
}

/// Cuts each conversation piece's text to `PIECE_CHARS`, saying so.
fn cut_texts(result: &mut Value, notes: &mut Vec<String>) {
    let mut cut = 0;
    for piece in result.as_array_mut().into_iter().flatten() {
        if let Some(Value::String(t)) = piece.get_mut("text")
            && let Some((i, _)) = t.char_indices().nth(PIECE_CHARS)
        {
            let rest = t[i..].chars().count();
            t.truncate(i);
            t.push_str(&format!(" [… {rest} more characters]"));
            cut += 1;
        }
    }
    if cut > 0 {
        notes.push(format!(
            "{cut} text(s) cut to {PIECE_CHARS} characters; `sessionkit show` in a terminal gives them whole"
        ));
    }
}

/// Keeps `result` within `max` bytes of JSON by leaving out trailing
/// records (of the list, or of its largest list field): how many were
/// shown of how many, when any were left out.
fn bound(result: &mut Value, max: usize) -> Option<(usize, usize)> {
    let size = |v: &Value| serde_json::to_vec(v).map_or(0, |b| b.len());
    let total = size(result);
    if total <= max {
        return None;
    }
    let list = match result {
        Value::Array(a) => a,
        Value::Object(o) => {
            let key = o
                .iter()
                .filter(|(_, v)| v.is_array())
                .max_by_key(|(_, v)| size(v))
                .map(|(k, _)| k.clone())?;
            match o.get_mut(&key) {
                Some(Value::Array(a)) => a,
                _ => return None,
            }
        }
        _ => return None,
    };
    let of = list.len();
    // What is outside the list stays; the list keeps the records that fit.
    let mut room = max.saturating_sub(total - list.iter().map(|r| size(r) + 1).sum::<usize>());
    let mut shown = 0;
    for r in list.iter() {
        let n = size(r) + 1;
        if n > room {
            break;
        }
        room -= n;
        shown += 1;
    }
    list.truncate(shown);
    Some((shown, of))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_keeps_the_records_that_fit_and_counts_the_rest() {
        let mut v = json!([{"a": "x".repeat(40)}, {"a": "y".repeat(40)}, {"a": "z".repeat(40)}]);
        // Each record is 50 bytes of JSON, and a comma: two fit in 110.
        assert_eq!(bound(&mut v, 110), Some((2, 3)));
        assert_eq!(v.as_array().map(Vec::len), Some(2));
        assert!(serde_json::to_vec(&v).unwrap().len() <= 110);
        let mut small = json!([1, 2]);
        assert_eq!(bound(&mut small, 110), None);
        assert_eq!(small, json!([1, 2]));
    }

    #[test]
    fn a_document_loses_records_of_its_largest_list_only() {
        let rows: Vec<Value> = (0..10)
            .map(|i| json!({"day": i, "pad": "p".repeat(20)}))
            .collect();
        let mut v = json!({"rows": rows, "totals": {"n": 10}, "tags": ["a"]});
        let cut = bound(&mut v, 200);
        assert_eq!(cut.map(|c| c.1), Some(10));
        let shown = cut.unwrap().0;
        assert_eq!(v["rows"].as_array().map(Vec::len), Some(shown));
        assert!(shown >= 1 && serde_json::to_vec(&v).unwrap().len() <= 200);
        assert_eq!(
            (v["totals"]["n"].clone(), v["tags"].clone()),
            (json!(10), json!(["a"]))
        );
    }

    #[test]
    fn a_long_piece_is_cut_at_a_character_and_says_how_much_is_left() {
        let long = "é".repeat(PIECE_CHARS + 7);
        let mut v = json!([{"text": long}, {"text": "short"}]);
        let mut notes = Vec::new();
        cut_texts(&mut v, &mut notes);
        let t = v[0]["text"].as_str().unwrap();
        assert_eq!(t.chars().filter(|c| *c == 'é').count(), PIECE_CHARS);
        assert!(t.ends_with(" [… 7 more characters]"), "{t}");
        assert_eq!(v[1]["text"], "short");
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn every_tool_declares_object_schemas_without_numeric_formats() {
        for t in list() {
            for s in [
                Value::Object((*t.input_schema).clone()),
                Value::Object((*t.output_schema.clone().unwrap()).clone()),
            ] {
                assert_eq!(s["type"], "object", "{}", t.name);
                assert!(!s.to_string().contains("\"format\":\"uint"), "{}", t.name);
            }
        }
    }
}
