//! `sessionkit sweep`: periodic upkeep, meant for cron every few minutes.
//! The watchdog: a working or waiting agent whose last evidence is older than
//! `watchdog.minutes` becomes unknown. Later issues add lease expiry and the
//! closer here.

use anyhow::Result;
use serde_json::{Value, json};

use super::{Ctx, time};
use crate::Exit;
use crate::output::{Column, col};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print what would change and change nothing (exit 1 if anything would)
    #[arg(long)]
    pub dry_run: bool,
}

const COLUMNS: &[Column] = &[
    col("action", "action"),
    col("session_id", "session"),
    col("agent_id", "agent"),
    col("from", "from"),
    col("to", "to"),
    col("evidence_at", "last evidence"),
];

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let mut store = ctx.open()?;
    let minutes = crate::settings::count(&store, "watchdog.minutes")?;
    let window = i64::try_from(minutes)?.saturating_mul(60_000);
    let changes = store.watchdog(crate::clock::now(), window, args.dry_run)?;
    let rows: Vec<Value> = changes
        .iter()
        .map(|t| {
            json!({
                "action": "watchdog",
                "session_id": t.session_id,
                "agent_id": t.agent_id,
                "from": t.from.as_str(),
                "to": t.to.as_str(),
                "evidence_at": time(t.at),
                "dry_run": args.dry_run,
            })
        })
        .collect();
    ctx.out.records(COLUMNS, &rows)?;
    Ok(if args.dry_run && !rows.is_empty() {
        Exit::Found
    } else {
        Exit::Success
    })
}
