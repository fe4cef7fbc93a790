//! Hermes Agent's database as a source of sessions: `state.db` at the top
//! of its home (`~/.hermes`, or `$HERMES_HOME`). Hermes keeps no usage per
//! response: each `sessions` row holds its session's running totals,
//! updated after every response and across resumed runs (`input_tokens`
//! without the cached part, `cache_read_tokens`, `cache_write_tokens`,
//! `output_tokens` with the reasoning in it, `reasoning_tokens` apart).
//! `session_model_usage` repeats the same sums by model and is not read. A
//! subagent is a row of its own whose `parent_session_id` names its
//! parent: a tree of rows is one sessionkit session, as OpenCode's are.
//! The database is opened read-only (the WAL Hermes leaves beside it is
//! read with it) and read in short statements.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rusqlite::Connection;

use super::read::MessageRow;
use super::read::SessionTotals;
use crate::domain::corpus::kit::{
    OpenStore, SessionStore, Tree, file_at, group_trees, open_database, tree_rows,
};
use crate::domain::transcript::said::SaidOptions;
use crate::domain::transcript::{ParsedSession, SessionRow};

/// The database's name at the top of a root.
pub const DATABASE: &str = super::read::DATABASE;

/// Hermes's database at the top of `root`, when it is there and is
/// Hermes's (a `sessions` table with its running totals): `state.db` is a
/// common name.
pub fn database_in(root: &Path) -> Option<PathBuf> {
    let path = file_at(root, DATABASE)?;
    let conn = open_database(&path).ok()?;
    conn.prepare(
        "SELECT id, parent_session_id, api_call_count, reasoning_tokens FROM sessions LIMIT 0",
    )
    .is_ok()
    .then_some(path)
}

/// Hermes's store: its database.
#[derive(Debug)]
pub struct Store;

impl SessionStore for Store {
    fn stores_in(&self, root: &Path) -> Vec<PathBuf> {
        database_in(root).into_iter().collect()
    }

    fn label(&self, _: &Path) -> &'static str {
        DATABASE
    }

    fn open(&self, path: &Path) -> Result<Box<dyn OpenStore>> {
        Ok(Box::new(Opened(open_database(path)?)))
    }
}

struct Opened(Connection);

impl OpenStore for Opened {
    fn trees(&self) -> Result<Vec<Tree>> {
        trees(&self.0)
    }

    fn parse(&self, label: &str, tree: &Tree, said: Option<SaidOptions>) -> Result<ParsedSession> {
        let totals = totals(&self.0, tree)?;
        let mut parsed = super::read::parse_tree(label, &tree.sessions, &totals);
        // A database without messages (an older schema) says nothing.
        parsed.title_and_said(tree.sessions[0].title.as_deref(), said, |o| {
            Some(super::read::said_of_messages(
                &messages(&self.0, tree).ok()?,
                o,
            ))
        });
        Ok(parsed)
    }
}

/// Every session tree of the database, its fingerprint covering each
/// row's totals and times.
pub fn trees(conn: &Connection) -> Result<Vec<Tree>> {
    let mut stmt = conn
        .prepare(
            "SELECT id, parent_session_id, cwd, title, source, started_at, ended_at,
                input_tokens, output_tokens, cache_read_tokens, cache_write_tokens,
                reasoning_tokens, api_call_count, message_count, model, end_reason
             FROM sessions ORDER BY started_at, id",
        )
        .context("reading Hermes's sessions")?;
    let rows: Vec<(SessionRow, String)> = stmt
        .query_map([], |r| {
            let started = millis(r.get::<_, Option<f64>>(5)?);
            let ended = r.get::<_, Option<f64>>(6)?.map(|t| millis(Some(t)));
            let row = SessionRow {
                id: r.get(0)?,
                parent_id: r.get(1)?,
                directory: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
                title: r.get(3)?,
                version: None,
                agent: r.get(4)?,
                time_created: started,
                time_updated: ended.unwrap_or(started),
            };
            let mut sums = format!("{}", ended.unwrap_or(-1));
            for i in 7..=13 {
                sums.push_str(&format!("\t{}", r.get::<_, Option<i64>>(i)?.unwrap_or(0)));
            }
            for i in 14..=15 {
                sums.push_str(&format!(
                    "\t{}",
                    r.get::<_, Option<String>>(i)?.unwrap_or_default()
                ));
            }
            Ok((row, sums))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(group_trees(&rows, "hermes"))
}

/// The running totals of a tree's sessions, in the tree's order.
pub fn totals(conn: &Connection, tree: &Tree) -> Result<Vec<SessionTotals>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, COALESCE(model, ''), input_tokens, output_tokens, cache_read_tokens,
            cache_write_tokens, reasoning_tokens, api_call_count, message_count, ended_at, end_reason
         FROM sessions WHERE id = ?1",
    )?;
    let mut out = Vec::with_capacity(tree.sessions.len());
    for s in &tree.sessions {
        let got = stmt.query_row([&s.id], |r| {
            let n = |i: usize| -> rusqlite::Result<u64> {
                Ok(r.get::<_, Option<i64>>(i)?.unwrap_or(0).max(0) as u64)
            };
            Ok(SessionTotals {
                id: r.get(0)?,
                model: r.get(1)?,
                input: n(2)?,
                output: n(3)?,
                cache_read: n(4)?,
                cache_write: n(5)?,
                reasoning: n(6)?,
                calls: n(7)?,
                messages: n(8)?,
                ended: r.get::<_, Option<f64>>(9)?.is_some(),
                end_reason: r.get(10)?,
            })
        });
        match got {
            Ok(t) => out.push(t),
            // Deleted since the trees were read: not there now.
            Err(rusqlite::Error::QueryReturnedNoRows) => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(out)
}

/// The `messages` rows of a tree's sessions, each session's in order.
pub fn messages(conn: &Connection, tree: &Tree) -> Result<Vec<MessageRow>> {
    tree_rows(
        conn,
        tree,
        "SELECT id, session_id, role, content, tool_calls, tool_name, timestamp
         FROM messages WHERE session_id = ?1 ORDER BY timestamp, id",
        |r| {
            Ok(MessageRow {
                id: r.get(0)?,
                session_id: r.get(1)?,
                role: r.get(2)?,
                content: r.get(3)?,
                tool_calls: r.get(4)?,
                tool_name: r.get(5)?,
                at: r.get::<_, Option<f64>>(6)?.map(|t| millis(Some(t))),
            })
        },
    )
}

/// Hermes's times are seconds since the epoch, as a real number.
fn millis(t: Option<f64>) -> i64 {
    t.map_or(0, |s| (s * 1000.0).round() as i64)
}
