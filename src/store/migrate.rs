//! Ordered, append-only migrations applied under `PRAGMA user_version` in one
//! transaction. Never edit an applied migration; add the next file.

use std::path::Path;

use anyhow::{Context, Result};
use rusqlite::Connection;

use super::StoreError;

const MIGRATIONS: &[(&str, &str)] = &[
    ("0001_init", include_str!("migrations/0001_init.sql")),
    ("0002_edges", include_str!("migrations/0002_edges.sql")),
    ("0003_costs", include_str!("migrations/0003_costs.sql")),
    ("0004_pricing", include_str!("migrations/0004_pricing.sql")),
    ("0005_events", include_str!("migrations/0005_events.sql")),
    ("0006_memory", include_str!("migrations/0006_memory.sql")),
    ("0007_runs", include_str!("migrations/0007_runs.sql")),
];

/// The schema version this binary writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

pub(super) fn migrate(conn: &mut Connection, path: &Path) -> Result<()> {
    let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.display().to_string(),
            found,
            known: SCHEMA_VERSION,
        }
        .into());
    }
    if found == SCHEMA_VERSION {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    // Re-read inside the write lock: another process may have migrated meanwhile.
    let found: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    for (i, (name, sql)) in MIGRATIONS.iter().enumerate().skip(usize::try_from(found)?) {
        tx.execute_batch(sql)
            .with_context(|| format!("applying migration {name}"))?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_apply_in_memory_and_twice() {
        let mut c = Connection::open_in_memory().unwrap();
        migrate(&mut c, Path::new(":memory:")).unwrap();
        migrate(&mut c, Path::new(":memory:")).unwrap();
        let v: i64 = c
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(v, SCHEMA_VERSION);
    }

    #[test]
    fn newer_file_is_refused() {
        let mut c = Connection::open_in_memory().unwrap();
        c.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        let e = migrate(&mut c, Path::new("x.db")).unwrap_err();
        assert!(e.to_string().contains("newer sessionkit"), "{e}");
    }
}
