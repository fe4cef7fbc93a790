//! The one SQLite file: opening it (pragmas, 0600), migrations under
//! `user_version`, and typed queries per table. Only this module writes SQL.

mod file;
mod locks;

pub use file::{APPLICATION_ID, default_path};
use file::{create_private, identity, wal_mode};
use locks::wait_for_locks;
pub use locks::{BUSY_WAIT, Pacer, is_busy, is_read_only, retry_busy};

pub mod briefing;
pub mod closer;
pub mod costs;
mod delta;
pub mod events;
pub mod health;
pub mod health_memory;
pub mod heard;
pub mod import;
pub mod limits;
pub mod memories;
mod migrate;
pub mod otlp;
pub mod overview;
pub mod pricing;
pub mod projection;
pub mod push;
pub mod reports;
pub mod runs;
pub mod said;
pub mod said_whole;
pub mod settings;
pub mod spool;
pub mod tree;
pub mod triage;
mod vocab;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use rusqlite::{Connection, OpenFlags};

/// Every id of the kind a table column `key` shows (sessions, memories,
/// runs, agents), sorted, read from the database at `path` opened to read
/// only; none when it cannot be read (the table then keeps its rows'
/// ids apart among themselves).
pub fn known_ids(path: &Path, key: &str) -> Vec<String> {
    let sql = match key {
        "session_id" => "SELECT session_id FROM sessions ORDER BY 1",
        "memory_id" => "SELECT memory_id FROM memories ORDER BY 1",
        "run_id" => "SELECT run_id FROM agent_sessions ORDER BY 1",
        "agent" | "agent_id" => "SELECT DISTINCT agent_id FROM agents ORDER BY 1",
        _ => return Vec::new(),
    };
    let read = || -> rusqlite::Result<Vec<String>> {
        let c = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        let mut stmt = c.prepare(sql)?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        rows.collect()
    };
    read().unwrap_or_default()
}

/// Conditions a caller may branch on.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "{path} was written by a newer sessionkit (schema version {found}; this binary knows up to {known}): upgrade sessionkit, or point --db at another file"
    )]
    TooNew {
        path: String,
        found: i64,
        known: i64,
    },
    #[error("no session matches {0:?}: run `sessionkit sessions` to list them")]
    NoSuchSession(String),
    #[error("{prefix:?} matches {count} sessions ({examples}...): give more characters")]
    AmbiguousSession {
        prefix: String,
        count: usize,
        examples: String,
    },
}

/// What an id prefix names.
pub(crate) enum PrefixMatch {
    None,
    One(String),
    Many { count: usize, examples: Vec<String> },
}

/// A thread with its own connection that checkpoints the WAL while a bulk
/// writer commits (passive: it never blocks the writer or readers).
pub struct Checkpointer {
    nudge: std::sync::mpsc::Sender<()>,
    handle: std::thread::JoinHandle<Result<()>>,
}

impl Checkpointer {
    fn spawn(path: &Path) -> Result<Checkpointer> {
        let mut conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        wait_for_locks(&mut conn, BUSY_WAIT)?;
        let (nudge, rx) = std::sync::mpsc::channel::<()>();
        let handle = std::thread::spawn(move || -> Result<()> {
            use std::sync::mpsc::RecvTimeoutError;
            // At most one checkpoint per interval (each one syncs the file);
            // when the writer is done, stop at once: it checkpoints the rest.
            let interval = std::time::Duration::from_millis(100);
            let mut pending = false;
            let mut last = std::time::Instant::now();
            loop {
                match rx.recv_timeout(interval) {
                    Ok(()) => pending = true,
                    Err(RecvTimeoutError::Disconnected) => return Ok(()),
                    Err(RecvTimeoutError::Timeout) => {}
                }
                if pending && last.elapsed() >= interval {
                    conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
                    pending = false;
                    last = std::time::Instant::now();
                }
            }
        });
        Ok(Checkpointer { nudge, handle })
    }

    /// Asks for a checkpoint (after a commit).
    pub fn nudge(&self) {
        let _ = self.nudge.send(());
    }

    fn finish(self) -> Result<()> {
        drop(self.nudge);
        match self.handle.join() {
            Ok(r) => r,
            Err(_) => anyhow::bail!("the checkpoint thread panicked"),
        }
    }
}

/// Leaf pages one step of the search index's compaction merges.
const SEARCH_MERGE_PAGES: i64 = 200;

/// Above this many token rows a bulk run keeps the message index.
const KEEP_INDEX_ABOVE: i64 = 200_000;

/// The message index (also in migration 0001); recreated after a bulk run.
const MESSAGE_INDEX: &str =
    "CREATE INDEX IF NOT EXISTS usage_observations_message ON usage_observations(message_id);";

