//! The memory verbs: `remember`, `revise`, `resolve`, `unresolve`, `archive`,
//! `memories`, `memory show|redact`, `recall`, `export`, `import`.

use std::io::Write;

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};

use super::{Ctx, time};
use crate::Exit;
use crate::clock::{Millis, now, parse_bound, parse_instant, with_instant};
use crate::continuity::memory::{Draft, Settle, check, parse_due};
use crate::output::{Column, col};
use crate::store::Store;
use crate::store::memories::{
    Actor, Commitment, Memory, MemoryEvent, MemoryFilter, MemoryView, Remembered, Tags,
};

/// The CLI as the writer, with the run named by `--session-run-id` if any.
fn cli_actor<'a>(store: &Store, run: Option<&'a str>, now: Millis) -> Result<Actor<'a>> {
    Ok(Actor {
        actor: "cli",
        run,
        now,
        lease_ms: crate::settings::hours_ms(store, "lease.hours")?,
    })
}

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = "Prints the new id (or the identical live memory's id). With --format: the memory. JSON fields of a memory: memory_id, kind, topic, description, content (listings: only with --full), project, scope, tags, status (active|archived), state (the commitment status, superseded, or the status), pinned, redacted, supersedes, valid_from, valid_to, created_at, updated_at, due_at, commitment ({status, due_at, owner, resolved_at, updated_at} or null)."
)]
pub struct RememberArgs {
    /// constraint, convention, decision, commitment, blocker, preference, fact, pattern, finding, note, stage
    #[arg(long, value_name = "K")]
    pub kind: String,
    /// What it is about (at most 256 characters)
    #[arg(long, value_name = "T")]
    pub topic: String,
    /// The one line a briefing index shows (at most 160 characters)
    #[arg(long, value_name = "D")]
    pub description: Option<String>,
    /// The memory itself (at most 2,000 characters; never split); `-` reads stdin
    #[arg(long, value_name = "C")]
    pub content: String,
    /// [default: the current directory's project: git remote origin's name, else the directory name]
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    /// Kebab-case scope [default: project]
    #[arg(long, value_name = "S")]
    pub scope: Option<String>,
    /// A tag (repeat for more; at most 32 of at most 64 characters)
    #[arg(long = "tag", value_name = "X")]
    pub tags: Vec<String>,
    /// A commitment's due date: RFC 3339, YYYY-MM-DD, or a span ahead (3d, 12h, 2w)
    #[arg(long, value_name = "DATE")]
    pub due: Option<String>,
    /// A commitment's owner
    #[arg(long, value_name = "WHO")]
    pub owner: Option<String>,
    /// Always show it at the top of a briefing
    #[arg(long)]
    pub pin: bool,
    /// Write it even when a live memory looks like the same thing
    #[arg(long)]
    pub force: bool,
    /// The run this write belongs to (its events carry the id); without it,
    /// the write joins the project's only live run, if exactly one is live
    #[arg(long, value_name = "ID")]
    pub session_run_id: Option<String>,
}

pub fn remember(ctx: &Ctx, a: &RememberArgs) -> Result<Exit> {
    let now = now();
    let content = super::value_or_stdin(&a.content, "stdin")?;
    let mut store = ctx.open_writer()?;
    let draft = Draft {
        kind: a.kind.clone(),
        topic: a.topic.clone(),
        description: a.description.clone(),
        content,
        project: a.project.clone().unwrap_or_else(|| "-".into()),
        scope: a.scope.clone(),
        tags: a.tags.clone(),
        pinned: a.pin,
        due_at: a.due.as_deref().map(|d| parse_due(d, now)).transpose()?,
        owner: a.owner.clone(),
    };
    let mut draft = redact_if_on(&store, draft)?;
    // Everything else is checked before the directory's project is looked up
    // (and remembered), so bad input changes nothing.
    check(&draft)?;
    draft.project = crate::project::chosen(&store, a.project.as_deref(), None)?;
    let m = check(&draft)?;
    let who = cli_actor(&store, a.session_run_id.as_deref(), now)?;
    let id = match store.remember(&m, a.force, &who)? {
        Remembered::Created(id) => id,
        Remembered::Existing(id) => {
            ctx.out.note(&format!(
                "an identical memory is live: {id} (nothing written)"
            ));
            id
        }
    };
    print_id_or_record(ctx, &store, &id)
}

/// A bare id, unless a format was asked for: then the memory.
fn print_id_or_record(ctx: &Ctx, store: &Store, id: &str) -> Result<Exit> {
    if ctx.out.explicit {
        let m = store.memory(id)?;
        ctx.out
            .record(MEMORY_COLUMNS, &Value::Object(memory_json(&m)))?;
    } else {
        println!("{id}");
    }
    Ok(Exit::Success)
}

