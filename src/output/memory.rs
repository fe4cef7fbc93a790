//! A memory's records, as the memory verbs print them: a listing's rows
//! (`memories`), what `remember`, `revise`, `resolve`, `unresolve`,
//! `archive` and `memory redact` print with a format, `memory show`,
//! `recall`, and `import`'s report rows. One type per record, so the JSON,
//! the JSON Schema (`sessionkit schema memories`) and the help agree.

use schemars::JsonSchema;
use serde::Serialize;

use crate::domain::clock::Rfc3339;
use crate::domain::memory::{
    CommitmentStatus, EventKind, Kind, MemoryEvent, MemoryStatus, MemoryView, Tags,
};

/// The name and version of a memory record's contract.
pub const MEMORY_SCHEMA: &str = "sessionkit.memory/1";

/// A memory's tags, written as the row stores them when it can be.
#[derive(Debug, Clone, Copy)]
pub struct TagList<'a>(pub Tags<'a>);

impl Serialize for TagList<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Tags::List(l) => l.serialize(s),
            Tags::Json(_) => self.0.to_vec().serialize(s),
        }
    }
}

impl JsonSchema for TagList<'_> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "TagList".into()
    }
    fn inline_schema() -> bool {
        true
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<String>>::json_schema(g)
    }
}

/// A memory (fields in name order). A listing leaves out the content
/// unless asked (`--full`); every other record has it.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MemoryRecord<'a> {
    /// A commitment's own state; null for other kinds.
    pub commitment: Option<CommitmentRecord<'a>>,
    /// The memory itself (in a listing only with `--full`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<&'a str>,
    pub created_at: Rfc3339,
    /// The one line a briefing index shows.
    pub description: Option<&'a str>,
    /// A commitment's due time.
    pub due_at: Option<Rfc3339>,
    pub kind: Kind,
    pub memory_id: &'a str,
    /// Shown at the top of every briefing.
    pub pinned: bool,
    pub project: &'a str,
    /// Its content was replaced by a marker (`memory redact`).
    pub redacted: bool,
    /// The contract and its version: `sessionkit.memory/1`.
    pub schema: &'static str,
    pub scope: &'a str,
    /// What people care about: the commitment status, else superseded, archived or active.
    pub state: &'a str,
    pub status: MemoryStatus,
    /// The memory this one revised.
    pub supersedes: Option<&'a str>,
    pub tags: TagList<'a>,
    pub topic: &'a str,
    pub updated_at: Rfc3339,
    pub valid_from: Rfc3339,
    /// When a revision superseded it.
    pub valid_to: Option<Rfc3339>,
}

/// A commitment's state (fields in name order).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CommitmentRecord<'a> {
    pub due_at: Option<Rfc3339>,
    pub owner: Option<&'a str>,
    pub resolved_at: Option<Rfc3339>,
    pub status: CommitmentStatus,
    pub updated_at: Rfc3339,
}

