//! `sessionkit memories`: list memories, streamed from the database.

use std::io::Write;

use anyhow::Result;

use super::MEMORY_COLUMNS;
use crate::commands::Exit;
use crate::commands::{Ctx, help_fields};
use crate::domain::clock::parse_bound;
use crate::domain::memory::{Kind, MemoryFilter, StatusFilter};
use crate::output::memory::MemoryRecord;

#[derive(Debug, clap::Args)]
#[command(after_long_help = help_fields("memories"))]
pub struct MemoriesArgs {
    #[arg(long, value_name = "K")]
    pub kind: Option<String>,
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    /// active, archived, or a commitment status: open, waiting, resolved, expired
    #[arg(long, value_name = "S")]
    pub status: Option<String>,
    /// Superseded and archived memories too
    #[arg(long)]
    pub all: bool,
    /// Only memories created since T (RFC 3339, YYYY-MM-DD, or a span such as 7d)
    #[arg(long, value_name = "T")]
    pub since: Option<String>,
    /// Include each memory's content (a listing is an index; `memory show` and `export` give everything)
    #[arg(long)]
    pub full: bool,
}

pub fn memories(ctx: &Ctx, a: &MemoriesArgs) -> Result<Exit> {
    let f = MemoryFilter {
        kind: a.kind.as_deref().map(Kind::parse).transpose()?,
        project: a.project.clone(),
        status: a.status.as_deref().map(StatusFilter::parse).transpose()?,
        all: a.all,
        since: a.since.as_deref().map(parse_bound).transpose()?,
        full: a.full,
    };
    let store = ctx.open()?;
    // Rows stream from the database to stdout; JSON Lines are written
    // directly (`MemoryRecord::write_json`), other formats through serde.
    let mut sink = ctx.out.sink();
    let mut line = Vec::with_capacity(1024);
    let mut listed = 0u64;
    store.each_memory(&f, |m| {
        listed += 1;
        let record = MemoryRecord::of(&m, a.full);
        match sink.lines() {
            Some(out) => {
                line.clear();
                record.write_json(&mut line);
                line.push(b'\n');
                out.write_all(&line)?;
                Ok(())
            }
            None => sink.push(&record),
        }
    })?;
    ctx.out.finish(MEMORY_COLUMNS, sink)?;
    if listed == 0 {
        let filtered =
            a.kind.is_some() || a.project.is_some() || a.status.is_some() || a.since.is_some();
        ctx.out.note(if filtered {
            "no memories match"
        } else {
            "no memories yet: `sessionkit remember` stores one"
        });
    }
    Ok(Exit::Success)
}