#[derive(Debug, clap::Args)]
pub struct ReviseArgs {
    /// The memory (a unique prefix of its id is enough)
    pub id: String,
    #[arg(long, value_name = "K")]
    pub kind: Option<String>,
    #[arg(long, value_name = "T")]
    pub topic: Option<String>,
    #[arg(long, value_name = "D")]
    pub description: Option<String>,
    /// `-` reads stdin
    #[arg(long, value_name = "C")]
    pub content: Option<String>,
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    #[arg(long, value_name = "S")]
    pub scope: Option<String>,
    /// Replaces the tags (repeat for more)
    #[arg(long = "tag", value_name = "X")]
    pub tags: Vec<String>,
    /// Removes every tag
    #[arg(long, conflicts_with = "tags")]
    pub clear_tags: bool,
    #[arg(long, value_name = "DATE")]
    pub due: Option<String>,
    #[arg(long, value_name = "WHO")]
    pub owner: Option<String>,
    #[arg(long, conflicts_with = "unpin")]
    pub pin: bool,
    #[arg(long)]
    pub unpin: bool,
    /// Move a commitment between open and waiting
    #[arg(long, value_name = "open|waiting")]
    pub status: Option<String>,
    #[arg(long)]
    pub force: bool,
    /// The run this write belongs to (its events carry the id); without it,
    /// the write joins the project's only live run, if exactly one is live
    #[arg(long, value_name = "ID")]
    pub session_run_id: Option<String>,
}

pub fn revise(ctx: &Ctx, a: &ReviseArgs) -> Result<Exit> {
    let now = now();
    let content = a
        .content
        .as_deref()
        .map(|c| super::value_or_stdin(c, "stdin"))
        .transpose()?;
    let mut store = ctx.open_writer()?;
    let id = store.resolve_memory(&a.id)?;
    let old = store.memory(&id)?;
    let c = old.commitment.as_ref();
    let mut draft = Draft {
        kind: a.kind.clone().unwrap_or(old.kind.clone()),
        topic: a.topic.clone().unwrap_or(old.topic.clone()),
        description: a.description.clone().or(old.description.clone()),
        content: content.unwrap_or(old.content.clone()),
        project: a.project.clone().unwrap_or(old.project.clone()),
        scope: Some(a.scope.clone().unwrap_or(old.scope.clone())),
        tags: if a.clear_tags {
            Vec::new()
        } else if a.tags.is_empty() {
            old.tags.clone()
        } else {
            a.tags.clone()
        },
        pinned: if a.pin {
            true
        } else if a.unpin {
            false
        } else {
            old.pinned
        },
        due_at: match &a.due {
            Some(d) => Some(parse_due(d, now)?),
            None => c.and_then(|c| c.due_at),
        },
        owner: a.owner.clone().or(c.and_then(|c| c.owner.clone())),
    };
    // A commitment revised into another kind leaves its due date and owner behind.
    if draft.kind != "commitment" && a.due.is_none() && a.owner.is_none() {
        draft.due_at = None;
        draft.owner = None;
    }
    let draft = redact_if_on(&store, draft)?;
    let next = check(&draft)?;
    let who = cli_actor(&store, a.session_run_id.as_deref(), now)?;
    let live = store.revise(&id, &next, a.status.as_deref(), a.force, &who)?;
    print_id_or_record(ctx, &store, &live)
}

#[derive(Debug, clap::Args)]
pub struct SettleArgs {
    /// The memory (a unique prefix of its id is enough)
    pub id: String,
    /// The run this write belongs to (its events carry the id); without it,
    /// the write joins the project's only live run, if exactly one is live
    #[arg(long, value_name = "ID")]
    pub session_run_id: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct IdArgs {
    /// The memory (a unique prefix of its id is enough)
    pub id: String,
}

/// `resolve`, `unresolve` and `archive`.
pub fn settle(ctx: &Ctx, a: &SettleArgs, verb: Settle) -> Result<Exit> {
    let now = now();
    let mut store = ctx.open_writer()?;
    let id = store.resolve_memory(&a.id)?;
    let who = cli_actor(&store, a.session_run_id.as_deref(), now)?;
    let changed = store.settle_memory(&id, verb, &who)?;
    if !changed {
        ctx.out
            .note(&format!("{id} is already there: nothing written"));
    }
    print_id_or_record(ctx, &store, &id)
}

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = "JSON fields of a memory: memory_id, kind, topic, description, content (listings: only with --full), project, scope, tags, status (active|archived), state (the commitment status, superseded, or the status), pinned, redacted, supersedes, valid_from, valid_to, created_at, updated_at, due_at, commitment ({status, due_at, owner, resolved_at, updated_at} or null)."
)]
pub struct MemoriesArgs {
    #[arg(long, value_name = "K")]
    pub kind: Option<String>,
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    /// active, archived, or a commitment status: open, waiting, resolved, expired
    #[arg(long, value_name = "S")]
    pub status: Option<String>,
    /// Superseded and archived memories too
    #[arg(long)]
    pub all: bool,
    /// Only memories created since T (RFC 3339, YYYY-MM-DD, or a span such as 7d)
    #[arg(long, value_name = "T")]
    pub since: Option<String>,
    /// Include each memory's content (a listing is an index; `memory show` and `export` give everything)
    #[arg(long)]
    pub full: bool,
}

