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

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rusqlite::Connection;
use sha2::{Digest, Sha256};

use super::read::{MessageRow, PartRow};
use crate::domain::clock::Millis;
use crate::domain::corpus::kit::{
    OpenStore, SessionStore, Tree, file_at, group_trees, open_database,
};
use crate::domain::transcript::said::SaidOptions;
use crate::domain::transcript::{ParsedSession, SessionRow};

/// OpenCode's store, or a fork's: its database's name at the top of its
/// data folder, and (OpenCode's own) the older versions' folder of JSON
/// files.
#[derive(Debug)]
pub struct Store {
    pub database: &'static str,
    pub storage: Option<&'static str>,
}

/// OpenCode's own.
pub static STORE: Store = Store {
    database: super::read::DATABASE,
    storage: Some(super::read::STORAGE),
};

impl Store {
    fn is_storage(&self, path: &Path) -> bool {
        self.storage
            .is_some_and(|s| path.file_name().is_some_and(|n| n == s))
    }
}

impl SessionStore for Store {
    /// The database first, then the `storage/` folder when it holds
    /// sessions.
    fn stores_in(&self, root: &Path) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = file_at(root, self.database).into_iter().collect();
        if let Some(storage) = self.storage.map(|s| root.join(s))
            && std::fs::symlink_metadata(storage.join("session")).is_ok_and(|m| m.is_dir())
        {
            out.push(storage);
        }
        out
    }

    fn label(&self, path: &Path) -> &'static str {
        match self.storage {
            Some(s) if self.is_storage(path) => s,
            _ => self.database,
        }
    }

    fn open(&self, path: &Path) -> Result<Box<dyn OpenStore>> {
        Ok(if self.is_storage(path) {
            Box::new(Opened::Storage(path.to_path_buf()))
        } else {
            Box::new(Opened::Sqlite(open_database(path)?))
        })
    }

    /// A session in both is read from the database (OpenCode moves
    /// `storage/` into it when it upgrades).
    fn yields(&self, path: &Path) -> bool {
        self.is_storage(path)
    }
}

/// An open store: a read-only connection to the database, or the
/// `storage/` folder.
enum Opened {
    Sqlite(Connection),
    Storage(PathBuf),
}

impl OpenStore for Opened {
    fn trees(&self) -> Result<Vec<Tree>> {
        match self {
            Opened::Sqlite(c) => trees(c),
            Opened::Storage(dir) => storage_trees(dir),
        }
    }

    fn parse(&self, label: &str, tree: &Tree, said: Option<SaidOptions>) -> Result<ParsedSession> {
        let messages = match self {
            Opened::Sqlite(c) => messages(c, tree)?,
            Opened::Storage(dir) => storage_messages(dir, tree)?,
        };
        let mut parsed = super::read::parse_tree(label, &tree.sessions, &messages);
        let title = tree.sessions[0]
            .title
            .as_deref()
            .filter(|t| !super::read::default_title(t));
        parsed.title_and_said(title, said, |o| {
            let parts = match self {
                Opened::Sqlite(c) => parts(c, tree),
                Opened::Storage(dir) => storage_parts(dir, &messages),
            };
            Some(super::read::said_of_parts(&messages, &parts.ok()?, o))
        });
        Ok(parsed)
    }
}

/// Every session tree of the database. A session whose parent is not in
/// the database is the top of a tree of its own.
fn trees(conn: &Connection) -> Result<Vec<Tree>> {
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

/// The messages of a tree's sessions, each session's in order.
fn messages(conn: &Connection, tree: &Tree) -> Result<Vec<MessageRow>> {
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
fn parts(conn: &Connection, tree: &Tree) -> Result<Vec<PartRow>> {
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
                    meta.as_ref()
                        .map_or(0, crate::domain::corpus::kit::mtime_ns)
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
