//! OpenCode's data as a source of sessions, at the top of a root
//! (`~/.local/share/opencode`, or `$XDG_DATA_HOME/opencode`): its database
//! `opencode.db` (OpenCode 1.2 and later), and the JSON files older
//! versions kept instead, `storage/` (`session/<project>/<session>.json`,
//! `message/<session>/<message>.json`; the same fields as the database's
//! rows and `data`, as OpenCode 1.1 writes them). The database is opened
//! read-only (`mode=ro`: the file is never written) and read in short
//! statements, so OpenCode, which may be writing it, never waits on
//! sessionkit for long. Where both are there (OpenCode moves `storage/`
//! into the database when it upgrades), a session in the database is read
//! from there and its copy in `storage/` is not read again.
//!
//! A session tree — a top-level session and the subagent sessions under it
//! by `parent_id` — is one sessionkit session. Whether a tree changed is
//! told from its `session` rows alone (OpenCode updates a session's row,
//! its `time_updated` and token sums, with each message), so a run with
//! nothing changed reads one table.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rusqlite::Connection;
use sha2::{Digest, Sha256};

use crate::domain::clock::Millis;
use crate::domain::transcript::opencode::{MessageRow, PartRow, SessionRow};
use crate::domain::transcript::said::SaidOptions;
use crate::domain::transcript::{Format, PARSER_REVISION, ParsedSession};

/// The database's name at the top of a root.
pub const DATABASE: &str = crate::domain::transcript::opencode::DATABASE;

/// The older versions' folder of JSON files at the top of a root.
pub const STORAGE: &str = crate::domain::transcript::opencode::STORAGE;

/// Kilo's database: OpenCode's tables under its own name.
pub const KILO_DATABASE: &str = crate::domain::transcript::opencode::KILO_DATABASE;

/// A store of sessions found at the top of a root: OpenCode's database
/// (or a fork's), the older versions' `storage/` folder, or another
/// client's database (Hermes Agent's).
#[derive(Debug, Clone)]
pub struct Database {
    pub root: usize,
    pub path: PathBuf,
    /// Whose it is.
    pub format: Format,
    pub size: u64,
    /// When it last changed, as the walk's files say it (`lstat`'s mtime).
    pub mtime_ns: i128,
}

impl Database {
    /// Whether this is the older versions' `storage/` folder.
    pub fn is_storage(&self) -> bool {
        self.path.file_name().is_some_and(|n| n == STORAGE)
    }

    /// Its name in reports and session paths: `opencode.db`, Kilo's
    /// `kilo.db`, `storage`, Hermes's `state.db`.
    pub fn label(&self) -> &'static str {
        if self.is_storage() {
            STORAGE
        } else {
            match self.format {
                Format::Kilo => KILO_DATABASE,
                Format::Hermes => crate::domain::transcript::hermes::DATABASE,
                Format::OpenClaw => crate::domain::transcript::openclaw::DATABASE,
                Format::Vibe => crate::domain::transcript::vibe::STORE,
                _ => DATABASE,
            }
        }
    }
}

/// Whether `root` is OpenCode's data folder: its database, or an older
/// version's `storage/` of sessions, is there.
pub fn database_in(root: &Path) -> Option<PathBuf> {
    stores_in(root).into_iter().next()
}

/// OpenCode's stores at the top of `root`: the database first, then the
/// `storage/` folder when it holds sessions.
pub fn stores_in(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for name in [DATABASE, KILO_DATABASE] {
        let db = root.join(name);
        if std::fs::symlink_metadata(&db).is_ok_and(|m| m.is_file()) {
            out.push(db);
        }
    }
    let storage = root.join(STORAGE);
    if std::fs::symlink_metadata(storage.join("session")).is_ok_and(|m| m.is_dir()) {
        out.push(storage);
    }
    out
}

/// For the `storage/` folder, the sessions the database beside it holds
/// (moved there by an upgrade, and read from there); for the database,
/// none.
pub fn moved_to_database(db: &Database) -> std::collections::HashSet<String> {
    if !db.is_storage() {
        return Default::default();
    }
    let Some(sibling) = db.path.parent().map(|p| p.join(DATABASE)) else {
        return Default::default();
    };
    if !sibling.is_file() {
        return Default::default();
    }
    open(&sibling)
        .and_then(|c| trees(&c))
        .map(|ts| ts.iter().map(|t| t.id().to_string()).collect())
        .unwrap_or_default()
}