pub const MEMORY_COLUMNS: &[Column] = &[
    col("memory_id", "id"),
    col("kind", "kind"),
    col("state", "state"),
    col("topic", "topic"),
    col("project", "project"),
    col("due_at", "due"),
    col("created_at", "created"),
];

/// The JSON shape of a memory (the documented contract): a listed row
/// with its content.
pub fn memory_json(m: &Memory) -> Map<String, Value> {
    match serde_json::to_value(Listed::of(&m.view(), true)) {
        Ok(Value::Object(o)) => o,
        _ => unreachable!("a struct serializes to an object"),
    }
}

fn commitment_json(c: &Commitment) -> Value {
    json!({
        "status": c.status,
        "due_at": time(c.due_at),
        "owner": c.owner,
        "resolved_at": time(c.resolved_at),
        "updated_at": time(Some(c.updated_at)),
    })
}

fn event_json(e: &MemoryEvent) -> Value {
    json!({
        "event_id": e.event_id,
        "memory_id": e.memory_id,
        "kind": e.kind,
        "actor": e.actor,
        "session_run_id": e.session_run_id,
        "reason": e.reason,
        "created_at": time(Some(e.created_at)),
    })
}

pub fn memories(ctx: &Ctx, a: &MemoriesArgs) -> Result<Exit> {
    let store = ctx.open()?;
    if let Some(k) = &a.kind {
        crate::continuity::memory::check_kind(k)?;
    }
    let f = MemoryFilter {
        kind: a.kind.clone(),
        project: a.project.clone(),
        status: a.status.clone(),
        all: a.all,
        since: a.since.as_deref().map(parse_bound).transpose()?,
        full: a.full,
    };
    // Rows stream from the database to stdout; JSON Lines are written
    // directly (`Listed::write_json`), other formats through serde.
    let mut sink = ctx.out.sink();
    let mut line = Vec::with_capacity(1024);
    store.each_memory(&f, |m| {
        let listed = Listed::of(&m, a.full);
        match sink.lines() {
            Some(out) => {
                line.clear();
                listed.write_json(&mut line);
                line.push(b'\n');
                out.write_all(&line)?;
                Ok(())
            }
            None => sink.push(&listed),
        }
    })?;
    ctx.out.finish(MEMORY_COLUMNS, sink)?;
    Ok(Exit::Success)
}

/// An instant, serialized as `format_instant` writes it.
#[derive(Clone, Copy)]
struct Instant(Millis);

impl serde::Serialize for Instant {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        with_instant(self.0, |t| s.serialize_str(t))
    }
}

struct ListedTags<'a>(Tags<'a>);

impl serde::Serialize for ListedTags<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Tags::List(l) => l.serialize(s),
            Tags::Json(_) => self.0.to_vec().serialize(s),
        }
    }
}

/// A memory as a listing prints it (the documented fields, in alphabetical
/// order), serialized without building a map per row.
#[derive(serde::Serialize)]
struct Listed<'a> {
    commitment: Option<ListedCommitment<'a>>,
    /// Only with `--full`.
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<&'a str>,
    created_at: Instant,
    description: Option<&'a str>,
    due_at: Option<Instant>,
    kind: &'a str,
    memory_id: &'a str,
    pinned: bool,
    project: &'a str,
    redacted: bool,
    scope: &'a str,
    state: &'a str,
    status: &'a str,
    supersedes: Option<&'a str>,
    tags: ListedTags<'a>,
    topic: &'a str,
    updated_at: Instant,
    valid_from: Instant,
    valid_to: Option<Instant>,
}

#[derive(serde::Serialize)]
struct ListedCommitment<'a> {
    due_at: Option<Instant>,
    owner: Option<&'a str>,
    resolved_at: Option<Instant>,
    status: &'a str,
    updated_at: Instant,
}