impl<'a> MemoryRecord<'a> {
    /// The record of a memory; `content` false leaves the content out (a
    /// listing's index).
    pub fn of(m: &MemoryView<'a>, content: bool) -> MemoryRecord<'a> {
        let c = m.commitment;
        MemoryRecord {
            commitment: c.map(|c| CommitmentRecord {
                due_at: c.due_at.map(Rfc3339),
                owner: c.owner,
                resolved_at: c.resolved_at.map(Rfc3339),
                status: c.status,
                updated_at: Rfc3339(c.updated_at),
            }),
            content: content.then_some(m.content),
            created_at: Rfc3339(m.created_at),
            description: m.description,
            due_at: c.and_then(|c| c.due_at).map(Rfc3339),
            kind: m.kind,
            memory_id: m.memory_id,
            pinned: m.pinned,
            project: m.project,
            redacted: m.content_hash.is_none(),
            schema: MEMORY_SCHEMA,
            scope: m.scope,
            state: state(m),
            status: m.status,
            supersedes: m.supersedes,
            tags: TagList(m.tags),
            topic: m.topic,
            updated_at: Rfc3339(m.updated_at),
            valid_from: Rfc3339(m.valid_from),
            valid_to: m.valid_to.map(Rfc3339),
        }
    }

    /// What `serde_json::to_writer(self)` writes, written directly (the
    /// listing's fast path, held byte-equal by a test): keys are constants,
    /// instants go digit by digit, and a string with nothing to escape is
    /// copied whole (a listing is mostly these).
    pub fn write_json(&self, out: &mut Vec<u8>) {
        use crate::output::json::json_key;
        use crate::output::json::{Object, is_plain_string_array};
        let at = |t: Option<Rfc3339>| t.map(|t| t.0);
        let mut o = Object::new(out);
        o.object(
            json_key!("commitment"),
            self.commitment.as_ref().map(|c| {
                |n: &mut Object<'_>| {
                    n.opt_instant(json_key!("due_at"), at(c.due_at));
                    n.opt_str(json_key!("owner"), c.owner);
                    n.opt_instant(json_key!("resolved_at"), at(c.resolved_at));
                    n.str(json_key!("status"), c.status.as_str());
                    n.instant(json_key!("updated_at"), c.updated_at.0);
                }
            }),
        );
        if let Some(content) = self.content {
            o.str(json_key!("content"), content);
        }
        o.instant(json_key!("created_at"), self.created_at.0);
        o.opt_str(json_key!("description"), self.description);
        o.opt_instant(json_key!("due_at"), at(self.due_at));
        o.str(json_key!("kind"), self.kind.as_str());
        o.str(json_key!("memory_id"), self.memory_id);
        o.bool(json_key!("pinned"), self.pinned);
        o.str(json_key!("project"), self.project);
        o.bool(json_key!("redacted"), self.redacted);
        o.str(json_key!("schema"), self.schema);
        o.str(json_key!("scope"), self.scope);
        o.str(json_key!("state"), self.state);
        o.str(json_key!("status"), self.status.as_str());
        o.opt_str(json_key!("supersedes"), self.supersedes);
        match self.tags.0 {
            // As stored, when that is already how it would be written.
            Tags::Json(raw) if is_plain_string_array(raw) => {
                o.raw(json_key!("tags"), raw.as_bytes());
            }
            Tags::List(l) => o.strs(json_key!("tags"), l.iter().map(String::as_str)),
            tags @ Tags::Json(_) => {
                o.strs(json_key!("tags"), tags.to_vec().iter().map(String::as_str));
            }
        }
        o.str(json_key!("topic"), self.topic);
        o.instant(json_key!("updated_at"), self.updated_at.0);
        o.instant(json_key!("valid_from"), self.valid_from.0);
        o.opt_instant(json_key!("valid_to"), at(self.valid_to));
        o.end();
    }
}

/// The state people care about: the commitment status, else superseded,
/// archived or active.
fn state<'a>(m: &MemoryView<'a>) -> &'static str {
    match (m.commitment, m.valid_to) {
        (_, Some(_)) => "superseded",
        (Some(c), None) => c.status.as_str(),
        (None, None) => m.status.as_str(),
    }
}

/// One audit event (fields in name order).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct EventRecord<'a> {
    /// Who wrote it: cli, a hook, import...
    pub actor: &'a str,
    pub created_at: Rfc3339,
    pub event_id: &'a str,
    pub kind: EventKind,
    pub memory_id: &'a str,
    /// Why, when the writer said (never the content).
    pub reason: Option<&'a str>,
    /// The run the write belonged to.
    pub session_run_id: Option<&'a str>,
}

impl<'a> EventRecord<'a> {
    pub fn of(e: &'a MemoryEvent) -> EventRecord<'a> {
        EventRecord {
            actor: &e.actor,
            created_at: Rfc3339(e.created_at),
            event_id: &e.event_id,
            kind: e.kind,
            memory_id: &e.memory_id,
            reason: e.reason.as_deref(),
            session_run_id: e.session_run_id.as_deref(),
        }
    }
}

/// `memory show`: the memory with its supersession chain, its events and
/// its demand.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct MemoryShowRecord<'a> {
    #[serde(flatten)]
    pub memory: MemoryRecord<'a>,
    /// Its versions, oldest first (ids).
    pub chain: Vec<String>,
    /// Its decayed demand score, rounded to 3 decimals.
    pub demand: f64,
    /// Its audit events, oldest first.
    pub events: Vec<EventRecord<'a>>,
    /// demand / (demand + 4), rounded to 3 decimals.
    pub utility: f64,
}

/// A `recall` hit: the memory, with its rank and the match.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct RecallRecord<'a> {
    #[serde(flatten)]
    pub memory: MemoryRecord<'a>,
    /// bm25, lower is better (6 decimals).
    pub rank: f64,
    /// The match, in **bold**.
    pub snippet: &'a str,
}

/// Rounds for printing (`decimals` places).
pub fn rounded(v: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (v * f).round() / f
}

/// The name and version of `import`'s report rows.
pub const IMPORT_SCHEMA: &str = "sessionkit.import/1";

/// What became of one record of an import file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ImportResult {
    Created,
    /// Already stored, identical.
    Present,
    Rejected,
    /// Fine, but another record was rejected, so nothing was written.
    NotImported,
}

