//! `sessionkit limits`: the history of the account's usage limits, per
//! five-hour window and per week, as Claude Code's status line stated them
//! (`sessionkit statusline` records each change), with the tokens and
//! dollars spent in each; five-hour blocks derived from message times
//! where nothing was stated, marked as estimated.

use std::io::Write;

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::{format_instant, parse_bound};
use crate::output::records::{LIMITS_SCHEMA, LimitRecord, totals_fields};
use crate::output::{Column, Format, col};
use crate::services::limits::{self, Window};

#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("limits"))]
pub struct Args {
    /// Windows that end after T (RFC 3339, YYYY-MM-DD, or a span such as 7d)
    #[arg(long, value_name = "T")]
    pub since: Option<String>,

    /// Draw each window's last stated share as a bar after the table
    /// (table format only)
    #[arg(long)]
    pub chart: bool,
}

const COLUMNS: &[Column] = &[
    col("window", "window"),
    col("starts_at", "starts"),
    col("resets_at", "resets"),
    col("first_pct", "first %").optional(3),
    col("last_pct", "last %"),
    col("pace_pct_per_hour", "%/h").optional(2),
    col("snapshots", "seen").optional(4),
    col("messages", "messages").optional(3),
    col("total_tokens", "tokens").optional(1),
    col("cost_usd", "cost"),
    col("estimated", "estimated").optional(2),
];

pub fn run(ctx: &Ctx, a: &Args) -> Result<Exit> {
    let store = ctx.open()?;
    let since = a.since.as_deref().map(parse_bound).transpose()?;
    let windows = limits::history(&store, since, crate::domain::clock::now())?;
    if windows.is_empty() {
        ctx.out.note(
            "no usage-limit windows and no messages: register `sessionkit statusline` as Claude Code's statusLine command to record the stated limits",
        );
    }
    ctx.out.records_of(COLUMNS, windows.iter().map(record))?;
    if a.chart && ctx.out.format == Format::Table {
        let mut out = std::io::stdout().lock();
        writeln!(out)?;
        for w in windows.iter().filter(|w| w.last.is_some()) {
            let pct = w.last.map_or(0.0, |l| l.0);
            let width = (pct.clamp(0.0, 100.0) * 0.4).round() as usize;
            writeln!(
                out,
                "{:<5} {}  {:<40} {pct:.0}%",
                w.kind,
                &format_instant(w.starts_at)[..16],
                "█".repeat(width)
            )?;
        }
    }
    Ok(Exit::Success)
}

fn record(w: &Window) -> LimitRecord {
    LimitRecord {
        schema: LIMITS_SCHEMA.to_string(),
        window: w.kind.to_string(),
        starts_at: format_instant(w.starts_at),
        resets_at: format_instant(w.resets_at),
        first_pct: w.first.map(|f| f.0),
        last_pct: w.last.map(|l| l.0),
        snapshots: w.snapshots,
        pace_pct_per_hour: w.pace().map(|p| (p * 10.0).round() / 10.0),
        estimated: w.estimated(),
        totals: totals_fields(&w.totals),
    }
}
