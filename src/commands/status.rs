//! `sessionkit status`: which sessions and agents are working, waiting for
//! their user, finished or silent, with the age of the evidence.

use anyhow::Result;
use serde_json::{Value, json};

use super::{Ctx, time};
use crate::Exit;
use crate::clock::{Millis, now};
use crate::output::{Column, col};
use crate::store::events::LiveRow;

/// Lists live agents (working or waiting). An agent whose last evidence is
/// older than the watchdog window shows as unknown even before `sweep`
/// records it.
#[derive(Debug, clap::Args)]
#[command(
    after_long_help = "JSON fields (one object per agent): session_id, agent_id, agent (\"main\" or the id), parent_agent_id, agent_type, project, status (working|waiting|completed|error|unknown), status_at, evidence (transcript, tool_result, subagent_stop, stop_hook, watchdog, ...), last_activity_at, age, age_ms, total_tokens, cost_usd."
)]
pub struct Args {
    /// Include finished and silent agents (completed, error, unknown)
    #[arg(long)]
    pub all: bool,

    /// Only this project (its name, or Claude Code's folder slug)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
}

const COLUMNS: &[Column] = &[
    col("session_id", "session"),
    col("agent", "agent"),
    col("agent_type", "type"),
    col("status", "status"),
    col("age", "since"),
    col("evidence", "evidence"),
    col("project", "project"),
    col("total_tokens", "tokens"),
];

/// A span of milliseconds as people read it: 45s, 3m12s, 5h03m, 12d04h.
pub(crate) fn age(ms: Millis) -> String {
    let s = ms.max(0) / 1000;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        3600..86_400 => format!("{}h{:02}m", s / 3600, s % 3600 / 60),
        _ => format!("{}d{:02}h", s / 86_400, s % 86_400 / 3600),
    }
}

fn row_json(r: &LiveRow, now: Millis) -> Value {
    let evidence_at = crate::status::last_evidence(r.status.at, r.last_activity_at);
    let main = r.agent_id == r.session_id;
    json!({
        "session_id": r.session_id,
        "agent_id": r.agent_id,
        "agent": if main { "main".to_string() } else { r.agent_id.clone() },
        "parent_agent_id": r.parent_agent_id,
        "agent_type": r.agent_type,
        "project": r.project,
        "status": r.status.status.as_str(),
        "status_at": time(r.status.at),
        "evidence": r.status.cause.as_str(),
        "last_activity_at": time(r.last_activity_at),
        "age": evidence_at.map(|t| age(now - t)),
        "age_ms": evidence_at.map(|t| now - t),
        "total_tokens": r.totals.tokens.total(),
        "cost_usd": crate::pricing::usd(r.totals.cost_nanousd),
    })
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let store = ctx.open()?;
    let window = crate::settings::minutes_ms(&store, "watchdog.minutes")?;
    let now = now();
    let rows = store.live(args.all, args.project.as_deref(), now, window)?;
    let json: Vec<Value> = rows.iter().map(|r| row_json(r, now)).collect();
    ctx.out.records(COLUMNS, &json)?;
    let waiting = store.sessions_only_in_hooks(10_000)?;
    if waiting > 0 {
        ctx.out.note(&format!(
            "{waiting} session(s) seen by hooks have no transcript in the database yet: run `sessionkit ingest`"
        ));
    }
    let spooled = crate::store::spool::waiting(&ctx.db)?;
    if spooled.events > 0 {
        ctx.out.note(&format!(
            "{} hook event(s) wait in the spool {} (the database was busy): the next writer, e.g. `sessionkit sweep`, moves them in",
            spooled.events,
            crate::store::spool::path_for(&ctx.db).display()
        ));
    }
    if spooled.rejected > 0 {
        ctx.out.note(&format!(
            "{} spooled line(s) could not be read back; they are kept in {}",
            spooled.rejected,
            crate::store::spool::rejected_path_for(&ctx.db).display()
        ));
    }
    Ok(Exit::Success)
}

#[cfg(test)]
mod tests {
    #[test]
    fn ages_read_like_people_write_them() {
        let cases = [
            (0, "0s"),
            (59_999, "59s"),
            (60_000, "1m00s"),
            (192_000, "3m12s"),
            (3_600_000, "1h00m"),
            (18_180_000, "5h03m"),
            (86_400_000 * 12 + 3_600_000 * 4, "12d04h"),
        ];
        for (ms, want) in cases {
            assert_eq!(super::age(ms), want);
        }
    }
}
