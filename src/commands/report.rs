//! `sessionkit report --out FILE`: one self-contained HTML file of what
//! the agents did (cost and tokens over time by model and by agent, the top
//! sessions and projects, each expensive session's agent tree, the usage
//! limits, the memory loop) to open from disk or attach to a message.

use std::io::Write;

use anyhow::{Context, Result};

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
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let (tz, since, until) = args.period.resolve()?;
    let filter = CostFilter {
        since,
        until,
        project: args.project.clone(),
        session: None,
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
    write_whole(std::path::Path::new(&args.out), html.as_bytes())?;
    ctx.out.note(&format!(
        "wrote {} ({} KiB; {} sessions, {} drawn in full)",
        args.out,
        html.len().div_ceil(1024),
        o.top_sessions.len(),
        o.sessions.len()
    ));
    Ok(Exit::Success)
}

/// Writes `bytes` to `path` through a file beside it renamed over it, so
/// a reader never sees half a report.
fn write_whole(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    anyhow::ensure!(
        dir.is_dir(),
        "cannot write {}: {} is not a directory",
        path.display(),
        dir.display()
    );
    let name = path
        .file_name()
        .with_context(|| format!("--out {} names no file", path.display()))?;
    let tmp = dir.join(format!(".{}.sessionkit-tmp", name.to_string_lossy()));
    let mut f =
        std::fs::File::create(&tmp).with_context(|| format!("cannot write {}", tmp.display()))?;
    f.write_all(bytes)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}