impl<'a> Listed<'a> {
    fn of(m: &MemoryView<'a>, full: bool) -> Listed<'a> {
        let c = m.commitment;
        Listed {
            commitment: c.map(|c| ListedCommitment {
                due_at: c.due_at.map(Instant),
                owner: c.owner,
                resolved_at: c.resolved_at.map(Instant),
                status: c.status,
                updated_at: Instant(c.updated_at),
            }),
            content: full.then_some(m.content),
            created_at: Instant(m.created_at),
            description: m.description,
            due_at: c.and_then(|c| c.due_at).map(Instant),
            kind: m.kind,
            memory_id: m.memory_id,
            pinned: m.pinned,
            project: m.project,
            redacted: m.content_hash.is_none(),
            scope: m.scope,
            state: state(m),
            status: m.status,
            supersedes: m.supersedes,
            tags: ListedTags(m.tags),
            topic: m.topic,
            updated_at: Instant(m.updated_at),
            valid_from: Instant(m.valid_from),
            valid_to: m.valid_to.map(Instant),
        }
    }

    /// What `serde_json::to_writer(self)` writes, written directly: keys
    /// are constants, instants go digit by digit, and a string with nothing
    /// to escape is copied whole (a listing is mostly these).
    fn write_json(&self, out: &mut Vec<u8>) {
        use crate::json_key;
        use crate::output::json::{Object, is_plain_string_array};
        let at = |t: Option<Instant>| t.map(|t| t.0);
        let mut o = Object::new(out);
        o.object(
            json_key!("commitment"),
            self.commitment.as_ref().map(|c| {
                |n: &mut Object<'_>| {
                    n.opt_instant(json_key!("due_at"), at(c.due_at));
                    n.opt_str(json_key!("owner"), c.owner);
                    n.opt_instant(json_key!("resolved_at"), at(c.resolved_at));
                    n.str(json_key!("status"), c.status);
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
        o.str(json_key!("kind"), self.kind);
        o.str(json_key!("memory_id"), self.memory_id);
        o.bool(json_key!("pinned"), self.pinned);
        o.str(json_key!("project"), self.project);
        o.bool(json_key!("redacted"), self.redacted);
        o.str(json_key!("scope"), self.scope);
        o.str(json_key!("state"), self.state);
        o.str(json_key!("status"), self.status);
        o.opt_str(json_key!("supersedes"), self.supersedes);
        match self.tags.0 {
            // As stored, when that is already how it would be written.
            Tags::Json(raw) if is_plain_string_array(raw) => {
                o.raw(json_key!("tags"), raw.as_bytes())
            }
            Tags::List(l) => o.strs(json_key!("tags"), l.iter().map(String::as_str)),
            tags => o.strs(json_key!("tags"), tags.to_vec().iter().map(String::as_str)),
        }
        o.str(json_key!("topic"), self.topic);
        o.instant(json_key!("updated_at"), self.updated_at.0);
        o.instant(json_key!("valid_from"), self.valid_from.0);
        o.opt_instant(json_key!("valid_to"), at(self.valid_to));
        o.end();
    }
}

/// For tables: the state people care about (commitment status, else
/// superseded / archived / active).
fn state<'a>(m: &MemoryView<'a>) -> &'a str {
    match (m.commitment, m.valid_to) {
        (_, Some(_)) => "superseded",
        (Some(c), None) => c.status,
        (None, None) => m.status,
    }
}

#[derive(Debug, clap::Args)]
pub struct MemoryArgs {
    #[command(subcommand)]
    pub command: MemoryCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum MemoryCommand {
    /// One memory: its commitment state, its supersession chain and its events
    Show(IdArgs),
    /// Replace a memory's content with a marker (a secret slipped in); the only way content leaves
    Redact(RedactArgs),
}

#[derive(Debug, clap::Args)]
pub struct RedactArgs {
    /// The memory (a unique prefix of its id is enough)
    pub id: String,
    /// Why (kept in the audit event; never the content)
    #[arg(long, value_name = "R")]
    pub reason: Option<String>,
}

const SHOW_COLUMNS: &[Column] = &[
    col("memory_id", "id"),
    col("kind", "kind"),
    col("state", "state"),
    col("topic", "topic"),
    col("description", "description"),
    col("content", "content"),
    col("project", "project"),
    col("scope", "scope"),
    col("tags", "tags"),
    col("due_at", "due"),
    col("chain", "chain"),
    col("utility", "utility"),
    col("created_at", "created"),
];

pub fn memory(ctx: &Ctx, a: &MemoryArgs) -> Result<Exit> {
    let now = now();
    let mut store = ctx.open_writer()?;
    match &a.command {
        MemoryCommand::Show(s) => {
            let id = store.resolve_memory(&s.id)?;
            store.record_demand("show", None, &[id.as_str()], None, now)?;
            let m = store.memory(&id)?;
            let mut o = memory_json(&m);
            o.insert("chain".into(), json!(store.chain(&id)?));
            let events: Vec<Value> = store
                .memory_events(Some(&id))?
                .iter()
                .map(event_json)
                .collect();
            o.insert("events".into(), Value::Array(events));
            let (raw, utility) = store.memory_utility(&id, now)?;
            o.insert("demand".into(), json!((raw * 1000.0).round() / 1000.0));
            o.insert("utility".into(), json!((utility * 1000.0).round() / 1000.0));
            ctx.out.record(SHOW_COLUMNS, &Value::Object(o))?;
        }
        MemoryCommand::Redact(r) => {
            let id = store.resolve_memory(&r.id)?;
            let who = cli_actor(&store, None, now)?;
            store.redact_memory(&id, r.reason.as_deref(), &who)?;
            print_id_or_record(ctx, &store, &id)?;
        }
    }
    Ok(Exit::Success)
}

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = "JSON fields: those of a memory (see `sessionkit memories --help`) plus rank (bm25, lower is better) and snippet (the match in **bold**). Each hit counts as demand (1.5, once a day)."
)]
pub struct RecallArgs {
    /// Words to look for (any of them; ranked by bm25, ties by recency). A word in over a tenth of the memories (and over 2,000) is left out when the query has rarer ones; when every word is that common, only the 2,000 newest matches are ranked, and a note says so
    pub query: String,
    #[arg(long, value_name = "K")]
    pub kind: Option<String>,
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub limit: u64,
    /// Superseded and archived memories too
    #[arg(long)]
    pub all: bool,
}

const RECALL_COLUMNS: &[Column] = &[
    col("memory_id", "id"),
    col("kind", "kind"),
    col("state", "state"),
    col("topic", "topic"),
    col("snippet", "snippet"),
];

pub fn recall(ctx: &Ctx, a: &RecallArgs) -> Result<Exit> {
    let now = now();
    let mut store = ctx.open_writer()?;
    if let Some(k) = &a.kind {
        crate::continuity::memory::check_kind(k)?;
    }
    let found = store.recall(
        &a.query,
        a.kind.as_deref(),
        a.project.as_deref(),
        a.all,
        a.limit,
    )?;
    if let Some(n) = found.newest_ranked {
        ctx.out.note(&format!(
            "every word of {:?} is in over a tenth of the memories: ranked the {n} newest that match; add a rarer word to rank them all",
            a.query
        ));
    }
    let hits = found.hits;
    let ids: Vec<&str> = hits.iter().map(|h| h.memory.memory_id.as_str()).collect();
    store.record_demand("recall", None, &ids, None, now)?;
    let rows: Vec<Value> = hits
        .iter()
        .map(|h| {
            let mut o = memory_json(&h.memory);
            o.insert("rank".into(), json!((h.rank * 1e6).round() / 1e6));
            o.insert("snippet".into(), json!(h.snippet));
            Value::Object(o)
        })
        .collect();
    ctx.out.records(RECALL_COLUMNS, &rows)?;
    Ok(Exit::Success)
}

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = "One JSON object per line, keys sorted: {type: memory, memory_id, kind, topic, description, content, project, scope, tags, status, pinned, redacted, supersedes, valid_from, valid_to, created_at, updated_at}, then {type: commitment, memory_id, status, due_at, owner, resolved_at, updated_at}, then {type: event, event_id, memory_id, kind, actor, session_run_id, reason, created_at}."
)]
pub struct ExportArgs {
    /// Only this project's memories (and their commitments and events)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
}