/// An open database.
pub struct Store {
    pub(crate) conn: Connection,
    path: PathBuf,
    /// The price table in force (the embedded table with the stored prices
    /// over it), read on first use: most commands never price anything.
    pub(crate) prices: std::cell::OnceCell<crate::domain::pricing::PriceTable>,
    /// Gaps in a long run of session writes (an ingest), for waiting hooks.
    pacer: Pacer,
    /// Terms of texts a build wrote in its open batch, for the full-text
    /// index at the batch's commit (`said::PendingTerms`).
    said_terms: said::PendingTerms,
    /// Texts a build wrote, to find them again without a lookup.
    said_known: said::KnownTexts,
}

/// A read transaction: every read until `finish` (or the drop) sees one
/// state of the database. Inside a caller's transaction it is that one.
pub struct Snapshot<'a> {
    conn: Option<&'a Connection>,
}

impl Snapshot<'_> {
    /// Ends the read transaction.
    pub fn finish(mut self) -> Result<()> {
        if let Some(conn) = self.conn.take() {
            conn.execute_batch("COMMIT")?;
        }
        Ok(())
    }
}

impl Drop for Snapshot<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            let _ = conn.execute_batch("ROLLBACK");
        }
    }
}

impl Store {
    /// Opens (creating, mode 0600) and migrates the database at `path`.
    /// Every lock is waited for up to `BUSY_WAIT`.
    pub fn open(path: &Path) -> Result<Store> {
        Store::open_waiting(path, BUSY_WAIT)
    }

