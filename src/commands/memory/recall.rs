//! `sessionkit recall`: full-text search over memories, ranked by bm25.

use anyhow::Result;

use crate::commands::Exit;
use crate::commands::{Ctx, help_fields};
use crate::domain::clock::now;
use crate::domain::memory::{Demand, Kind};
use crate::output::memory::{MemoryRecord, RecallRecord, rounded};
use crate::output::{Column, col};

#[derive(Debug, clap::Args)]
#[command(after_long_help = format!(
    "Each hit counts as demand (1.5, once a day). {}",
    help_fields("recall")
))]
pub struct RecallArgs {
    /// Words to look for (any of them; ranked by bm25, ties by recency). A word in over a tenth of the memories (and over 2,000) is left out when the query has rarer ones; when every word is that common, only the 2,000 newest matches are ranked, and a note says so
    pub query: String,
    #[arg(long, value_name = "K")]
    pub kind: Option<String>,
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub limit: u64,
    /// Superseded and archived memories too
    #[arg(long)]
    pub all: bool,
}

const RECALL_COLUMNS: &[Column] = &[
    col("memory_id", "id"),
    col("kind", "kind"),
    col("state", "state"),
    col("topic", "topic"),
    col("snippet", "snippet"),
];

pub fn recall(ctx: &Ctx, a: &RecallArgs) -> Result<Exit> {
    let now = now();
    let kind = a.kind.as_deref().map(Kind::parse).transpose()?;
    let mut store = ctx.open_writer()?;
    let aliases = crate::domain::matching::Aliases::with(&crate::services::settings::choice(
        &store,
        "match.aliases",
    )?)?;
    let found = store.recall(
        &a.query,
        kind,
        a.project.as_deref(),
        a.all,
        a.limit,
        &aliases,
    )?;
    if let Some(n) = found.newest_ranked {
        ctx.out.note(&format!(
            "every word of {:?} is in over a tenth of the memories: ranked the {n} newest that match; add a rarer word to rank them all",
            a.query
        ));
    }
    let hits = found.hits;
    if hits.is_empty() {
        ctx.out.note(&format!("no memories match {:?}", a.query));
    }
    let ids: Vec<&str> = hits.iter().map(|h| h.memory.memory_id.as_str()).collect();
    // Read-only (an agent asking through `sessionkit mcp`): not recorded.
    if !ctx.read_only {
        store.record_demand(Demand::Recall, None, &ids, None, now)?;
    }
    let rows = hits.iter().map(|h| RecallRecord {
        memory: MemoryRecord::of(&h.memory.view(), true),
        rank: rounded(h.rank, 6),
        snippet: &h.snippet,
    });
    ctx.out.records_of(RECALL_COLUMNS, rows)?;
    Ok(Exit::Success)
}