/// One export line per memory, commitment and event: deterministic JSON Lines
/// (sorted keys, a stable order, no derived or volatile fields).
pub fn export(ctx: &Ctx, a: &ExportArgs) -> Result<Exit> {
    use std::io::Write;
    let store = ctx.open()?;
    let (memories, events) = store.export_rows(a.project.as_deref())?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for m in &memories {
        let line = json!({
            "type": "memory",
            "memory_id": m.memory_id,
            "kind": m.kind,
            "topic": m.topic,
            "description": m.description,
            "content": m.content,
            "project": m.project,
            "scope": m.scope,
            "tags": m.tags,
            "status": m.status,
            "pinned": m.pinned,
            "redacted": m.content_hash.is_none(),
            "supersedes": m.supersedes,
            "valid_from": time(Some(m.valid_from)),
            "valid_to": time(m.valid_to),
            "created_at": time(Some(m.created_at)),
            "updated_at": time(Some(m.updated_at)),
        });
        writeln!(out, "{line}")?;
    }
    for m in &memories {
        if let Some(c) = &m.commitment {
            let mut line = commitment_json(c);
            line["type"] = json!("commitment");
            line["memory_id"] = json!(m.memory_id);
            writeln!(out, "{line}")?;
        }
    }
    for e in &events {
        let mut line = event_json(e);
        line["type"] = json!("event");
        writeln!(out, "{line}")?;
    }
    out.flush()?;
    Ok(Exit::Success)
}

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = "All or nothing: every record is checked first, and when one is rejected nothing is written. JSON fields (one object per record): line, type, id, result (created|present|rejected|not-imported), reason. Exit status 1 when a record was rejected (nothing imported); 2 (nothing imported) when the input is not UTF-8."
)]
pub struct ImportArgs {
    /// An export file, or - for stdin
    pub file: String,
}

