//! The `settings` table: raw key/value rows (checking is `crate::services::settings`).

use anyhow::Result;
use rusqlite::{OptionalExtension, params};

use super::Store;
use crate::domain::clock::Millis;

/// A stored setting, read on any connection (a transaction included).
pub fn setting_in(conn: &rusqlite::Connection, key: &str) -> Result<Option<String>> {
    Ok(conn
        .prepare_cached("SELECT value FROM settings WHERE key = ?1")?
        .query_row([key], |r| r.get(0))
        .optional()?)
}

impl Store {
    pub fn setting(&self, key: &str) -> Result<Option<String>> {
        setting_in(&self.conn, key)
    }

    pub fn set_setting(&self, key: &str, value: &str, now: Millis) -> Result<()> {
        self.conn.execute(
            "INSERT INTO settings(key, value, updated_at) VALUES (?1, ?2, ?3)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            params![key, value, now],
        )?;
        Ok(())
    }

    /// Removes a stored value; returns whether there was one.
    pub fn unset_setting(&self, key: &str) -> Result<bool> {
        Ok(self
            .conn
            .execute("DELETE FROM settings WHERE key = ?1", [key])?
            > 0)
    }
}
