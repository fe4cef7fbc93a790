//! Where a root is a store of sessions rather than a folder of
//! transcripts: a client's database, or a folder the client keeps as one
//! (OpenCode's older `storage/`, Mistral Vibe's session store). Each client
//! that keeps one declares its `SessionStore`; a root holding any store is
//! read through its stores alone.
//!
//! A store's sessions come as trees of rows: a top-level session and the
//! subagent sessions under it by their parent, one sessionkit session.
//! Whether a tree changed is told from its session rows alone (each client
//! updates a session's row with each message), so a run with nothing
//! changed reads one table.

use std::collections::HashMap;
use std::fs::Metadata;
use std::path::{Path, PathBuf};

use anyhow::Result;
use rusqlite::Connection;
use sha2::{Digest, Sha256};

use super::discover::{Discovery, mtime_ns};
use crate::domain::clients::Finds;
use crate::domain::transcript::said::SaidOptions;
use crate::domain::transcript::{Format, PARSER_REVISION, ParsedSession, SessionRow};

/// How a client's store of sessions is found and read.
pub trait SessionStore: Sync + std::fmt::Debug {
    /// Its stores at the top of `root` (a database file, or a folder), in
    /// the order they are read; none when the root is not one.
    fn stores_in(&self, root: &Path) -> Vec<PathBuf>;

    /// A store's name in reports and session paths (`opencode.db`: its
    /// sessions are `opencode.db#<id>`).
    fn label(&self, path: &Path) -> &'static str;

    /// Opens a store to read.
    fn open(&self, path: &Path) -> Result<Box<dyn OpenStore>>;

    /// Whether a session of this store that an earlier store of the same
    /// root also holds is read from there, not here (OpenCode's older
    /// `storage/`, moved into its database by an upgrade).
    fn yields(&self, _path: &Path) -> bool {
        false
    }
}

/// A store opened to read.
pub trait OpenStore {
    /// Every session tree of the store.
    fn trees(&self) -> Result<Vec<Tree>>;

    /// A tree read whole, as one session (`label` the store's name in its
    /// paths); with `said`, what its messages say, for search, where the
    /// store keeps it.
    fn parse(&self, label: &str, tree: &Tree, said: Option<SaidOptions>) -> Result<ParsedSession>;
}

/// A store of sessions found at the top of a root.
#[derive(Debug, Clone)]
pub struct Database {
    pub root: usize,
    pub path: PathBuf,
    /// Whose it is.
    pub format: Format,
    /// How it is read.
    pub store: &'static dyn SessionStore,
    pub size: u64,
    /// When it last changed, as the walk's files say it (`lstat`'s mtime).
    pub mtime_ns: i128,
}

impl Database {
    /// Its name in reports and session paths.
    pub fn label(&self) -> &'static str {
        self.store.label(&self.path)
    }

    /// Opens it to read.
    pub fn open(&self) -> Result<Box<dyn OpenStore>> {
        self.store.open(&self.path)
    }

    /// Whether a session an earlier store of its root holds is read from
    /// there (`SessionStore::yields`).
    pub fn yields(&self) -> bool {
        self.store.yields(&self.path)
    }

    /// The sessions an earlier store of its root holds, when this one
    /// yields to them (what `survey` and `recount` leave out).
    pub fn read_elsewhere(&self, earlier: &[Database]) -> std::collections::HashSet<String> {
        if !self.yields() {
            return Default::default();
        }
        earlier
            .iter()
            .filter(|d| d.root == self.root && d.path != self.path)
            .filter_map(|d| d.open().and_then(|s| s.trees()).ok())
            .flatten()
            .map(|t| t.id().to_string())
            .collect()
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

/// The rows `sql` (its one parameter a session's id) gives for each
/// session of `tree`, in the tree's order, each read by `row`.
pub fn tree_rows<T>(
    conn: &Connection,
    tree: &Tree,
    sql: &str,
    mut row: impl FnMut(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let mut out = Vec::new();
    for s in &tree.sessions {
        for r in stmt.query_map([&s.id], &mut row)? {
            out.push(r?);
        }
    }
    Ok(out)
}

/// Opens a client's database to read, without ever writing it: the client
/// may be writing it, and never waits on sessionkit for long.
pub fn open_database(path: &Path) -> Result<Connection> {
    let conn = crate::domain::sqlite::connect_read_only(path)?;
    // The client may hold the write lock for a moment; never longer than this.
    conn.busy_timeout(std::time::Duration::from_millis(500))?;
    Ok(conn)
}

/// Whether `root/name` is a regular file (not a link): a database there.
pub fn file_at(root: &Path, name: &str) -> Option<PathBuf> {
    let path = root.join(name);
    std::fs::symlink_metadata(&path)
        .is_ok_and(|m| m.is_file())
        .then_some(path)
}

/// Session rows (in order of creation, each with what its fingerprint
/// covers) grouped into trees: a session whose parent is not among them is
/// the top of a tree of its own. `kind` names the store's kind in the
/// fingerprint.
pub fn group_trees(rows: &[(SessionRow, String)], kind: &str) -> Vec<Tree> {
    let index: HashMap<&str, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, (r, _))| (r.id.as_str(), i))
        .collect();
    // The top of each session's tree, following parents (a loop, which no
    // client writes, ends where it comes round).
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

/// The stores of sessions at the top of `root`, each client's that keeps
/// one: `true` when the root is one, and is read through them alone.
pub(super) fn walk(root_idx: usize, root: &Path, into: &mut Discovery) -> bool {
    let mut found = false;
    for client in crate::domain::clients::ALL {
        let Finds::Store(store) = client.finds else {
            continue;
        };
        for path in store.stores_in(root) {
            let meta = std::fs::metadata(&path).ok();
            into.databases.push(Database {
                root: root_idx,
                size: meta.as_ref().map_or(0, Metadata::len),
                mtime_ns: meta.as_ref().map_or(0, mtime_ns),
                path,
                format: client.format,
                store,
            });
            found = true;
        }
    }
    found
}
