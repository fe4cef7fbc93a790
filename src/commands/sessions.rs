//! `sessionkit sessions`: list sessions with their token totals.

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::parse_bound_in;
use crate::output::records::session_record;
use crate::output::{Column, col};
use crate::store::reports::SessionFilter;

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = super::help_fields("sessions")
)]
pub struct Args {
    /// Only this project (its name, or Claude Code's folder slug)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,

    /// Only sessions active since T (RFC 3339, YYYY-MM-DD or YYYYMMDD, a
    /// span such as 30d, or today, yesterday, this-week, last-week,
    /// this-month, last-month in --tz)
    #[arg(long, value_name = "T")]
    pub since: Option<String>,

    /// Only sessions started before T (same forms as --since; a date or a
    /// calendar word includes its whole span)
    #[arg(long, value_name = "T")]
    pub until: Option<String>,

    /// Time zone of dates and calendar words (IANA name) [default: the local zone]
    #[arg(long, value_name = "ZONE")]
    pub tz: Option<String>,

    /// At most N sessions (most recent first)
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,

    /// Only sessions with degraded (skipped) lines
    #[arg(long)]
    pub degraded: bool,

    /// Only this agent's sessions
    #[arg(long, value_name = "NAME", value_parser = crate::domain::clients::harness_arg())]
    pub harness: Option<String>,
}

const COLUMNS: &[Column] = &[
    col("session_id", "session"),
    col("title", "title").one_line(),
    col("harness", "harness").optional(1),
    col("status", "status"),
    col("project", "project").optional(2),
    col("started_at", "started").optional(4),
    col("last_activity_at", "last activity"),
    col("agents", "agents").optional(5),
    col("models", "models").optional(3),
    col("input_tokens", "input").optional(6),
    col("output_tokens", "output").optional(6),
    col("cache_write_5m_tokens", "cache w 5m").optional(7),
    col("cache_write_1h_tokens", "cache w 1h").optional(7),
    col("cache_read_tokens", "cache read").optional(6),
    col("total_tokens", "total").optional(1),
    col("cost_usd", "cost"),
    col("unpriced_tokens", "unpriced").optional(5),
    col("degraded_lines", "degraded").optional(8),
];

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let tz = super::time_zone(args.tz.as_deref())?;
    let filter = SessionFilter {
        project: args.project.clone(),
        since: args
            .since
            .as_deref()
            .map(|s| parse_bound_in(s, &tz, false))
            .transpose()?,
        until: args
            .until
            .as_deref()
            .map(|s| parse_bound_in(s, &tz, true))
            .transpose()?,
        limit: args.limit,
        degraded_only: args.degraded,
        session_id: None,
        harness: args.harness.clone(),
        heard: true,
    };
    let store = ctx.open()?;
    let watch = crate::services::report::Watch::load(&store)?;
    let sessions = store.sessions(&filter)?;
    let heard = sessions.iter().filter(|s| s.heard).count();
    let empty = sessions.is_empty();
    let rows = sessions.into_iter().map(|mut s| {
        s.status = watch.status(&s.session_id, &s.status, s.status_at, s.last_activity_at);
        session_record(&s)
    });
    ctx.out.records_of(COLUMNS, rows)?;
    if empty {
        ctx.out.note(if store.session_ids()?.is_empty() {
            "no sessions: the database holds none yet; `sessionkit ingest` reads your agents' transcripts"
        } else {
            "no sessions match"
        });
    }
    if heard > 0 {
        ctx.out.note(&format!(
            "{heard} session(s) listed from hook events alone (no transcript read yet, so no tokens): `sessionkit sweep` or `sessionkit ingest` reads them"
        ));
    }
    Ok(Exit::Success)
}
