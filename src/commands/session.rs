//! `sessionkit session open|heartbeat|close|show|list|events`: agent runs,
//! addressed by their natural key `--agent A --session-id S`.

use anyhow::{Result, bail};

use super::{Ctx, Key, help_fields};
use crate::commands::Exit;
use crate::domain::clock::{Millis, now};
use crate::domain::runs::{self, DEFAULT_EVENTS_PAGE, MAX_EVENTS_PAGE};
use crate::output::runs::{RunEventsRecord, RunRecord};
use crate::output::{Column, Format, col};
use crate::store::Store;
use crate::store::runs::{OpenRequest, Run, RunError};

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = format!(
        "{}\n\nsession events: {}",
        help_fields("session"),
        help_fields("session-events")
    )
)]
pub struct Args {
    #[command(subcommand)]
    pub command: SessionCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum SessionCommand {
    /// Open a run (or heartbeat, resume or reopen the existing one)
    Open(OpenArgs),
    /// Refresh a run's lease (a closed or stale run comes back to life)
    Heartbeat(HeartbeatArgs),
    /// Close a run explicitly (idempotent)
    Close(Key),
    /// One run, by id or by --agent and --session-id
    Show(ShowArgs),
    /// Runs, newest first
    List(ListArgs),
    /// The memory events a run produced, a page at a time
    Events(EventsArgs),
}

#[derive(Debug, clap::Args)]
pub struct OpenArgs {
    #[command(flatten)]
    pub key: Key,
    /// startup (a new conversation) or resume
    #[arg(long, value_name = "startup|resume")]
    pub source: String,
    /// [default: the current directory's project]
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    #[arg(long, value_name = "S")]
    pub scope: Option<String>,
    /// The briefing selector, a JSON object [default: {"kind":"all"}]
    #[arg(long, value_name = "JSON")]
    pub selector: Option<String>,
    /// The memories the briefing showed: a JSON array of {id, topic, status}, or - for stdin
    #[arg(long, value_name = "JSON")]
    pub briefed: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct HeartbeatArgs {
    #[command(flatten)]
    pub key: Key,
    /// The last message, kept for the closer (trimmed, at most 4,000 characters); - reads stdin
    #[arg(long, value_name = "TEXT")]
    pub excerpt: Option<String>,
    /// Count this heartbeat as the end of a turn, as `hook stop` does (the triage debounce counts turns)
    #[arg(long)]
    pub turn: bool,
}

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The run id (or give --agent and --session-id)
    #[arg(required_unless_present_all = ["agent", "session_id"], conflicts_with_all = ["agent", "session_id"])]
    pub run_id: Option<String>,
    #[arg(long, value_name = "A", requires = "session_id")]
    pub agent: Option<String>,
    #[arg(long, value_name = "S", requires = "agent")]
    pub session_id: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct ListArgs {
    /// Only live runs
    #[arg(long)]
    pub live: bool,
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
}

#[derive(Debug, clap::Args)]
pub struct EventsArgs {
    pub run_id: String,
    /// The last event id of the previous page
    #[arg(long, value_name = "C")]
    pub cursor: Option<String>,
    /// Events per page (at most 100)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_EVENTS_PAGE)]
    pub limit: u64,
}

const RUN_COLUMNS: &[Column] = &[
    col("run_id", "run"),
    col("agent", "agent").named(),
    col("session_id", "session"),
    col("state", "state"),
    col("project", "project").optional(1),
    col("activation_epoch", "epoch").optional(2),
    col("last_seen_at", "last seen"),
    col("outcome", "outcome").optional(3),
];

/// What every `session` verb works with.
struct Runs<'a> {
    ctx: &'a Ctx,
    store: Store,
    now: Millis,
    lease: i64,
}

impl Runs<'_> {
    fn print(&self, r: &Run, outcome: Option<&str>) -> Result<()> {
        self.ctx.out.record_of(
            RUN_COLUMNS,
            &RunRecord::of(r, self.now, self.lease, outcome),
        )
    }
}

pub fn run(ctx: &Ctx, a: &Args) -> Result<Exit> {
    let store = ctx.open_writer()?;
    let lease = crate::services::settings::hours_ms(&store, "lease.hours")?;
    let mut runs = Runs {
        ctx,
        store,
        now: now(),
        lease,
    };
    match &a.command {
        SessionCommand::Open(o) => open(&mut runs, o),
        SessionCommand::Heartbeat(h) => heartbeat(&mut runs, h),
        SessionCommand::Close(k) => close(&mut runs, k),
        SessionCommand::Show(s) => show(&runs, s),
        SessionCommand::List(l) => {
            let all = runs
                .store
                .runs(l.live, l.project.as_deref(), runs.now, runs.lease)?;
            let rows = all
                .iter()
                .map(|r| RunRecord::of(r, runs.now, runs.lease, None));
            ctx.out.records_of(RUN_COLUMNS, rows)
        }
        SessionCommand::Events(e) => events(&runs, e),
    }?;
    Ok(Exit::Success)
}

