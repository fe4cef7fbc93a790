//! `sessionkit tree SESSION`: who spawned whom, with status, duration and tokens.

use anyhow::Result;
use serde_json::Value;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::parse_bound;
use crate::output::Format;
use crate::output::tree::{self, TextStyle, Tree};
use crate::store::Store;
use crate::store::reports::SessionFilter;

#[derive(Debug, clap::Args)]
#[command(
    after_long_help = super::help_fields("tree")
)]
pub struct Args {
    /// Session id, or a unique prefix of one
    #[arg(required_unless_present = "all", conflicts_with = "all")]
    pub session: Option<String>,

    /// One tree per session (with --since / --project to choose them)
    #[arg(long)]
    pub all: bool,

    /// With --all: sessions active since T (RFC 3339, YYYY-MM-DD, or a span such as 7d)
    #[arg(long, value_name = "T", requires = "all")]
    pub since: Option<String>,

    /// With --all: only this project
    #[arg(long, value_name = "P", requires = "all")]
    pub project: Option<String>,

    /// Plain ASCII branches instead of box-drawing characters
    #[arg(long)]
    pub ascii: bool,

    /// Show how each parent was proven (join path and spawning tool_use id)
    #[arg(long)]
    pub why: bool,
}

fn load(store: &Store, session: &str, watch: &crate::services::report::Watch) -> Result<Vec<Tree>> {
    let mut nodes = store.agent_nodes(session)?;
    for n in &mut nodes {
        n.status = watch.status(session, &n.status, n.status_at, n.last_seen);
    }
    Ok(tree::build(nodes, store.reported_by_parent(session)?))
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    ctx.out.refuse("a tree", &[Format::Csv])?;
    let store = ctx.open()?;
    let sessions: Vec<String> = if let Some(prefix) = &args.session {
        vec![store.resolve_session(prefix)?]
    } else {
        let filter = SessionFilter {
            since: args.since.as_deref().map(parse_bound).transpose()?,
            project: args.project.clone(),
            ..SessionFilter::default()
        };
        let mut ids: Vec<String> = store
            .sessions(&filter)?
            .into_iter()
            .map(|s| s.session_id)
            .collect();
        ids.reverse(); // oldest first, like a log
        ids
    };
    let mut out = String::new();
    let mut docs: Vec<Value> = Vec::new();
    let watch = crate::services::report::Watch::load(&store)?;
    for sid in &sessions {
        let trees = load(&store, sid, &watch)?;
        match ctx.out.format {
            Format::Json | Format::Jsonl => {
                docs.push(serde_json::to_value(tree::doc(sid, &trees))?);
            }
            Format::Dot => out.push_str(&tree::to_dot(sid, &trees)),
            Format::Mermaid => out.push_str(&tree::to_mermaid(&trees)),
            _ => {
                if args.all {
                    out.push_str(&format!("session {sid}\n"));
                }
                out.push_str(&tree::to_text(
                    &trees,
                    TextStyle {
                        ascii: args.ascii,
                        why: args.why,
                        width: ctx.out.width.map(usize::from),
                        main_chars: store.shortest_prefix(sid, 8)?.chars().count(),
                    },
                ));
            }
        }
    }
    use std::io::Write;
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    match ctx.out.format {
        Format::Json if args.all => serde_json::to_writer_pretty(&mut stdout, &docs)?,
        Format::Json => serde_json::to_writer_pretty(&mut stdout, &docs[0])?,
        Format::Jsonl => {
            for d in &docs {
                serde_json::to_writer(&mut stdout, d)?;
                stdout.write_all(b"\n")?;
            }
        }
        _ => stdout.write_all(out.as_bytes())?,
    }
    if ctx.out.format == Format::Json {
        stdout.write_all(b"\n")?;
    }
    stdout.flush()?;
    Ok(Exit::Success)
}