/// An open store: a read-only connection to the database, or the
/// `storage/` folder.
pub enum Reader {
    Sqlite(Connection),
    Storage(PathBuf),
    /// Hermes Agent's database.
    Hermes(Connection),
    /// An OpenClaw agent's database.
    OpenClaw(Connection),
    /// Mistral Vibe's session store (a folder).
    Vibe(PathBuf),
}

impl Reader {
    pub fn open(db: &Database) -> Result<Reader> {
        if db.is_storage() {
            return Ok(Reader::Storage(db.path.clone()));
        }
        if db.format == Format::Vibe {
            return Ok(Reader::Vibe(db.path.clone()));
        }
        let conn = open(&db.path)?;
        Ok(match db.format {
            Format::Hermes => Reader::Hermes(conn),
            Format::OpenClaw => Reader::OpenClaw(conn),
            _ => Reader::Sqlite(conn),
        })
    }

    /// A tree read whole, as one session (`label` the store's name in its
    /// paths); with `said`, what its messages say, for search.
    pub fn parse(
        &self,
        label: &str,
        tree: &Tree,
        said: Option<SaidOptions>,
    ) -> Result<ParsedSession> {
        use crate::domain::transcript::{hermes, openclaw, opencode, vibe};
        match self {
            Reader::Hermes(c) => {
                let totals = super::hermes::totals(c, tree)?;
                return Ok(hermes::parse_tree(label, &tree.sessions, &totals));
            }
            Reader::OpenClaw(c) => {
                let events = super::openclaw::events(c, tree)?;
                return Ok(openclaw::parse_tree(label, &tree.sessions, &events));
            }
            Reader::Vibe(root) => {
                let files = super::vibe::files(root, tree);
                return Ok(vibe::parse_tree(label, &tree.sessions, &files));
            }
            Reader::Sqlite(_) | Reader::Storage(_) => {}
        }
        let messages = self.messages(tree)?;
        let mut parsed = opencode::parse_tree(label, &tree.sessions, &messages);
        if let Some(o) = said
            && let Ok(parts) = self.parts(tree, &messages)
        {
            parsed.said = opencode::said_of_parts(&messages, &parts, o);
        }
        Ok(parsed)
    }

    /// Every session tree of the store.
    pub fn trees(&self) -> Result<Vec<Tree>> {
        match self {
            Reader::Sqlite(c) => trees(c),
            Reader::Storage(dir) => storage_trees(dir),
            Reader::Hermes(c) => super::hermes::trees(c),
            Reader::OpenClaw(c) => super::openclaw::trees(c),
            Reader::Vibe(root) => super::vibe::trees(root),
        }
    }

    /// The messages of a tree's sessions, each session's in order.
    pub fn messages(&self, tree: &Tree) -> Result<Vec<MessageRow>> {
        match self {
            Reader::Sqlite(c) => messages(c, tree),
            Reader::Storage(dir) => storage_messages(dir, tree),
            Reader::Hermes(_) | Reader::OpenClaw(_) | Reader::Vibe(_) => Ok(Vec::new()),
        }
    }

    /// The parts of `messages` (what they say), each message's in order.
    pub fn parts(&self, tree: &Tree, messages: &[MessageRow]) -> Result<Vec<PartRow>> {
        match self {
            Reader::Sqlite(c) => parts(c, tree),
            Reader::Storage(dir) => storage_parts(dir, messages),
            Reader::Hermes(_) | Reader::OpenClaw(_) | Reader::Vibe(_) => Ok(Vec::new()),
        }
    }
}

/// One session tree: its sessions, the top-level one first, and a
/// fingerprint of their rows.
#[derive(Debug, Clone)]
pub struct Tree {
    pub sessions: Vec<SessionRow>,
    pub fingerprint: String,
}

impl Tree {
    pub fn id(&self) -> &str {
        &self.sessions[0].id
    }
}

/// Opens the database to read.
pub fn open(path: &Path) -> Result<Connection> {
    let conn = crate::domain::sqlite::connect_read_only(path)?;
    // OpenCode may hold the write lock for a moment; never longer than this.
    conn.busy_timeout(std::time::Duration::from_millis(500))?;
    Ok(conn)
}

