//! The one SQLite file: opening it (pragmas, 0600), migrations under
//! `user_version`, and typed queries per table. Only this module writes SQL.

mod migrate;
pub mod projection;
pub mod reports;
pub mod settings;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use rusqlite::{Connection, OpenFlags};

pub use migrate::SCHEMA_VERSION;

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

/// An open database.
pub struct Store {
    pub(crate) conn: Connection,
    path: PathBuf,
}

/// Where the database lives: `--db`, else `SESSIONKIT_DB`, else
/// `$XDG_DATA_HOME/sessionkit/sessionkit.db` (`~/.local/share/...`).
pub fn default_path() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("SESSIONKIT_DB").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let data = match std::env::var_os("XDG_DATA_HOME").filter(|p| !p.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => {
            let home = std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .context("cannot place the database: set --db, SESSIONKIT_DB or HOME")?;
            PathBuf::from(home).join(".local/share")
        }
    };
    Ok(data.join("sessionkit").join("sessionkit.db"))
}

fn create_private(path: &Path) -> Result<()> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.exists() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(dir)
                .with_context(|| format!("creating {}", dir.display()))?;
        }
    }
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e).with_context(|| format!("creating {}", path.display())),
    }
}

impl Store {
    /// Opens (creating, mode 0600) and migrates the database at `path`.
    pub fn open(path: &Path) -> Result<Store> {
        create_private(path)?;
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .with_context(|| format!("opening {}", path.display()))?;
        conn.busy_timeout(std::time::Duration::from_millis(5000))?;
        let mode: String = conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))?;
        anyhow::ensure!(
            mode.eq_ignore_ascii_case("wal"),
            "{} refused WAL mode (got {mode})",
            path.display()
        );
        conn.execute_batch("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
        };
        migrate::migrate(&mut store.conn, path)?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every table's rows in a fixed order, as text: what "byte-identical
    /// replay" is checked against.
    pub fn dump(&self) -> Result<String> {
        let mut out = String::new();
        let mut tables: Vec<String> = self
            .conn
            .prepare("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        tables.sort();
        for t in tables {
            out.push_str(&format!("## {t}\n"));
            let n = self
                .conn
                .prepare(&format!("SELECT * FROM \"{t}\" LIMIT 0"))?
                .column_count();
            let order: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
            let mut stmt = self.conn.prepare(&format!(
                "SELECT * FROM \"{t}\" ORDER BY {}",
                order.join(", ")
            ))?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                let cells: Vec<String> = (0..n)
                    .map(|i| match r.get_ref(i) {
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
}
