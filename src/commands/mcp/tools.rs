//! The MCP server's tools: each is the CLI command line an agent's call
//! stands for, run read-only with its JSON captured (`run_captured`). A
//! tool's input is checked against its declared shape before anything
//! runs; its result is the CLI's JSON, bounded in size, with the notes the
//! CLI would print on stderr.

use std::path::Path;
use std::sync::Arc;

use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde_json::{Value, json};

use super::args::{
    BriefArgs, CostArgs, MemoriesArgs, RecallArgs, SearchArgs, SessionsArgs, ShowArgs, brief_argv,
    cost_argv, memories_argv, recall_argv, search_argv, sessions_argv, show_argv,
};

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
pub(super) type Lines = Result<Vec<Vec<String>>, Failure>;

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
            let captured = super::super::run_captured(self.db, argv).map_err(|e| match e
                .downcast_ref::<clap::Error>()
            {
                Some(c) => Failure::Arguments(clap_line(c)),
                None => Failure::Command(crate::domain::text::sanitize_keeping(
                    &format!("{e:#}"),
                    &['\n'],
                )),
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
    pub(super) fn project(&self, given: Option<&String>, all: bool) -> Vec<String> {
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