const IMPORT_COLUMNS: &[Column] = &[
    col("line", "line"),
    col("type", "type"),
    col("id", "id"),
    col("result", "result"),
    col("reason", "reason"),
];

fn text<'a>(v: &'a Value, k: &str) -> Result<&'a str> {
    v.get(k)
        .and_then(Value::as_str)
        .with_context(|| format!("no {k:?} string"))
}

fn opt_text(v: &Value, k: &str) -> Option<String> {
    v.get(k).and_then(Value::as_str).map(str::to_string)
}

fn instant(v: &Value, k: &str) -> Result<Option<Millis>> {
    match v.get(k) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => parse_instant(s)
            .map(Some)
            .with_context(|| format!("{k} {s:?} is not an RFC 3339 instant")),
        Some(other) => bail!("{k} is {other}, not a time"),
    }
}

fn required_instant(v: &Value, k: &str) -> Result<Millis> {
    instant(v, k)?.with_context(|| format!("no {k:?}"))
}

fn memory_of(v: &Value) -> Result<Memory> {
    let content = text(v, "content")?.to_string();
    let redacted = v.get("redacted").and_then(Value::as_bool).unwrap_or(false);
    let tags = match v.get("tags") {
        Some(Value::Array(a)) => a
            .iter()
            .map(|t| {
                t.as_str()
                    .map(str::to_string)
                    .context("a tag is not a string")
            })
            .collect::<Result<Vec<_>>>()?,
        None | Some(Value::Null) => Vec::new(),
        Some(_) => bail!("tags is not an array"),
    };
    Ok(Memory {
        memory_id: id(v, "memory_id")?,
        kind: text(v, "kind")?.to_string(),
        topic: text(v, "topic")?.to_string(),
        description: opt_text(v, "description"),
        content_hash: (!redacted).then(|| crate::continuity::memory::content_hash(&content)),
        content,
        project: text(v, "project")?.to_string(),
        scope: text(v, "scope")?.to_string(),
        tags,
        status: text(v, "status")?.to_string(),
        pinned: v.get("pinned").and_then(Value::as_bool).unwrap_or(false),
        supersedes: opt_text(v, "supersedes")
            .map(|s| checked_id("supersedes", s))
            .transpose()?,
        valid_from: required_instant(v, "valid_from")?,
        valid_to: instant(v, "valid_to")?,
        created_at: required_instant(v, "created_at")?,
        updated_at: required_instant(v, "updated_at")?,
        commitment: None,
    })
}

/// An id as sessionkit writes them: a UUID in its hyphenated lowercase form.
fn checked_id(field: &str, s: String) -> Result<String> {
    match uuid::Uuid::try_parse(&s) {
        Ok(u) if u.hyphenated().to_string() == s => Ok(s),
        _ => bail!("{field} {s:?} is not an id (a lowercase hyphenated UUID)"),
    }
}

fn id(v: &Value, field: &str) -> Result<String> {
    checked_id(field, text(v, field)?.to_string())
}

fn commitment_of(v: &Value) -> Result<Commitment> {
    Ok(Commitment {
        status: text(v, "status")?.to_string(),
        due_at: instant(v, "due_at")?,
        owner: opt_text(v, "owner"),
        resolved_at: instant(v, "resolved_at")?,
        updated_at: required_instant(v, "updated_at")?,
    })
}

fn event_of(v: &Value) -> Result<MemoryEvent> {
    Ok(MemoryEvent {
        event_id: id(v, "event_id")?,
        memory_id: id(v, "memory_id")?,
        kind: text(v, "kind")?.to_string(),
        actor: text(v, "actor")?.to_string(),
        session_run_id: opt_text(v, "session_run_id")
            .map(|s| checked_id("session_run_id", s))
            .transpose()?,
        reason: opt_text(v, "reason"),
        created_at: required_instant(v, "created_at")?,
    })
}

/// An export file read back: its records with their line numbers, and the
/// lines it could not take, as report rows (`result: rejected`).
pub struct ExportFile {
    pub rejected: Vec<Value>,
    pub memories: Vec<(usize, Memory)>,
    pub events: Vec<(usize, MemoryEvent)>,
}

