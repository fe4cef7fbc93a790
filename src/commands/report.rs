//! `sessionkit report --out FILE`: one self-contained HTML file of what
//! the agents did (cost and tokens over time by model and by agent, the top
//! sessions and projects, each expensive session's agent tree, the usage
//! limits, the memory loop) to open from disk or attach to a message.

use std::io::Write;

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::now;
use crate::services::overview::{self, Ask};
use crate::store::costs::CostFilter;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write the report here (`-`: standard output); an existing file is
    /// replaced whole
    #[arg(long, value_name = "FILE")]
    pub out: String,

    /// The report as HTML (its one format)
    #[arg(long)]
    pub html: bool,

    #[command(flatten)]
    pub period: super::PeriodArgs,

    /// Only this project (name or folder slug)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,

    /// Only this agent's sessions (its name or an alias: claude, codex, gemini, ...)
    #[arg(long, value_name = "NAME", value_parser = crate::domain::clients::harness_arg())]
    pub harness: Option<String>,
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let (tz, since, until) = args.period.resolve()?;
    let filter = CostFilter {
        since,
        until,
        project: args.project.clone(),
        session: None,
        harness: args.harness.clone(),
    };
    let store = ctx.open()?;
    let o = overview::overview(
        &store,
        &Ask {
            filter,
            tz,
            now: now(),
            project: args.project.as_deref(),
        },
    )?;
    let html = crate::output::html::render(&o);
    if o.top_sessions.is_empty() {
        ctx.out
            .note("no messages in this period: the report says so");
    }
    if args.out == "-" {
        std::io::stdout().lock().write_all(html.as_bytes())?;
        return Ok(Exit::Success);
    }
    crate::domain::confined::write_whole(std::path::Path::new(&args.out), html.as_bytes())?;
    ctx.out.note(&format!(
        "wrote {} ({} KiB; {} sessions, {} drawn in full)",
        args.out,
        html.len().div_ceil(1024),
        o.top_sessions.len(),
        o.sessions.len()
    ));
    Ok(Exit::Success)
}
