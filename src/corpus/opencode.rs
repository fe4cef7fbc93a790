//! OpenCode's database as a source of sessions: `opencode.db` at the top
//! of a root (`~/.local/share/opencode`, or `$XDG_DATA_HOME/opencode`).
//! It is opened read-only (`mode=ro`: the file is never written) and read
//! in short statements, so OpenCode, which may be writing it, never waits
//! on sessionkit for long.
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

use crate::transcript::PARSER_REVISION;
use crate::transcript::opencode::{MessageRow, SessionRow};

/// The database's name at the top of a root.
pub const DATABASE: &str = crate::transcript::opencode::DATABASE;

/// An OpenCode database found at the top of a root.
#[derive(Debug, Clone)]
pub struct Database {
    pub root: usize,
    pub path: PathBuf,
    pub size: u64,
    /// When it last changed, as the walk's files say it (`lstat`'s mtime).
    pub mtime_ns: i128,
}

/// Whether `root` is OpenCode's data folder: its database is there.
pub fn database_in(root: &Path) -> Option<PathBuf> {
    let path = root.join(DATABASE);
    std::fs::symlink_metadata(&path)
        .ok()
        .filter(std::fs::Metadata::is_file)
        .map(|_| path)
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
    let conn = crate::sqlite::connect_read_only(path)?;
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
    Ok(order
        .into_iter()
        .map(|t| {
            let ids: Vec<usize> = std::iter::once(t)
                .chain(members[&t].iter().copied())
                .collect();
            let mut h = Sha256::new();
            h.update(format!("rev{PARSER_REVISION}\nopencode\n"));
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
        .collect())
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