/// Reads an export's text (no database): each line a memory, commitment or
/// event record; a commitment joins its memory.
pub fn read_export(text_in: &str) -> ExportFile {
    // A byte-order mark is not part of the first record (it made the first
    // memory, and so its commitment, rejected).
    let text_in = text_in.strip_prefix('\u{feff}').unwrap_or(text_in);
    let mut rows: Vec<Value> = Vec::new();
    let mut memories: Vec<(usize, Memory)> = Vec::new();
    let mut commitments: Vec<(usize, String, Commitment)> = Vec::new();
    let mut events: Vec<(usize, MemoryEvent)> = Vec::new();
    let reject = |rows: &mut Vec<Value>, line: usize, kind: &str, id: &str, why: String| {
        rows.push(
            json!({"line": line, "type": kind, "id": id, "result": "rejected", "reason": why}),
        );
    };
    for (i, l) in text_in.lines().enumerate() {
        let line = i + 1;
        if l.trim().is_empty() {
            continue;
        }
        let v: Value = match serde_json::from_str(l) {
            Ok(v) => v,
            Err(e) => {
                reject(&mut rows, line, "?", "", format!("not JSON: {e}"));
                continue;
            }
        };
        let kind = v
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let parsed = match kind.as_str() {
            "memory" => memory_of(&v).map(|m| memories.push((line, m))),
            "commitment" => commitment_of(&v).and_then(|c| {
                commitments.push((line, text(&v, "memory_id")?.to_string(), c));
                Ok(())
            }),
            "event" => event_of(&v).map(|e| events.push((line, e))),
            other => Err(anyhow::anyhow!("unknown record type {other:?}")),
        };
        if let Err(e) = parsed {
            let id = ["memory_id", "event_id"]
                .iter()
                .find_map(|k| opt_text(&v, k))
                .unwrap_or_default();
            reject(&mut rows, line, &kind, &id, format!("{e:#}"));
        }
    }
    // A commitment travels with its memory.
    let at: std::collections::HashMap<String, usize> = memories
        .iter()
        .enumerate()
        .map(|(i, (_, m))| (m.memory_id.clone(), i))
        .collect();
    for (line, id, c) in commitments {
        match at.get(&id) {
            Some(&i) if memories[i].1.commitment.is_some() => reject(
                &mut rows,
                line,
                "commitment",
                &id,
                "a second commitment record for this memory".into(),
            ),
            Some(&i) => memories[i].1.commitment = Some(c),
            None => reject(
                &mut rows,
                line,
                "commitment",
                &id,
                "its memory is not in the file".into(),
            ),
        }
    }
    ExportFile {
        rejected: rows,
        memories,
        events,
    }
}

/// Replays an export: same ids, kinds, actors and times; no events of its own.
pub fn import(ctx: &Ctx, a: &ImportArgs) -> Result<Exit> {
    let (bytes, name) = if a.file == "-" {
        (super::stdin_bytes()?, "stdin")
    } else {
        let b = std::fs::read(&a.file).with_context(|| format!("reading {}", a.file))?;
        (b, a.file.as_str())
    };
    let text_in = super::utf8(bytes, name, "nothing was imported")?;
    let ExportFile {
        rejected: mut rows,
        memories,
        events,
    } = read_export(&text_in);
    let mut store = ctx.open_writer()?;
    let redact = crate::settings::choice(&store, "memory.redaction")? == "on";
    let mlist: Vec<Memory> = memories
        .iter()
        .map(|(_, m)| {
            let mut m = m.clone();
            if redact {
                redact_imported(&mut m);
            }
            m
        })
        .collect();
    let elist: Vec<MemoryEvent> = events.iter().map(|(_, e)| e.clone()).collect();
    let results = store.check_import(&mlist, &elist)?;
    // All or nothing: one rejected record and nothing is written.
    let refused = !rows.is_empty() || results.iter().any(|r| r.outcome.is_err());
    let lines: Vec<usize> = memories
        .iter()
        .map(|(l, _)| *l)
        .chain(events.iter().map(|(l, _)| *l))
        .collect();
    for (r, line) in results.into_iter().zip(lines) {
        let (kind, id) = (r.kind, r.id);
        let (result, reason) = match r.outcome {
            Ok(_) if refused => (
                "not-imported",
                json!("another record of the file was rejected: nothing was written"),
            ),
            Ok(true) => ("created", Value::Null),
            Ok(false) => ("present", Value::Null),
            Err(why) => ("rejected", json!(why)),
        };
        rows.push(
            json!({"line": line, "type": kind, "id": id, "result": result, "reason": reason}),
        );
    }
    if !refused {
        let created = store.write_import(&mlist, &elist)?;
        if created >= COMPACT_AFTER {
            // A bulk load leaves the search index in many segments, and every
            // word looked up seeks each one (remember's duplicate check looks
            // up a dozen): merge them into one.
            store.compact_search()?;
        }
        store.optimize()?;
    }
    rows.sort_by_key(|r| r["line"].as_u64());
    let count = |what: &str| rows.iter().filter(|r| r["result"] == what).count();
    let (created, present, rejected) = (count("created"), count("present"), count("rejected"));
    ctx.out.records(IMPORT_COLUMNS, &rows)?;
    if rejected > 0 {
        ctx.out.note(&format!(
            "nothing imported: {rejected} record(s) rejected; fix or remove them and import again"
        ));
    } else {
        ctx.out.note(&format!(
            "imported: {created} created, {present} already present"
        ));
    }
    Ok(if rejected > 0 {
        Exit::Found
    } else {
        Exit::Success
    })
}