/// `session open`: the key, source, selector and briefing checked first,
/// the project looked up (and remembered) last.
fn open(runs: &mut Runs<'_>, o: &OpenArgs) -> Result<()> {
    let Ok(source) = runs::Source::parse(&o.source) else {
        bail!(
            "--source must be startup or resume, not {:?} (compact and clear are not stored)",
            o.source
        );
    };
    let agent = runs::check_agent(&o.key.agent)?;
    let session_id = runs::check_session_id(&o.key.session_id)?;
    let selector = runs::selector(o.selector.as_deref())?;
    let briefed = o
        .briefed
        .as_deref()
        .map(|b| super::value_or_stdin(b, "--briefed on stdin").and_then(|t| runs::briefed(&t)))
        .transpose()?;
    if o.project.as_deref() == Some("unknown") {
        bail!("\"unknown\" is not a project name: pass --project");
    }
    let project = Some(crate::services::project::chosen(
        &runs.store,
        o.project.as_deref(),
        None,
    )?);
    let req = OpenRequest {
        agent,
        session_id,
        source,
        project,
        scope: o.scope.clone(),
        selector,
        briefed,
    };
    let (r, outcome) = runs.store.open_run(&req, runs.now, runs.lease)?;
    runs.print(&r, Some(outcome.as_str()))
}

fn heartbeat(runs: &mut Runs<'_>, h: &HeartbeatArgs) -> Result<()> {
    let excerpt = h
        .excerpt
        .as_deref()
        .map(|e| super::value_or_stdin(e, "--excerpt on stdin"))
        .transpose()?;
    let (agent, sid) = (
        runs::check_agent(&h.key.agent)?,
        runs::check_session_id(&h.key.session_id)?,
    );
    let excerpt = excerpt.as_deref().map(runs::excerpt);
    let (r, outcome) = runs
        .store
        .heartbeat_run(
            &agent,
            &sid,
            excerpt.as_deref(),
            h.turn,
            runs.now,
            runs.lease,
        )?
        .ok_or_else(|| RunError::not_found(&agent, &sid))?;
    runs.print(&r, Some(outcome.as_str()))
}

fn close(runs: &mut Runs<'_>, k: &Key) -> Result<()> {
    let (agent, sid) = (
        runs::check_agent(&k.agent)?,
        runs::check_session_id(&k.session_id)?,
    );
    let (r, outcome) = runs
        .store
        .close_run(&agent, &sid, runs.now)?
        .ok_or_else(|| RunError::not_found(&agent, &sid))?;
    runs.print(&r, Some(outcome.as_str()))
}

fn show(runs: &Runs<'_>, s: &ShowArgs) -> Result<()> {
    let r = match (&s.run_id, &s.agent, &s.session_id) {
        (Some(id), _, _) => runs.store.run(&runs.store.resolve_run(id)?)?,
        (None, Some(agent), Some(sid)) => {
            let agent = runs::check_agent(agent)?;
            runs.store
                .run_by_key(&agent, sid)?
                .ok_or_else(|| RunError::not_found(&agent, sid))?
        }
        _ => bail!("give a run id, or --agent and --session-id"),
    };
    runs.print(&r, None)
}

/// `session events`: a table lists the page's events (its cursor a note);
/// JSON is the page.
fn events(runs: &Runs<'_>, e: &EventsArgs) -> Result<()> {
    if e.limit == 0 || e.limit > MAX_EVENTS_PAGE {
        bail!("--limit must be 1 to {MAX_EVENTS_PAGE}");
    }
    let out = &runs.ctx.out;
    let run_id = runs.store.resolve_run(&e.run_id)?;
    let page = runs
        .store
        .run_events(&run_id, e.cursor.as_deref(), e.limit)?;
    let doc = serde_json::to_value(RunEventsRecord::of(&run_id, &page))?;
    if !matches!(out.format, Format::Table | Format::Csv) {
        return out.record(
            &[
                col("run_id", "run"),
                col("next_cursor", "next cursor"),
                col("truncated", "truncated"),
            ],
            &doc,
        );
    }
    let items = doc["events"].as_array().cloned().unwrap_or_default();
    out.records(
        &[
            col("event_id", "event"),
            col("memory_id", "memory"),
            col("kind", "kind"),
            col("actor", "actor"),
            col("session_run_id", "run"),
            col("created_at", "at"),
        ],
        &items,
    )?;
    if let Some(c) = &page.next_cursor {
        out.note(&format!(
            "more events: sessionkit session events {run_id} --cursor {c}"
        ));
    }
    Ok(())
}