/// One record of an import file and what became of it (fields in name order).
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ImportRecord {
    /// Its memory or event id, when it names one.
    pub id: String,
    /// Its line in the file (1-based).
    pub line: usize,
    /// Why it was rejected or not imported.
    pub reason: Option<String>,
    pub result: ImportResult,
    /// The contract and its version: `sessionkit.import/1`.
    pub schema: &'static str,
    /// memory, commitment or event (`?` for a line that says none).
    #[serde(rename = "type")]
    pub record_type: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::memory::{Commitment, Memory};
    use serde_json::{Map, Value, json};

    fn memory(commitment: Option<Commitment>, valid_to: Option<i64>, redacted: bool) -> Memory {
        Memory {
            memory_id: "0199a".into(),
            kind: if commitment.is_some() {
                Kind::Commitment
            } else {
                Kind::Note
            },
            topic: "ship \"it\"".into(),
            description: Some("one line".into()),
            content: "body\nwith lines".into(),
            project: "shop".into(),
            scope: "project".into(),
            tags: vec!["a".into(), "b c".into()],
            status: MemoryStatus::Active,
            pinned: true,
            content_hash: (!redacted).then(|| "h".into()),
            supersedes: Some("0198z".into()),
            valid_from: 1_767_225_600_000,
            valid_to,
            created_at: 1_767_225_600_001,
            updated_at: 1_767_225_600_002,
            commitment,
        }
    }

    fn time(t: Option<i64>) -> Value {
        t.map_or(Value::Null, |t| {
            json!(crate::domain::clock::format_instant(t))
        })
    }

    /// The documented shape, field by field (as it was first written).
    fn documented(m: &Memory) -> Map<String, Value> {
        let mut o = Map::new();
        o.insert("memory_id".into(), json!(m.memory_id));
        o.insert("kind".into(), json!(m.kind.as_str()));
        o.insert("topic".into(), json!(m.topic));
        o.insert("description".into(), json!(m.description));
        o.insert("content".into(), json!(m.content));
        o.insert("project".into(), json!(m.project));
        o.insert("schema".into(), json!("sessionkit.memory/1"));
        o.insert("scope".into(), json!(m.scope));
        o.insert("tags".into(), json!(m.tags));
        o.insert("status".into(), json!(m.status.as_str()));
        o.insert("pinned".into(), json!(m.pinned));
        o.insert("redacted".into(), json!(m.content_hash.is_none()));
        o.insert("supersedes".into(), json!(m.supersedes));
        o.insert("valid_from".into(), time(Some(m.valid_from)));
        o.insert("valid_to".into(), time(m.valid_to));
        o.insert("created_at".into(), time(Some(m.created_at)));
        o.insert("updated_at".into(), time(Some(m.updated_at)));
        o.insert(
            "commitment".into(),
            m.commitment.as_ref().map_or(Value::Null, |c| {
                json!({
                    "status": c.status.as_str(),
                    "due_at": time(c.due_at),
                    "owner": c.owner,
                    "resolved_at": time(c.resolved_at),
                    "updated_at": time(Some(c.updated_at)),
                })
            }),
        );
        let state = match (&m.commitment, m.valid_to) {
            (_, Some(_)) => "superseded",
            (Some(c), None) => c.status.as_str(),
            (None, None) => m.status.as_str(),
        };
        o.insert("state".into(), json!(state));
        o.insert(
            "due_at".into(),
            time(m.commitment.as_ref().and_then(|c| c.due_at)),
        );
        o
    }

    /// The listing's fast path writes exactly what the typed record
    /// serializes to, byte for byte, and both are the documented shape
    /// (less the content unless --full), from a memory or from a row whose
    /// tags are stored plain or not.
    #[test]
    fn the_fast_path_is_byte_equal_to_the_typed_record() {
        let c = Commitment {
            status: CommitmentStatus::Waiting,
            due_at: Some(1_767_312_000_000),
            owner: None,
            resolved_at: None,
            updated_at: 1_767_225_600_003,
        };
        for m in [
            memory(Some(c.clone()), None, false),
            memory(Some(c), Some(1_767_225_600_009), false),
            memory(None, None, true),
            memory(None, Some(1), false),
        ] {
            for full in [false, true] {
                let mut want = documented(&m);
                if !full {
                    want.remove("content");
                }
                let record = MemoryRecord::of(&m.view(), full);
                let typed = serde_json::to_string(&record).unwrap();
                assert_eq!(typed, serde_json::to_string(&Value::Object(want)).unwrap());
                let mut direct = Vec::new();
                record.write_json(&mut direct);
                assert_eq!(String::from_utf8(direct).unwrap(), typed);
                for raw in [r#"["a","b c"]"#, r#"[ "a", "b\u0020c" ]"#] {
                    let row = MemoryView {
                        tags: Tags::Json(raw),
                        ..m.view()
                    };
                    let mut direct = Vec::new();
                    MemoryRecord::of(&row, full).write_json(&mut direct);
                    assert_eq!(String::from_utf8(direct).unwrap(), typed, "{raw}");
                }
            }
        }
    }
}
