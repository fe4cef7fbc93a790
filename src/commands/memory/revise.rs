//! `sessionkit revise`: supersede a live memory with a new version (events
//! `create` and `supersede`), or move a commitment between open and waiting.

use anyhow::Result;

use super::{cli_actor, print_id_or_record, redact_if_on, run_named, writer_help};
use crate::commands::Exit;
use crate::commands::{Ctx, value_or_stdin};
use crate::domain::clock::now;
use crate::domain::memory::{CommitmentStatus, Draft, Kind, check, parse_due};

#[derive(Debug, clap::Args)]
#[command(after_long_help = writer_help("revise", "Prints the live version's id."))]
pub struct ReviseArgs {
    /// The memory (a unique prefix of its id is enough)
    pub id: String,
    #[arg(long, value_name = "K")]
    pub kind: Option<String>,
    #[arg(long, value_name = "T")]
    pub topic: Option<String>,
    #[arg(long, value_name = "D")]
    pub description: Option<String>,
    /// `-` reads stdin
    #[arg(long, value_name = "C")]
    pub content: Option<String>,
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    #[arg(long, value_name = "S")]
    pub scope: Option<String>,
    /// Replaces the tags (repeat for more)
    #[arg(long = "tag", value_name = "X")]
    pub tags: Vec<String>,
    /// Removes every tag
    #[arg(long, conflicts_with = "tags")]
    pub clear_tags: bool,
    #[arg(long, value_name = "DATE")]
    pub due: Option<String>,
    #[arg(long, value_name = "WHO")]
    pub owner: Option<String>,
    #[arg(long, conflicts_with = "unpin")]
    pub pin: bool,
    #[arg(long)]
    pub unpin: bool,
    /// Move a commitment between open and waiting
    #[arg(long, value_name = "open|waiting")]
    pub status: Option<String>,
    #[arg(long)]
    pub force: bool,
    /// The run this write belongs to (its events carry the id); without it,
    /// the write joins the project's only live run, if exactly one is live
    #[arg(long, value_name = "ID")]
    pub session_run_id: Option<String>,
}

pub fn revise(ctx: &Ctx, a: &ReviseArgs) -> Result<Exit> {
    let now = now();
    let content = a
        .content
        .as_deref()
        .map(|c| value_or_stdin(c, "stdin"))
        .transpose()?;
    let status = a
        .status
        .as_deref()
        .map(CommitmentStatus::parse)
        .transpose()?;
    let mut store = ctx.open_writer()?;
    let id = store.resolve_memory(&a.id)?;
    let old = store.memory(&id)?;
    let c = old.commitment.as_ref();
    let mut draft = Draft {
        kind: a.kind.clone().unwrap_or(old.kind.to_string()),
        topic: a.topic.clone().unwrap_or(old.topic.clone()),
        description: a.description.clone().or(old.description.clone()),
        content: content.unwrap_or(old.content.clone()),
        project: a.project.clone().unwrap_or(old.project.clone()),
        scope: Some(a.scope.clone().unwrap_or(old.scope.clone())),
        tags: if a.clear_tags {
            Vec::new()
        } else if a.tags.is_empty() {
            old.tags.clone()
        } else {
            a.tags.clone()
        },
        pinned: if a.pin {
            true
        } else if a.unpin {
            false
        } else {
            old.pinned
        },
        due_at: match &a.due {
            Some(d) => Some(parse_due(d, now)?),
            None => c.and_then(|c| c.due_at),
        },
        owner: a.owner.clone().or(c.and_then(|c| c.owner.clone())),
    };
    // A commitment revised into another kind leaves its due date and owner behind.
    if Kind::parse(draft.kind.trim()).ok() != Some(Kind::Commitment)
        && a.due.is_none()
        && a.owner.is_none()
    {
        draft.due_at = None;
        draft.owner = None;
    }
    let draft = redact_if_on(&store, draft)?;
    let next = check(&draft)?;
    let run = run_named(&store, a.session_run_id.as_deref())?;
    let who = cli_actor(&store, run.as_deref(), now)?;
    let live = store.revise(&id, &next, status, a.force, &who)?;
    print_id_or_record(ctx, &store, &live)
}
