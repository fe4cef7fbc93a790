//! `sessionkit limits`: the history of the account's usage limits, per
//! five-hour window and per week, as Claude Code's status line stated them
//! (`sessionkit statusline` records each change), with the tokens and
//! dollars spent in each; five-hour blocks derived from message times
//! where nothing was stated, marked as estimated.

use std::io::Write;

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::{Millis, format_instant, format_instant_in, parse_bound};
use crate::output::records::{
    LIMIT_SNAPSHOT_SCHEMA, LIMITS_SCHEMA, LimitRecord, LimitSnapshotRecord, totals_fields,
};
use crate::output::{Column, Format, col};
use crate::services::limits::{self, Window};
use crate::store::limits::Seen;

#[derive(Debug, clap::Args)]
#[command(after_long_help = format!("{}\n\nWith --snapshots: {}", super::help_fields("limits"), super::help_fields("limits-snapshots")))]
pub struct Args {
    /// Windows that end after T (RFC 3339, YYYY-MM-DD, or a span such as 7d)
    #[arg(long, value_name = "T")]
    pub since: Option<String>,

    /// Time zone a table shows times in (IANA name) [default: the local
    /// zone]; JSON keeps UTC
    #[arg(long, value_name = "ZONE")]
    pub tz: Option<String>,

    /// Draw each window's last stated share as a bar after the table
    /// (table format only)
    #[arg(long)]
    pub chart: bool,

    /// Every recorded change of the stated limits instead (one row per
    /// status line call that changed them), since --since
    #[arg(long, conflicts_with = "chart")]
    pub snapshots: bool,
}

const COLUMNS: &[Column] = &[
    col("window", "window"),
    col("starts_at", "starts"),
    col("resets_at", "resets"),
    col("minutes_left", "min left"),
    col("first_pct", "first %").optional(3),
    col("last_pct", "last %"),
    col("pace_pct_per_hour", "%/h").optional(2),
    col("snapshots", "seen").optional(4),
    col("messages", "messages").optional(3),
    col("total_tokens", "tokens").optional(1),
    col("cost_usd", "cost"),
    col("projected_cost_usd", "projected").optional(1),
    col("estimated", "estimated").optional(2),
];

const SNAPSHOT_COLUMNS: &[Column] = &[
    col("observed_at", "seen"),
    col("model", "model").optional(3),
    col("five_hour_pct", "5h %"),
    col("five_hour_resets_at", "5h resets").optional(2),
    col("seven_day_pct", "7d %"),
    col("seven_day_resets_at", "7d resets").optional(2),
    col("context_pct", "context %").optional(4),
    col("stated_cost_usd", "session cost").optional(1),
];

pub fn run(ctx: &Ctx, a: &Args) -> Result<Exit> {
    let store = ctx.open()?;
    let since = a.since.as_deref().map(parse_bound).transpose()?;
    if a.snapshots {
        let seen = store.snapshots(since)?;
        if seen.is_empty() {
            ctx.out.note("no limits recorded: register `sessionkit statusline` as Claude Code's statusLine command");
        }
        ctx.out
            .records_of(SNAPSHOT_COLUMNS, seen.iter().map(snapshot_record))?;
        return Ok(Exit::Success);
    }
    let now = crate::domain::clock::now();
    let windows = limits::history(&store, since, now)?;
    if windows.is_empty() {
        ctx.out.note(
            "no usage-limit windows and no messages: register `sessionkit statusline` as Claude Code's statusLine command to record the stated limits",
        );
    }
    // A table shows its times in the zone; the machine formats keep UTC.
    let tz = matches!(ctx.out.format, Format::Table | Format::Text)
        .then(|| super::time_zone(a.tz.as_deref()))
        .transpose()?;
    ctx.out
        .records_of(COLUMNS, windows.iter().map(|w| record(w, now, tz.as_ref())))?;
    if let Some(w) = windows.iter().find(|w| w.active(now) && w.kind != "7d") {
        let left = w.left(now).unwrap_or(0) / 60_000;
        ctx.out.note(&format!(
            "the {} window resets in {}h {:02}m{}",
            if w.kind == "block" {
                "five-hour (estimated)"
            } else {
                "five-hour"
            },
            left / 60,
            left % 60,
            w.projected_nanousd(now)
                .map(|p| format!(
                    "; at this pace it will have cost {}",
                    crate::output::money(crate::domain::pricing::usd(p))
                ))
                .unwrap_or_default()
        ));
    }
    if a.chart && ctx.out.format == Format::Table {
        if !windows.iter().any(|w| w.last.is_some()) {
            ctx.out.note(
                "nothing to chart: the chart draws the shares of a limit the client stated (register `sessionkit statusline` as Claude Code's statusLine command); estimated blocks have none",
            );
            return Ok(Exit::Success);
        }
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

fn snapshot_record(s: &Seen) -> LimitSnapshotRecord {
    let snap = &s.snapshot;
    LimitSnapshotRecord {
        schema: LIMIT_SNAPSHOT_SCHEMA.to_string(),
        observed_at: format_instant(s.at),
        session_id: snap.session_id.clone(),
        model: snap.model.clone(),
        five_hour_pct: snap.five_hour.map(|w| w.used_pct),
        five_hour_resets_at: snap.five_hour.map(|w| format_instant(w.resets_at)),
        seven_day_pct: snap.seven_day.map(|w| w.used_pct),
        seven_day_resets_at: snap.seven_day.map(|w| format_instant(w.resets_at)),
        context_pct: snap.context_pct,
        stated_cost_usd: snap.stated_cost_nanousd.map(crate::domain::pricing::usd),
    }
}

fn record(w: &Window, now: Millis, tz: Option<&jiff::tz::TimeZone>) -> LimitRecord {
    let at = |ms: Millis| tz.map_or_else(|| format_instant(ms), |tz| format_instant_in(ms, tz));
    LimitRecord {
        schema: LIMITS_SCHEMA.to_string(),
        window: w.kind.to_string(),
        starts_at: at(w.starts_at),
        resets_at: at(w.resets_at),
        active: w.active(now),
        minutes_left: w.left(now).map(|l| l.div_euclid(60_000)),
        projected_cost_usd: w.projected_nanousd(now).map(crate::domain::pricing::usd),
        first_pct: w.first.map(|f| f.0),
        last_pct: w.last.map(|l| l.0),
        snapshots: w.snapshots,
        pace_pct_per_hour: w.pace().map(|p| (p * 10.0).round() / 10.0),
        estimated: w.estimated(),
        totals: totals_fields(&w.totals),
    }
}
