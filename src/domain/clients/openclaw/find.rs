//! OpenClaw's agents' databases as a source of sessions:
//! `agents/<agent>/agent/openclaw-agent.sqlite` under its state folder
//! (`~/.openclaw`, or `$OPENCLAW_STATE_DIR`). A session is a
//! `session_windows` row with its `transcript_events`; a subagent's window
//! names its parent's session key (`parent_session_key`, resolved through
//! `session_nodes` to that key's session). Whether a tree changed is told
//! from its windows and its events' count and last `seq`. The usage is the
//! transcript's; the same sums again in `trajectory_runtime_events` and
//! the last run's figures in `session_nodes` are never read.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rusqlite::Connection;

use super::read::{DATABASE, EventRow};
use crate::domain::corpus::kit::{
    OpenStore, SessionStore, Tree, group_trees, open_database, tree_rows,
};
use crate::domain::transcript::said::SaidOptions;
use crate::domain::transcript::{ParsedSession, SessionRow};

/// OpenClaw's store: each agent's database.
#[derive(Debug)]
pub struct Store;

impl SessionStore for Store {
    fn stores_in(&self, root: &Path) -> Vec<PathBuf> {
        databases_in(root)
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
        let events = events(&self.0, tree)?;
        Ok(super::read::parse_tree(
            label,
            &tree.sessions,
            &events,
            said,
        ))
    }
}

/// Every agent's database under `root` (OpenClaw's state folder).
pub fn databases_in(root: &Path) -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(root.join("agents")) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path().join("agent").join(DATABASE))
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file()))
        .collect();
    out.sort();
    out
}

/// Every session tree of an agent's database.
pub fn trees(conn: &Connection) -> Result<Vec<Tree>> {
    let mut stmt = conn
        .prepare(
            "SELECT w.session_id,
                (SELECT n.current_session_id FROM session_nodes n
                 WHERE n.session_key = w.parent_session_key),
                w.display_name, w.created_at, w.updated_at, w.status, w.model,
                (SELECT COUNT(*) || ':' || COALESCE(MAX(e.seq), -1) FROM transcript_events e
                 WHERE e.session_id = w.session_id)
             FROM session_windows w ORDER BY w.created_at, w.session_id",
        )
        .context("reading OpenClaw's sessions")?;
    let rows: Vec<(SessionRow, String)> = stmt
        .query_map([], |r| {
            let row = SessionRow {
                id: r.get(0)?,
                parent_id: r.get(1)?,
                directory: String::new(),
                title: r.get(2)?,
                version: None,
                agent: None,
                time_created: r.get(3)?,
                time_updated: r.get(4)?,
            };
            let sums = format!(
                "{}\t{}\t{}\t{}",
                row.time_updated,
                r.get::<_, Option<String>>(5)?.unwrap_or_default(),
                r.get::<_, Option<String>>(6)?.unwrap_or_default(),
                r.get::<_, String>(7)?
            );
            Ok((row, sums))
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(group_trees(&rows, "openclaw"))
}

/// The events of a tree's sessions, each session's in order.
pub fn events(conn: &Connection, tree: &Tree) -> Result<Vec<EventRow>> {
    tree_rows(
        conn,
        tree,
        "SELECT session_id, seq, event_json FROM transcript_events
         WHERE session_id = ?1 ORDER BY seq",
        |r| {
            Ok(EventRow {
                session_id: r.get(0)?,
                seq: r.get(1)?,
                json: r.get(2)?,
            })
        },
    )
}
