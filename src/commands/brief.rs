//! `sessionkit brief`: the briefing a session would start with, exactly as a
//! hook injects it; `--explain` shows every candidate and why it rendered or
//! not; `--format json` gives the sections as data.

use std::io::Write;

use anyhow::Result;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::briefing::Limits;
use crate::domain::harness::Harness;
use crate::output::records::brief_record;
use crate::services::brief::{Built, Request, build};

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = format!(
        "Default output: the briefing text exactly as a hook injects it. {}",
        super::help_fields("brief")
    )
)]
pub struct Args {
    /// The project [default: the current directory's]
    #[arg(long, value_name = "P", conflicts_with = "cwd")]
    pub project: Option<String>,
    /// Brief for this directory's project
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<std::path::PathBuf>,
    /// The harness the briefing is for: its byte ceiling (briefing.max_bytes.<harness>; Codex at most 9,600)
    #[arg(long, value_name = "NAME")]
    pub harness: Option<String>,
    /// Token budget of the competing sections [default: setting briefing.budget_tokens]
    #[arg(long, value_name = "TOKENS")]
    pub budget: Option<usize>,
    /// Hard ceiling in bytes [default: setting briefing.max_bytes, or the harness's]
    #[arg(long, value_name = "N")]
    pub max_bytes: Option<usize>,
    /// After the briefing, every candidate: section, score, bytes, rendered or why not
    #[arg(long)]
    pub explain: bool,
    /// No budget and no ceiling: every candidate
    #[arg(long)]
    pub full: bool,
}

fn explain_lines(b: &Built, limits: &Limits) -> String {
    let mut s = format!(
        "-- explain: {} bytes, {} tokens (budget {} tokens, ceiling {} bytes); utility ranking {}\n",
        b.briefing.bytes,
        b.briefing.tokens,
        limits.budget_tokens,
        limits.max_bytes,
        if b.utility_active { "on" } else { "off" }
    );
    for p in &b.briefing.placements {
        let c = &b.candidates[p.candidate];
        s.push_str(&format!(
            "{:<12} {:>6.3} {:>5}B  {:<10} {}  {}\n",
            p.section.as_str(),
            p.score,
            p.bytes,
            if p.rendered() { p.outcome } else { "dropped" },
            c.memory_id,
            if p.rendered() {
                c.topic.clone()
            } else {
                format!("{} ({})", c.topic, &p.outcome[9..])
            }
        ));
    }
    s
}

pub fn run(ctx: &Ctx, a: &Args) -> Result<Exit> {
    let now = crate::domain::clock::now();
    let store = ctx.open()?;
    let project = crate::services::project::chosen(&store, a.project.as_deref(), a.cwd.as_deref())?;
    let harness = match &a.harness {
        Some(h) => Some(Harness::named(h).ok_or_else(|| {
            let names: Vec<&str> = crate::domain::harness::all().map(Harness::as_str).collect();
            anyhow::anyhow!("unknown harness {h:?}: {}", names.join(", "))
        })?),
        None => None,
    };
    let limits = crate::services::brief::limits(&store, harness, a.budget, a.max_bytes, a.full)?;
    let as_json = ctx.out.wants_json();
    let req = Request {
        project: project.clone(),
        limits,
        source: None,
        run_id: None,
        session_id: None,
        utility_mode: crate::services::settings::choice(&store, "briefing.utility")?,
        watchdog_ms: crate::services::settings::minutes_ms(&store, "watchdog.minutes")?,
        // --full renders every line: one read with the text beats a seek each.
        every_line: a.explain || as_json || a.full,
    };
    let built = build(&store, &req, now)?;
    if as_json {
        ctx.out.document(&brief_record(
            &project,
            &built.briefing,
            &built.candidates,
            &limits,
            built.utility_active,
        ))?;
    } else {
        let mut out = ctx.out.data();
        out.write_all(built.briefing.text.as_bytes())?;
        if a.explain {
            out.write_all(explain_lines(&built, &limits).as_bytes())?;
        }
        out.flush()?;
    }
    // Freeing 5,000 candidates one by one costs more than the process's
    // exit, which returns their memory at once.
    std::mem::forget(built);
    Ok(Exit::Success)
}