/// Every session tree of the database. A session whose parent is not in
/// the database is the top of a tree of its own.
pub fn trees(conn: &Connection) -> Result<Vec<Tree>> {
    let mut stmt = conn
        .prepare(
            "SELECT id, parent_id, directory, title, version, agent, time_created, time_updated,
                tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, tokens_cache_write
             FROM session ORDER BY time_created, id",
        )
        .context("reading OpenCode's sessions")?;
    let rows: Vec<(SessionRow, String)> = stmt
        .query_map([], |r| {
            let row = SessionRow {
                id: r.get(0)?,
                parent_id: r.get(1)?,
                directory: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
                title: r.get(3)?,
                version: r.get(4)?,
                agent: r.get(5)?,
                time_created: r.get(6)?,
                time_updated: r.get(7)?,
            };
            let sums = format!(
                "{}\t{}\t{}\t{}\t{}\t{}",
                row.time_updated,
                r.get::<_, i64>(8)?,
                r.get::<_, i64>(9)?,
                r.get::<_, i64>(10)?,
                r.get::<_, i64>(11)?,
                r.get::<_, i64>(12)?
            );
            Ok((row, sums))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(group_trees(&rows, "opencode"))
}

/// Session rows (in order of creation, each with what its fingerprint
/// covers) grouped into trees: a session whose parent is not among them is
/// the top of a tree of its own.
pub(super) fn group_trees(rows: &[(SessionRow, String)], kind: &str) -> Vec<Tree> {
    let index: HashMap<&str, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, (r, _))| (r.id.as_str(), i))
        .collect();
    // The top of each session's tree, following parents (a loop, which
    // OpenCode never writes, ends where it comes round).
    let top = |mut i: usize| {
        let mut seen = 0;
        while let Some(&p) = rows[i].0.parent_id.as_deref().and_then(|p| index.get(p)) {
            seen += 1;
            if p == i || seen > rows.len() {
                break;
            }
            i = p;
        }
        i
    };
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut order = Vec::new();
    for i in 0..rows.len() {
        let t = top(i);
        let m = members.entry(t).or_insert_with(|| {
            order.push(t);
            Vec::new()
        });
        if i != t {
            m.push(i);
        }
    }
    order
        .into_iter()
        .map(|t| {
            let ids: Vec<usize> = std::iter::once(t)
                .chain(members[&t].iter().copied())
                .collect();
            let mut h = Sha256::new();
            h.update(format!("rev{PARSER_REVISION}\n{kind}\n"));
            for &i in &ids {
                h.update(rows[i].0.id.as_bytes());
                h.update(b"\t");
                h.update(rows[i].1.as_bytes());
                h.update(b"\n");
            }
            Tree {
                sessions: ids.iter().map(|&i| rows[i].0.clone()).collect(),
                fingerprint: h.finalize().iter().map(|b| format!("{b:02x}")).collect(),
            }
        })
        .collect()
}

/// The messages of a tree's sessions, each session's in order.
pub fn messages(conn: &Connection, tree: &Tree) -> Result<Vec<MessageRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, session_id, time_created, data FROM message
         WHERE session_id = ?1 ORDER BY time_created, id",
    )?;
    let mut out = Vec::new();
    for s in &tree.sessions {
        let rows = stmt.query_map([&s.id], |r| {
            Ok(MessageRow {
                id: r.get(0)?,
                session_id: r.get(1)?,
                time_created: r.get(2)?,
                data: r.get(3)?,
            })
        })?;
        for r in rows {
            out.push(r.with_context(|| format!("reading OpenCode session {}", s.id))?);
        }
    }
    Ok(out)
}

/// The parts of a tree's sessions, each message's in order.
pub fn parts(conn: &Connection, tree: &Tree) -> Result<Vec<PartRow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, message_id, session_id, time_created, data FROM part
         WHERE session_id = ?1 ORDER BY message_id, id",
    )?;
    let mut out = Vec::new();
    for s in &tree.sessions {
        let rows = stmt.query_map([&s.id], |r| {
            Ok(PartRow {
                id: r.get(0)?,
                message_id: r.get(1)?,
                session_id: r.get(2)?,
                time_created: r.get(3)?,
                data: r.get(4)?,
            })
        })?;
        for r in rows {
            out.push(r.with_context(|| format!("reading OpenCode session {}'s parts", s.id))?);
        }
    }
    Ok(out)
}

