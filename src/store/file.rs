//! The database file: where it is by default, creating it readable by its
//! owner only, checking it is sessionkit's (its application id), and WAL.

use anyhow::{Context, Result};
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Where the database lives: `--db`, else `SESSIONKIT_DB`, else
/// `$XDG_DATA_HOME/sessionkit/sessionkit.db` (`~/.local/share/...`).
pub fn default_path() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os("SESSIONKIT_DB").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    home_path()
}

/// The default location under `$XDG_DATA_HOME` (or `~/.local/share`): the
/// only place whose directory sessionkit creates itself.
pub(super) fn home_path() -> Result<PathBuf> {
    let data = if let Some(d) = std::env::var_os("XDG_DATA_HOME").filter(|p| !p.is_empty()) {
        PathBuf::from(d)
    } else {
        let home = std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .context("cannot place the database: set --db, SESSIONKIT_DB or HOME")?;
        PathBuf::from(home).join(".local/share")
    };
    Ok(data.join("sessionkit").join("sessionkit.db"))
}

pub(super) fn create_private(path: &Path) -> Result<()> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && !dir.exists()
    {
        // A path given by --db or SESSIONKIT_DB in a directory that is
        // not there is a mistake to report, not a tree to create.
        anyhow::ensure!(
            home_path().is_ok_and(|h| h == path),
            "the database's directory {} does not exist: create it, or give --db a path in an existing directory",
            dir.display()
        );
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)
            .with_context(|| format!("creating {}", dir.display()))?;
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

/// `PRAGMA application_id` of a sessionkit database: "SKIT" in ASCII.
pub const APPLICATION_ID: i32 = 0x534b_4954;

/// Whether the file at `path` may be used as sessionkit's: ours (our
/// application id, or an older sessionkit's file from before the id, told
/// by its tables), or new and empty. Anything else is refused in one line
/// before it is changed. (A migration stamps the id.)
pub(super) fn identity(conn: &Connection, path: &Path) -> Result<()> {
    // One statement, so one snapshot: another process may be creating the
    // file's schema meanwhile (its id, version and tables commit together).
    let read = || -> rusqlite::Result<(i32, i64, i64, i64)> {
        conn.query_row(
            "SELECT (SELECT application_id FROM pragma_application_id),
                    (SELECT user_version FROM pragma_user_version),
                    COUNT(*),
                    COUNT(*) FILTER (WHERE type = 'table' AND name IN ('settings', 'projects', 'sessions'))
             FROM sqlite_master",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
    };
    let (app, version, tables, ours) = read().map_err(|e| {
        let kept = matches!(
            &e,
            rusqlite::Error::SqliteFailure(f, _) if matches!(
                f.code,
                rusqlite::ErrorCode::ReadOnly
                    | rusqlite::ErrorCode::CannotOpen
                    | rusqlite::ErrorCode::DatabaseBusy
                    | rusqlite::ErrorCode::DatabaseLocked
            )
        );
        if kept {
            // Not what the file is, but what can be done with it now.
            let read_only = matches!(&e, rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::ReadOnly);
            let what = if read_only {
                format!(
                    "{} cannot be written (a command that writes needs write access to it and its folder)",
                    path.display()
                )
            } else {
                format!("opening {}", path.display())
            };
            anyhow::Error::new(e).context(what)
        } else {
            anyhow::anyhow!(
                "{} is not a database sessionkit can open ({}): give --db a sessionkit database or a new file",
                path.display(),
                crate::domain::sqlite::one_line(&e)
            )
        }
    })?;
    if app == APPLICATION_ID {
        return Ok(());
    }
    let fresh = app == 0 && version == 0 && tables == 0;
    let older_ours = app == 0 && version >= 1 && ours == 3;
    anyhow::ensure!(
        fresh || older_ours,
        "{} is not a sessionkit database (application id {app:#x}, schema version {version}, {tables} schema objects); nothing was changed: give --db a sessionkit database or a new file",
        path.display()
    );
    Ok(())
}

/// Puts the database in WAL mode (once: the mode is kept in the file). The
/// switch takes an exclusive lock without waiting for it, so processes that
/// create the database at the same moment (the first hooks of a machine)
/// retry it, briefly, within the busy timeout, instead of failing with
/// "database is locked".
pub(super) fn wal_mode(conn: &Connection, wait: Duration) -> Result<String> {
    let deadline = Instant::now() + wait;
    let mut pause = 1u64;
    loop {
        let now: String = conn.query_row("PRAGMA journal_mode", [], |r| r.get(0))?;
        if now.eq_ignore_ascii_case("wal") {
            return Ok(now);
        }
        match conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0)) {
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.code == rusqlite::ErrorCode::DatabaseBusy && Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(pause));
                pause = (pause * 2).min(20);
            }
            other => return Ok(other?),
        }
    }
}
