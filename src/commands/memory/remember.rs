//! `sessionkit remember`: write a new memory (event `create`), unless an
//! identical one is live (its id is printed) or a likely duplicate is
//! (refused, unless --force).

use anyhow::Result;

use super::{cli_actor, print_id_or_record, redact_if_on, run_named, writer_help};
use crate::commands::Exit;
use crate::commands::{Ctx, value_or_stdin};
use crate::domain::clock::now;
use crate::domain::memory::{Draft, Remembered, check, parse_due};

#[derive(Debug, clap::Args)]
#[command(after_long_help = writer_help(
    "remember",
    "Prints the new id (or the identical live memory's id).",
))]
pub struct RememberArgs {
    /// constraint, convention, decision, commitment, blocker, preference, fact, pattern, finding, note, stage
    #[arg(long, value_name = "K")]
    pub kind: String,
    /// What it is about (at most 256 characters)
    #[arg(long, value_name = "T")]
    pub topic: String,
    /// The one line a briefing index shows (at most 160 characters)
    #[arg(long, value_name = "D")]
    pub description: Option<String>,
    /// The memory itself (at most 2,000 characters; never split); `-` reads stdin
    #[arg(long, value_name = "C")]
    pub content: String,
    /// [default: the current directory's project: git remote origin's name, else the directory name]
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
    /// Kebab-case scope [default: project]
    #[arg(long, value_name = "S")]
    pub scope: Option<String>,
    /// A tag (repeat for more; at most 32 of at most 64 characters)
    #[arg(long = "tag", value_name = "X")]
    pub tags: Vec<String>,
    /// A commitment's due date: RFC 3339, YYYY-MM-DD, or a span ahead (3d, 12h, 2w)
    #[arg(long, value_name = "DATE")]
    pub due: Option<String>,
    /// A commitment's owner
    #[arg(long, value_name = "WHO")]
    pub owner: Option<String>,
    /// Always show it at the top of a briefing
    #[arg(long)]
    pub pin: bool,
    /// Write it even when a live memory looks like the same thing
    #[arg(long)]
    pub force: bool,
    /// The run this write belongs to (its events carry the id); without it,
    /// the write joins the project's only live run, if exactly one is live
    #[arg(long, value_name = "ID")]
    pub session_run_id: Option<String>,
}

pub fn remember(ctx: &Ctx, a: &RememberArgs) -> Result<Exit> {
    let now = now();
    let content = value_or_stdin(&a.content, "stdin")?;
    let mut store = ctx.open_writer()?;
    let draft = Draft {
        kind: a.kind.clone(),
        topic: a.topic.clone(),
        description: a.description.clone(),
        content,
        project: a.project.clone().unwrap_or_else(|| "-".into()),
        scope: a.scope.clone(),
        tags: a.tags.clone(),
        pinned: a.pin,
        due_at: a.due.as_deref().map(|d| parse_due(d, now)).transpose()?,
        owner: a.owner.clone(),
    };
    let mut draft = redact_if_on(&store, draft)?;
    // Everything else is checked before the directory's project is looked up
    // (and remembered), so bad input changes nothing.
    check(&draft)?;
    draft.project = crate::services::project::chosen(&store, a.project.as_deref(), None)?;
    let m = check(&draft)?;
    let run = run_named(&store, a.session_run_id.as_deref())?;
    let who = cli_actor(&store, run.as_deref(), now)?;
    let id = match store.remember(&m, a.force, &who)? {
        Remembered::Created(id) => id,
        Remembered::Existing(id) => {
            ctx.out.note(&format!(
                "an identical memory is live: {id} (nothing written)"
            ));
            id
        }
    };
    print_id_or_record(ctx, &store, &id)
}
