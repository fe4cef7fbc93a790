//! `sessionkit memory show` and `sessionkit memory redact`.

use anyhow::Result;

use super::{IdArgs, cli_actor, print_id_or_record};
use crate::commands::Exit;
use crate::commands::{Ctx, help_fields};
use crate::domain::clock::now;
use crate::domain::memory::Demand;
use crate::output::memory::{EventRecord, MemoryRecord, MemoryShowRecord, rounded};
use crate::output::{Column, col};

#[derive(Debug, clap::Args)]
pub struct MemoryArgs {
    #[command(subcommand)]
    pub command: MemoryCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum MemoryCommand {
    /// One memory: its commitment state, its supersession chain and its events
    #[command(after_long_help = help_fields("memory"))]
    Show(IdArgs),
    /// Replace a memory's content with a marker (a secret slipped in); the only way content leaves
    Redact(RedactArgs),
}

#[derive(Debug, clap::Args)]
pub struct RedactArgs {
    /// The memory (a unique prefix of its id is enough)
    pub id: String,
    /// Why (kept in the audit event; never the content)
    #[arg(long, value_name = "R")]
    pub reason: Option<String>,
}

const SHOW_COLUMNS: &[Column] = &[
    col("memory_id", "id"),
    col("kind", "kind"),
    col("state", "state"),
    col("topic", "topic"),
    col("description", "description"),
    col("content", "content"),
    col("project", "project"),
    col("scope", "scope"),
    col("tags", "tags"),
    col("due_at", "due"),
    col("chain", "chain"),
    col("utility", "utility"),
    col("created_at", "created"),
];

pub fn memory(ctx: &Ctx, a: &MemoryArgs) -> Result<Exit> {
    let now = now();
    let mut store = ctx.open_writer()?;
    match &a.command {
        MemoryCommand::Show(s) => {
            let id = store.resolve_memory(&s.id)?;
            store.record_demand(Demand::Show, None, &[id.as_str()], None, now)?;
            let m = store.memory(&id)?;
            let events = store.memory_events(Some(&id))?;
            let (raw, utility) = store.memory_utility(&id, now)?;
            let record = MemoryShowRecord {
                memory: MemoryRecord::of(&m.view(), true),
                chain: store.chain(&id)?,
                demand: rounded(raw, 3),
                events: events.iter().map(EventRecord::of).collect(),
                utility: rounded(utility, 3),
            };
            ctx.out.record_of(SHOW_COLUMNS, &record)?;
        }
        MemoryCommand::Redact(r) => {
            let id = store.resolve_memory(&r.id)?;
            let who = cli_actor(&store, None, now)?;
            store.redact_memory(&id, r.reason.as_deref(), &who)?;
            print_id_or_record(ctx, &store, &id)?;
        }
    }
    Ok(Exit::Success)
}