/// An import creating at least this many memories compacts the search index.
const COMPACT_AFTER: usize = 1000;

/// Secrets out of an imported memory's text, as `remember` takes them out
/// of a new one (an export file comes from outside); its content hash
/// follows its content. An export of sessionkit's own is already redacted
/// (redacting again changes nothing), so its round trip stays identical.
fn redact_imported(m: &mut Memory) {
    let r = |s: &mut String| {
        if let std::borrow::Cow::Owned(v) = crate::redact::redact_text(s) {
            *s = v;
        }
    };
    let before = m.content.clone();
    r(&mut m.topic);
    r(&mut m.content);
    if let Some(d) = m.description.as_mut() {
        r(d);
    }
    m.tags.iter_mut().for_each(r);
    if let Some(o) = m.commitment.as_mut().and_then(|c| c.owner.as_mut()) {
        r(o);
    }
    if m.content != before && m.content_hash.is_some() {
        m.content_hash = Some(crate::continuity::memory::content_hash(&m.content));
    }
}

/// Secrets out of a memory before it is written, unless `memory.redaction`
/// is off.
fn redact_if_on(store: &crate::store::Store, d: Draft) -> Result<Draft> {
    Ok(
        if crate::settings::choice(store, "memory.redaction")? == "on" {
            d.redacted()
        } else {
            d
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn memory(commitment: Option<Commitment>, valid_to: Option<Millis>, redacted: bool) -> Memory {
        Memory {
            memory_id: "0199a".into(),
            kind: if commitment.is_some() {
                "commitment"
            } else {
                "note"
            }
            .into(),
            topic: "ship \"it\"".into(),
            description: Some("one line".into()),
            content: "body\nwith lines".into(),
            project: "shop".into(),
            scope: "project".into(),
            tags: vec!["a".into(), "b c".into()],
            status: "active".into(),
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

    /// The documented shape, field by field (as it was first written).
    fn documented(m: &Memory) -> Map<String, Value> {
        let mut o = Map::new();
        o.insert("memory_id".into(), json!(m.memory_id));
        o.insert("kind".into(), json!(m.kind));
        o.insert("topic".into(), json!(m.topic));
        o.insert("description".into(), json!(m.description));
        o.insert("content".into(), json!(m.content));
        o.insert("project".into(), json!(m.project));
        o.insert("scope".into(), json!(m.scope));
        o.insert("tags".into(), json!(m.tags));
        o.insert("status".into(), json!(m.status));
        o.insert("pinned".into(), json!(m.pinned));
        o.insert("redacted".into(), json!(m.content_hash.is_none()));
        o.insert("supersedes".into(), json!(m.supersedes));
        o.insert("valid_from".into(), time(Some(m.valid_from)));
        o.insert("valid_to".into(), time(m.valid_to));
        o.insert("created_at".into(), time(Some(m.created_at)));
        o.insert("updated_at".into(), time(Some(m.updated_at)));
        o.insert(
            "commitment".into(),
            m.commitment.as_ref().map_or(Value::Null, commitment_json),
        );
        o.insert("state".into(), json!(state(&m.view())));
        o.insert(
            "due_at".into(),
            time(m.commitment.as_ref().and_then(|c| c.due_at)),
        );
        o
    }

    /// A listing's rows are exactly the documented shape (less the content
    /// unless --full), byte for byte; so is `memory_json`.
    #[test]
    fn a_listed_row_is_the_documented_shape() {
        let c = Commitment {
            status: "waiting".into(),
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
                assert_eq!(memory_json(&m), documented(&m));
                let mut want = documented(&m);
                if !full {
                    want.remove("content");
                }
                let listed = Listed::of(&m.view(), full);
                let got = serde_json::to_string(&listed).unwrap();
                assert_eq!(got, serde_json::to_string(&Value::Object(want)).unwrap());
                let mut direct = Vec::new();
                listed.write_json(&mut direct);
                assert_eq!(String::from_utf8(direct).unwrap(), got);
                // From a row: tags as stored, plain or not.
                for raw in [r#"["a","b c"]"#, r#"[ "a", "b\u0020c" ]"#] {
                    let row = MemoryView {
                        tags: Tags::Json(raw),
                        ..m.view()
                    };
                    let mut direct = Vec::new();
                    Listed::of(&row, full).write_json(&mut direct);
                    assert_eq!(String::from_utf8(direct).unwrap(), got, "{raw}");
                }
            }
        }
    }
}