    /// `open`, waiting for a lock at most `wait` (a hook's budget).
    pub fn open_waiting(path: &Path, wait: Duration) -> Result<Store> {
        create_private(path)?;
        let mut conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .with_context(|| format!("opening {}", path.display()))?;
        wait_for_locks(&mut conn, wait)?;
        // Before anything changes the file: another application's database
        // is refused as it is, not switched to WAL or migrated.
        identity(&conn, path)?;
        // Room for every statement a command reuses: an import cycles
        // through more than rusqlite's default 16, and re-preparing each one
        // per record cost a third of its time.
        conn.set_prepared_statement_cache_capacity(64);
        // Only takes effect on a new, empty file (before WAL mode writes the header).
        conn.execute_batch("PRAGMA page_size = 8192;")?;
        let mode = wal_mode(&conn, wait)?;
        anyhow::ensure!(
            mode.eq_ignore_ascii_case("wal"),
            "{} refused WAL mode (got {mode})",
            path.display()
        );
        // A WAL file a bulk run grew is cut back to 64 MiB when it is reset.
        conn.execute_batch(
            "PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; PRAGMA journal_size_limit=67108864;",
        )?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
            prices: std::cell::OnceCell::new(),
            pacer: Pacer::new(),
            said_terms: said::PendingTerms::default(),
            said_known: said::KnownTexts::default(),
        };
        migrate::migrate(&mut store.conn, path)?;
        Ok(store)
    }

    /// Opens an existing database for reading only, for a read command
    /// that cannot open it for writing (the file or its folder is
    /// read-only): no WAL switch, no migration. A WAL database in a folder
    /// where its `-shm` cannot be made is read as immutable when no `-wal`
    /// file is there (no writer can be at work without one).
    pub fn open_read_only(path: &Path) -> Result<Store> {
        let mut conn = crate::domain::sqlite::connect_read_only(path)?;
        identity(&conn, path)?;
        let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        anyhow::ensure!(
            version == migrate::SCHEMA_VERSION,
            "{} has schema version {version} and this sessionkit reads version {}: it must be migrated, which needs write access to the file and its folder",
            path.display(),
            migrate::SCHEMA_VERSION
        );
        wait_for_locks(&mut conn, BUSY_WAIT)?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
            prices: std::cell::OnceCell::new(),
            pacer: Pacer::new(),
            said_terms: said::PendingTerms::default(),
            said_known: said::KnownTexts::default(),
        })
    }

    /// The database file this store was opened on.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Starts a read transaction (see `Snapshot`).
    pub fn read_snapshot(&self) -> Result<Snapshot<'_>> {
        if !self.conn.is_autocommit() {
            return Ok(Snapshot { conn: None });
        }
        self.conn.execute_batch("BEGIN")?;
        Ok(Snapshot {
            conn: Some(&self.conn),
        })
    }

    /// Settings for a long run of writes (ingest): a larger page cache; no
    /// checkpoint inside the writer's commits (a `Checkpointer` on its own
    /// connection copies the WAL meanwhile, so copying and its fsync overlap
    /// parsing); and the message index dropped, to be rebuilt once, sorted, at
    /// the end — random inserts into it rewrote most of its pages on every
    /// session's commit — unless the table is already large. Shared messages are settled at the end too
    /// (`projection::MessageCounts` tells which are shared without the index).
    /// Statement journals stay in memory: a multi-row insert journals the
    /// pages its rebalancing touches, and past 64 KiB SQLite spilled them to a
    /// temporary file, 480 MB of writes for one 4 GiB session (each journal
    /// holds one statement's pages, a few dozen). `messages`: false when
    /// the run writes no messages (building the search index): the message
    /// index stays.
    pub fn begin_bulk(&self, messages: bool) -> Result<Checkpointer> {
        self.conn.execute_batch(
            "PRAGMA cache_size = -32768; PRAGMA wal_autocheckpoint = 0; PRAGMA temp_store = MEMORY;",
        )?;
        // Rebuilding the index at the end holds the write lock about 0.5 µs
        // per row: on a database already this large, that would keep hooks
        // waiting too long, so the index stays and takes the
        // inserts as they come.
        // (Counted only when it matters: the count reads the table.)
        let large = || -> Result<bool> {
            Ok(self.conn.query_row(
                "SELECT EXISTS (SELECT 1 FROM usage_observations LIMIT 1 OFFSET ?1)",
                [KEEP_INDEX_ABOVE],
                |r| r.get(0),
            )?)
        };
        if messages && !large()? {
            self.conn
                .execute_batch("DROP INDEX IF EXISTS usage_observations_message;")?;
        }
        Checkpointer::spawn(&self.path)
    }

    /// Ends `begin_bulk`: rebuilds the index, settles the deferred messages,
    /// checkpoints what it can and restores the defaults. The checkpoint is
    /// PASSIVE: a TRUNCATE waits (with the write lock held) for every reader
    /// to finish, and a reader holding a transaction made every hook wait the
    /// whole busy timeout and fail. What is left in the WAL is
    /// copied by later checkpoints; the file is reused from its start.
    pub fn end_bulk(&mut self, ckpt: Checkpointer) -> Result<()> {
        let background = ckpt.finish();
        // The index rebuild's sort spills to disk again, not to memory.
        self.conn.execute_batch("PRAGMA temp_store = DEFAULT;")?;
        self.finish_pending()?;
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
        self.conn
            .execute_batch("PRAGMA wal_autocheckpoint = 1000; PRAGMA cache_size = -2000;")?;
        background
    }

    /// Completes work a bulk run deferred (or left behind when it was
    /// killed): the message index exists, and no message waits to be settled.
    pub fn finish_pending(&mut self) -> Result<()> {
        self.conn.execute_batch(MESSAGE_INDEX)?;
        let prices = pricing::loaded(&self.prices, &self.conn)?;
        projection::settle_pending(&mut self.conn, prices)
    }

    /// The ids in `table.column` that start with `prefix` (an exact id wins):
    /// what `show SESSION` and the memory verbs accept. `table` and `column`
    /// are this module's own names, never user input.
    pub(crate) fn match_prefix(
        &self,
        table: &str,
        column: &str,
        prefix: &str,
    ) -> Result<PrefixMatch> {
        // A prefix copied with the ellipsis an older table printed, or
        // with the `...` people type, means the same.
        let prefix = prefix.trim_end_matches('…').trim_end_matches("...");
        let ids: Vec<String> = self
            .conn
            .prepare_cached(&format!(
                "SELECT {column} FROM {table} WHERE {column} >= ?1 ORDER BY {column} LIMIT 4"
            ))?
            .query_map([prefix], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?
            .into_iter()
            .filter(|id| id.starts_with(prefix))
            .collect();
        Ok(match ids.len() {
            0 => PrefixMatch::None,
            1 => PrefixMatch::One(ids[0].clone()),
            _ if ids[0] == prefix => PrefixMatch::One(ids[0].clone()),
            n => {
                let count: i64 = self.conn.query_row(
                    &format!(
                        "SELECT COUNT(*) FROM {table} WHERE substr({column}, 1, length(?1)) = ?1"
                    ),
                    [prefix],
                    |r| r.get(0),
                )?;
                PrefixMatch::Many {
                    count: usize::try_from(count).unwrap_or(n),
                    examples: ids[..2].to_vec(),
                }
            }
        })
    }

    /// Lets SQLite refresh the planner's statistics where they are stale
    /// (after a large import, say).
    pub fn optimize(&self) -> Result<()> {
        self.conn.execute_batch("PRAGMA optimize")?;
        Ok(())
    }

    /// Merges the memory search index into one segment, a step at a time:
    /// FTS5's `merge` with a negative page count is an incremental
    /// `optimize`, and each step is its own transaction, so the write lock
    /// is never held for long (a single `optimize` of a 100,000-memory
    /// import held it for seconds). A step that did work changes
    /// the total count by 2 or more (sqlite.org/fts5.html, "The 'merge'
    /// command").
    pub fn compact_search(&self) -> Result<()> {
        loop {
            let before = self.conn.total_changes();
            self.conn.execute(
                "INSERT INTO memories_fts(memories_fts, rank) VALUES ('merge', -?1)",
                [SEARCH_MERGE_PAGES],
            )?;
            if self.conn.total_changes() - before < 2 {
                return Ok(());
            }
        }
    }

    /// Every table's rows in a fixed order, as text: what "byte-identical
    /// replay" is checked against.
    pub fn dump(&self) -> Result<String> {
        self.dump_skipping(&[])
    }

    /// `dump` without the ingest's bookkeeping (when each session was
    /// read, from where, at which parser revision, when a price was set):
    /// what a corpus gives, whenever and wherever it is read.
    pub fn dump_content(&self) -> Result<String> {
        self.dump_skipping(&[
            "ingest_checkpoints",
            "ingest_failures",
            "ingest_resume",
            "ingest_resume_by_key",
            "ingest_roots",
            "pricing",
            "settings",
        ])
    }

    fn dump_skipping(&self, skip: &[&str]) -> Result<String> {
        let mut out = String::new();
        let mut tables: Vec<String> = self
            .conn
            .prepare("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        // A full-text index's own tables hold its segments, laid out by
        // how its rows were batched: the logical content is the virtual
        // table's rows, dumped as any table's.
        let fts: Vec<String> = self
            .conn
            .prepare("SELECT name FROM sqlite_master WHERE type='table' AND sql LIKE 'CREATE VIRTUAL TABLE % USING fts5(%'")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        tables.retain(|t| {
            !skip.contains(&t.as_str())
                && !fts.iter().any(|f| {
                    ["_data", "_idx", "_docsize", "_config", "_content"]
                        .iter()
                        .any(|suffix| *t == format!("{f}{suffix}"))
                })
        });
        tables.retain(|t| {
            !DUMPED_AS
                .iter()
                .any(|(name, sql)| t == name && sql.is_none())
        });
        tables.sort();
        for t in tables {
            out.push_str(&format!("## {t}\n"));
            let sql = match DUMPED_AS.iter().find(|(name, _)| *name == t) {
                Some((_, Some(sql))) => (*sql).to_string(),
                _ => self.dump_query(&t)?,
            };
            let mut stmt = self.conn.prepare(&sql)?;
            let n = stmt.column_count();
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                let cells: Vec<String> = (0..n)
                    .map(|i| match r.get_ref(i) {
                        Ok(rusqlite::types::ValueRef::Text(t)) => {
                            format!("{:?}", String::from_utf8_lossy(t))
                        }
                        Ok(v) => format!("{v:?}"),
                        Err(e) => format!("<{e}>"),
                    })
                    .collect();
                out.push_str(&cells.join("|"));
                out.push('\n');
            }
        }
        Ok(out)
    }

    /// Every column of table `t`, rows in the order of their values.
    fn dump_query(&self, t: &str) -> Result<String> {
        // Where a row sits is left out: an observation's band depends on
        // how its session was read (in parts, resumed), not on what it says.
        let columns: Vec<String> = self
            .conn
            .prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?
            .query_map([t], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .filter(|c| !(t == "usage_observations" && c == "band"))
            .map(|c| format!("\"{c}\""))
            .collect();
        let order: Vec<String> = (1..=columns.len()).map(|i| i.to_string()).collect();
        Ok(format!(
            "SELECT {} FROM \"{t}\" ORDER BY {}",
            columns.join(", "),
            order.join(", ")
        ))
    }
}

/// Tables `dump` writes by what their rows mean, not as stored: the search
/// index numbers sessions, agents, texts and blocks of texts in the order
/// it wrote them, which parallel reading does not fix (two texts first
/// said in the same second take their ids in the order they came). A
/// text is its hash, tool and length. `None`: not dumped.
const DUMPED_AS: &[(&str, Option<&str>)] = &[
    (
        "said",
        Some(
            "SELECT sn.name, s.record, s.piece, an.name, s.at, s.role, t.hash, t.len
             FROM said s JOIN said_names sn ON sn.n = s.session
             LEFT JOIN said_names an ON an.n = s.agent
             JOIN said_texts t ON t.text_id = s.text_id ORDER BY 1, 2, 3",
        ),
    ),
    (
        "said_texts",
        Some("SELECT hash, tool, len FROM said_texts ORDER BY 1, 2, 3"),
    ),
    ("said_blocks", None),
    ("said_names", None),
];