/// The part files of `storage/part/<message>/`, each message's by name (a
/// part's id sorts in the order it was written). A part file that cannot
/// be read says nothing.
fn storage_parts(dir: &Path, messages: &[MessageRow]) -> Result<Vec<PartRow>> {
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct StoredPart {
        id: String,
    }
    let mut out = Vec::new();
    for m in messages {
        for (name, path) in json_files(&dir.join("part").join(&m.id)) {
            let Ok(data) = std::fs::read_to_string(&path) else {
                continue;
            };
            let p: StoredPart = serde_json::from_str(&data).unwrap_or_default();
            out.push(PartRow {
                id: if p.id.is_empty() {
                    name.trim_end_matches(".json").to_string()
                } else {
                    p.id
                },
                message_id: m.id.clone(),
                session_id: m.session_id.clone(),
                time_created: m.time_created,
                data,
            });
        }
    }
    Ok(out)
}

/// A session file of `storage/session/<project>/`.
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct StoredSession {
    id: String,
    #[serde(rename = "parentID")]
    parent_id: Option<String>,
    directory: Option<String>,
    title: Option<String>,
    version: Option<String>,
    time: StoredTime,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct StoredTime {
    created: Millis,
    updated: Option<Millis>,
}

/// A message file of `storage/message/<session>/`: its id and time (the
/// rest is the message's `data`, as the database keeps it).
#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct StoredMessage {
    id: String,
    time: StoredTime,
}

/// The JSON files of a folder, by name (none when it is not there).
fn json_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<(String, PathBuf)> = rd
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            name.ends_with(".json").then(|| (name, e.path()))
        })
        .collect();
    out.sort();
    out
}

/// The session trees of a `storage/` folder: every
/// `session/<project>/<id>.json`, grouped as the database's rows are. A
/// tree's fingerprint covers its session files and its message files'
/// names, sizes and times, so a run with nothing changed reads no message.
fn storage_trees(dir: &Path) -> Result<Vec<Tree>> {
    let mut rows: Vec<(SessionRow, String)> = Vec::new();
    let projects = std::fs::read_dir(dir.join("session"))
        .with_context(|| format!("reading {}", dir.join("session").display()))?;
    let mut project_dirs: Vec<PathBuf> = projects
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect();
    project_dirs.sort();
    for p in project_dirs {
        for (_, path) in json_files(&p) {
            let Ok(text) = std::fs::read(&path) else {
                continue;
            };
            let Ok(s) = serde_json::from_slice::<StoredSession>(&text) else {
                continue;
            };
            if s.id.is_empty() {
                continue;
            }
            let mut h = Sha256::new();
            h.update(&text);
            for (name, m) in json_files(&dir.join("message").join(&s.id)) {
                let meta = std::fs::metadata(&m).ok();
                h.update(format!(
                    "{name}\t{}\t{}\n",
                    meta.as_ref().map_or(0, std::fs::Metadata::len),
                    meta.as_ref().map_or(0, super::discover::mtime_ns)
                ));
            }
            let digest: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
            rows.push((
                SessionRow {
                    id: s.id,
                    parent_id: s.parent_id.filter(|p| !p.is_empty()),
                    directory: s.directory.unwrap_or_default(),
                    title: s.title,
                    version: s.version,
                    agent: None,
                    time_created: s.time.created,
                    time_updated: s.time.updated.unwrap_or(s.time.created),
                },
                digest,
            ));
        }
    }
    rows.sort_by(|a, b| (a.0.time_created, &a.0.id).cmp(&(b.0.time_created, &b.0.id)));
    Ok(group_trees(&rows, "opencode-storage"))
}

/// The messages of a tree's sessions from `storage/message/<session>/`,
/// each session's in order of creation.
fn storage_messages(dir: &Path, tree: &Tree) -> Result<Vec<MessageRow>> {
    let mut out = Vec::new();
    for s in &tree.sessions {
        let mut rows = Vec::new();
        for (name, path) in json_files(&dir.join("message").join(&s.id)) {
            let data = std::fs::read_to_string(&path)
                .with_context(|| format!("reading OpenCode message {}", path.display()))?;
            let m: StoredMessage = serde_json::from_str(&data).unwrap_or_default();
            let id = if m.id.is_empty() {
                name.trim_end_matches(".json").to_string()
            } else {
                m.id
            };
            rows.push(MessageRow {
                id,
                session_id: s.id.clone(),
                time_created: m.time.created,
                data,
            });
        }
        rows.sort_by(|a, b| (a.time_created, &a.id).cmp(&(b.time_created, &b.id)));
        out.extend(rows);
    }
    Ok(out)
}
