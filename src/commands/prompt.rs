//! `sessionkit prompt debrief`: the prompt the turn-end nudge injects
//!, for a run or for a project. One renderer serves both.

use std::io::Write;

use anyhow::{Result, bail};

use super::Ctx;
use crate::commands::Exit;
use crate::domain::debrief::{self, Facets};
use crate::domain::harness::Harness;
use crate::domain::runs;
use crate::output::runs::{PROMPT_SCHEMA, PromptRecord};

#[derive(Debug, clap::Args)]
#[command(after_long_help = format!(
    "Default output: the prompt text. {}",
    super::help_fields("prompt")
))]
pub struct Args {
    #[command(subcommand)]
    pub command: PromptCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum PromptCommand {
    /// The debrief prompt: what to record, and which briefed commitments may be resolved
    ///
    /// With --agent and --session-id, for that run: its project and scope,
    /// its id for attribution, and the commitments its briefing showed that
    /// are still open or waiting (the only ids the agent may resolve).
    /// Without, for --project and --scope as given. Bounded by the harness's
    /// briefing ceiling (briefing.max_bytes.<harness>; --harness, else the
    /// run's agent): commitments past it are counted, not listed.
    Debrief(DebriefArgs),
}

#[derive(Debug, clap::Args)]
pub struct DebriefArgs {
    /// The harness of the run (with --session-id)
    #[arg(long, value_name = "A", requires = "session_id")]
    pub agent: Option<String>,
    /// The harness's session id (with --agent)
    #[arg(long, value_name = "S", requires = "agent")]
    pub session_id: Option<String>,
    /// The project, when no run is named
    #[arg(long, value_name = "P", conflicts_with = "agent")]
    pub project: Option<String>,
    /// The scope, when no run is named
    #[arg(long, value_name = "S", conflicts_with = "agent")]
    pub scope: Option<String>,
    /// Size the prompt for this harness's ceiling
    #[arg(long, value_name = "NAME")]
    pub harness: Option<String>,
}

pub fn run(ctx: &Ctx, a: &Args) -> Result<Exit> {
    let PromptCommand::Debrief(d) = &a.command;
    let store = ctx.open_creating()?;
    let facets = match (&d.agent, &d.session_id) {
        (Some(agent), Some(sid)) => {
            store.debrief_facets(&runs::check_agent(agent)?, &runs::check_session_id(sid)?)?
        }
        _ => Facets {
            scope: d.scope.clone(),
            project: d.project.clone(),
            briefed: None,
            run_id: None,
        },
    };
    let harness = match d.harness.as_deref().or(d.agent.as_deref()) {
        Some(h) => Harness::named(h),
        None => None,
    };
    let limits = crate::services::brief::limits(&store, harness, None, None, false)?;
    let Some(prompt) = debrief::render(&facets, limits.max_bytes) else {
        bail!(
            "the debrief prompt does not fit in {} bytes (briefing.max_bytes)",
            limits.max_bytes
        );
    };
    if ctx.out.wants_json() {
        ctx.out.document(&PromptRecord {
            bytes: prompt.len(),
            name: "debrief",
            prompt: &prompt,
            run_id: facets.run_id.as_deref(),
            schema: PROMPT_SCHEMA,
        })?;
    } else {
        let mut out = std::io::stdout().lock();
        out.write_all(prompt.as_bytes())?;
        out.flush()?;
    }
    Ok(Exit::Success)
}
