//! `sessionkit push [URL]`: sessions, agents and counted messages into a
//! team's PostgreSQL database.

use anyhow::{Result, bail};

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::parse_bound;
use crate::output::records::{PUSH_SCHEMA, PushRecord};
use crate::output::{Column, col};
use crate::services::push::{Options, Target, push_watched};

/// Writes every session that changed since the last push into a team's
/// PostgreSQL database (sessionkit's own tables there, created or brought
/// up to date first): sessions, agents with their parent edges, and one row
/// per API message id, merged by the same rule as local ingest, so pushing
/// twice, from two machines, or again after a push died changes nothing.
/// Memories and runs stay local. The password comes from the URL given
/// here or PGPASSWORD, never from the database.
#[derive(Debug, clap::Args)]
#[command(after_long_help = super::help_fields("push"))]
pub struct Args {
    /// postgres://user@host:port/db [default: $SESSIONKIT_PG_URL, else the push.url setting]
    #[arg(value_name = "URL")]
    pub url: Option<String>,

    /// This machine's label there [default: the push.machine setting, else the host name]
    #[arg(long, value_name = "LABEL")]
    pub machine: Option<String>,

    /// Only sessions active since (RFC 3339, YYYY-MM-DD, or a span such as 7d)
    #[arg(long, value_name = "T")]
    pub since: Option<String>,

    /// Say what would be sent; connect to nothing, change nothing (exit 1 if anything would be)
    #[arg(long)]
    pub dry_run: bool,

    /// Memories with their commitments (as stored: redacted) and agent runs
    /// (no text) too, changed since the last push with this flag; off by
    /// default, they are personal
    #[arg(long)]
    pub with_memory: bool,
}

const COLUMNS: &[Column] = &[
    col("target", "target"),
    col("machine", "machine"),
    col("dry_run", "dry run"),
    col("sessions", "sessions"),
    col("messages", "messages"),
    col("memories", "memories"),
    col("runs", "runs"),
    col("unchanged", "unchanged"),
    col("schema_version", "schema version"),
];

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let mut store = ctx.open_writer()?;
    let url = match &args.url {
        Some(u) => u.clone(),
        None => crate::services::settings::choice(&store, "push.url")?,
    };
    if url.trim().is_empty() {
        bail!(
            "no team database: give its URL, or set SESSIONKIT_PG_URL or `sessionkit config set push.url postgres://user@host/db`"
        );
    }
    let target = Target::parse(&url)?;
    let machine = match &args.machine {
        Some(m) => m.clone(),
        None => crate::services::push::machine_label(&store)?,
    };
    if machine.trim().is_empty() {
        bail!("--machine must not be empty");
    }
    let since = args.since.as_deref().map(parse_bound).transpose()?;
    let opts = Options {
        machine: machine.trim().to_string(),
        user: crate::services::push::user_label(&store)?,
        since,
        dry_run: args.dry_run,
        with_memory: args.with_memory,
        deadline: None,
    };
    let done = push_watched(&mut store, &target, &opts)?;
    ctx.out.record_of(
        COLUMNS,
        &PushRecord {
            dry_run: args.dry_run,
            machine: opts.machine,
            memories: args.with_memory.then_some(done.memories),
            runs: args.with_memory.then_some(done.runs),
            messages: done.messages,
            schema: PUSH_SCHEMA.to_string(),
            schema_version: (!args.dry_run).then_some(done.schema_version),
            sessions: done.sessions,
            target: target.shown().to_string(),
            unchanged: done.unchanged,
        },
    )?;
    Ok(
        if args.dry_run && done.sessions + done.memories + done.runs > 0 {
            Exit::Found
        } else {
            Exit::Success
        },
    )
}
