//! Opening SQLite files sessionkit does not write: its own database for a
//! read command, and other programs' (OpenCode's).

use std::path::Path;

use anyhow::Result;
use rusqlite::{Connection, OpenFlags};

/// A read-only connection to any SQLite database (sessionkit's own, or
/// another program's it reads): `mode=ro`, which never writes the file;
/// where its `-shm` cannot be made, immutable when no `-wal` file is there
/// (no writer can be at work without one).
pub fn connect_read_only(path: &Path) -> Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let attempt = |immutable: bool| -> rusqlite::Result<Connection> {
        let uri = format!(
            "file:{}?mode=ro{}",
            uri_path(path),
            if immutable { "&immutable=1" } else { "" }
        );
        let conn = Connection::open_with_flags(uri, flags)?;
        conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })?;
        Ok(conn)
    };
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    match attempt(false) {
        Err(_) if !Path::new(&wal).exists() => attempt(true),
        other => other,
    }
    .map_err(|e| anyhow::anyhow!("opening {} to read: {}", path.display(), one_line(&e)))
}

/// A SQLite error in one line: its message, without the statement text a
/// syntax error carries.
pub fn one_line(e: &rusqlite::Error) -> String {
    match e {
        rusqlite::Error::SqlInputError { msg, .. } => msg.clone(),
        rusqlite::Error::SqliteFailure(f, Some(m)) => format!("{m} ({:?})", f.code),
        other => other
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string(),
    }
}

/// A path as a `file:` URI's path: `%`, `?` and `#` escaped.
fn uri_path(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::new();
    for &b in path.as_os_str().as_bytes() {
        match b {
            b'%' | b'?' | b'#' => out.push_str(&format!("%{b:02X}")),
            b if b.is_ascii() => out.push(b as char),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}
