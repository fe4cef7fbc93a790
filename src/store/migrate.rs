//! Ordered, append-only migrations applied under `PRAGMA user_version` in one
//! transaction. Never edit an applied migration; add the next file.

use std::path::Path;

use anyhow::Result;
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
    (
        "0008_bounded_reads",
        include_str!("migrations/0008_bounded_reads.sql"),
    ),
    (
        "0009_memory_listing",
        include_str!("migrations/0009_memory_listing.sql"),
    ),
    (
        "0010_memory_rank",
        include_str!("migrations/0010_memory_rank.sql"),
    ),
    (
        "0011_demand_check",
        include_str!("migrations/0011_demand_check.sql"),
    ),
    ("0012_resume", include_str!("migrations/0012_resume.sql")),
    ("0013_triage", include_str!("migrations/0013_triage.sql")),
    (
        "0014_closer_actor",
        include_str!("migrations/0014_closer_actor.sql"),
    ),
    (
        "0015_closer_spend",
        include_str!("migrations/0015_closer_spend.sql"),
    ),
    (
        "0016_hook_health",
        include_str!("migrations/0016_hook_health.sql"),
    ),
    (
        "0017_fts_project",
        include_str!("migrations/0017_fts_project.sql"),
    ),
    (
        "0018_observation_bands",
        include_str!("migrations/0018_observation_bands.sql"),
    ),
    (
        "0019_resume_by_key",
        include_str!("migrations/0019_resume_by_key.sql"),
    ),
    (
        "0020_fts_stems",
        include_str!("migrations/0020_fts_stems.sql"),
    ),
    (
        "0021_reasoning",
        include_str!("migrations/0021_reasoning.sql"),
    ),
    ("0022_push", include_str!("migrations/0022_push.sql")),
    (
        "0023_rate_limits",
        include_str!("migrations/0023_rate_limits.sql"),
    ),
    ("0024_search", include_str!("migrations/0024_search.sql")),
    ("0025_otlp", include_str!("migrations/0025_otlp.sql")),
    (
        "0026_otlp_endpoint_keys",
        include_str!("migrations/0026_otlp_endpoint_keys.sql"),
    ),
    (
        "0027_hook_senders",
        include_str!("migrations/0027_hook_senders.sql"),
    ),
    (
        "0028_search_sessions",
        include_str!("migrations/0028_search_sessions.sql"),
    ),
    (
        "0029_search_hash",
        include_str!("migrations/0029_search_hash.sql"),
    ),
    (
        "0030_session_titles",
        include_str!("migrations/0030_session_titles.sql"),
    ),
    (
        "0031_harness_message_costs",
        include_str!("migrations/0031_harness_message_costs.sql"),
    ),
    (
        "0032_search_compact",
        include_str!("migrations/0032_search_compact.sql"),
    ),
];

/// The schema version this binary writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

pub(super) fn migrate(conn: &mut Connection, path: &Path) -> Result<()> {
    migrate_to(conn, path, SCHEMA_VERSION)
}

/// Applies the migrations up to version `to`.
fn migrate_to(conn: &mut Connection, path: &Path, to: i64) -> Result<()> {
    let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(StoreError::TooNew {
            path: path.display().to_string(),
            found,
            known: SCHEMA_VERSION,
        }
        .into());
    }
    if found >= to {
        return Ok(());
    }
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    // Re-read inside the write lock: another process may have migrated meanwhile.
    let found: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let todo = MIGRATIONS
        .iter()
        .enumerate()
        .take(usize::try_from(to)?)
        .skip(usize::try_from(found)?);
    for (i, (name, sql)) in todo {
        tx.execute_batch(sql).map_err(|e| {
            anyhow::anyhow!(
                "applying migration {name}: {}",
                crate::domain::sqlite::one_line(&e)
            )
        })?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
    }
    // Marks the file as sessionkit's (store::identity reads it).
    tx.pragma_update(None, "application_id", super::APPLICATION_ID)?;
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests;
