//! The memory verbs, one file each: `remember`, `revise`, `resolve` /
//! `unresolve` / `archive` (`settle`), `memories` (`list`), `memory show` /
//! `memory redact` (`show`), `recall`, `export`, `import`. What they share
//! is here: who writes, what a write prints, redaction on write.

mod export;
mod import;
mod list;
mod otlp;
mod recall;
mod remember;
mod revise;
mod settle;
mod show;

pub use export::{ExportArgs, export};
pub use import::{ImportArgs, import};
pub use list::{MemoriesArgs, memories};
pub use recall::{RecallArgs, recall};
pub use remember::{RememberArgs, remember};
pub use revise::{ReviseArgs, revise};
pub use settle::{SettleArgs, settle};
pub use show::{MemoryArgs, memory};

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::Millis;
use crate::domain::memory::{Actor, Draft};
use crate::output::memory::MemoryRecord;
use crate::output::{Column, col};
use crate::store::Store;

/// The run `--session-run-id` names, by its id or a prefix of it.
fn run_named(store: &Store, given: Option<&str>) -> Result<Option<String>> {
    given.map(|r| store.resolve_run(r)).transpose()
}

/// The CLI as the writer, with the run named by `--session-run-id` if any.
fn cli_actor<'a>(store: &Store, run: Option<&'a str>, now: Millis) -> Result<Actor<'a>> {
    Ok(Actor {
        actor: "cli",
        run,
        now,
        lease_ms: crate::services::settings::hours_ms(store, "lease.hours")?,
    })
}

/// A memory as a table shows it.
pub(crate) const MEMORY_COLUMNS: &[Column] = &[
    col("memory_id", "id"),
    col("kind", "kind").optional(1),
    col("state", "state"),
    col("topic", "topic"),
    col("project", "project").optional(2),
    col("due_at", "due").optional(3),
    col("created_at", "created").optional(2),
];

/// What a writing verb prints: the bare id, unless a format was asked for:
/// then the memory's record.
fn print_id_or_record(ctx: &Ctx, store: &Store, id: &str) -> Result<Exit> {
    if ctx.out.explicit {
        let m = store.memory(id)?;
        ctx.out
            .record_of(MEMORY_COLUMNS, &MemoryRecord::of(&m.view(), true))?;
    } else {
        println!("{id}");
    }
    Ok(Exit::Success)
}

/// The help of a verb that writes a memory.
fn writer_help(command: &str, prints: &str) -> String {
    format!(
        "{prints} With --format: the memory. {}",
        super::help_fields(command)
    )
}

/// Secrets out of a memory before it is written, unless `memory.redaction`
/// is off.
fn redact_if_on(store: &Store, d: Draft) -> Result<Draft> {
    Ok(
        if crate::services::settings::enabled(store, "memory.redaction")? {
            d.redacted()
        } else {
            d
        },
    )
}

/// The memory a verb names (a unique prefix of its id is enough).
#[derive(Debug, clap::Args)]
pub struct IdArgs {
    /// The memory (a unique prefix of its id is enough)
    pub id: String,
}
