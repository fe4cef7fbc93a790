//! `sessionkit resolve`, `unresolve` and `archive`: settle a memory as
//! `continuity::memory::settle_plan` says each verb applies to its kind.

use anyhow::Result;

use super::{cli_actor, print_id_or_record, run_named, writer_help};
use crate::commands::Ctx;
use crate::commands::Exit;
use crate::domain::clock::now;
use crate::domain::memory::Settle;

#[derive(Debug, clap::Args)]
#[command(after_long_help = writer_help("resolve", "Prints the memory's id."))]
pub struct SettleArgs {
    /// The memory (a unique prefix of its id is enough)
    pub id: String,
    /// The run this write belongs to (its events carry the id); without it,
    /// the write joins the project's only live run, if exactly one is live
    #[arg(long, value_name = "ID")]
    pub session_run_id: Option<String>,
}

/// `resolve`, `unresolve` and `archive`.
pub fn settle(ctx: &Ctx, a: &SettleArgs, verb: Settle) -> Result<Exit> {
    let now = now();
    let mut store = ctx.open_writer()?;
    let id = store.resolve_memory(&a.id)?;
    let run = run_named(&store, a.session_run_id.as_deref())?;
    let who = cli_actor(&store, run.as_deref(), now)?;
    let changed = store.settle_memory(&id, verb, &who)?;
    if !changed {
        ctx.out
            .note(&format!("{id} is already there: nothing written"));
    }
    print_id_or_record(ctx, &store, &id)
}
