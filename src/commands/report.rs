//! `sessionkit report --out FILE`: one self-contained HTML file of what
//! the agents did (cost and tokens over time by model and by agent, the top
//! sessions and projects, each expensive session's agent tree, the usage
//! limits, the memory loop) to open from disk or attach to a message.

use std::io::Write;

use anyhow::{Context, Result};

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock::{now, parse_bound_in};
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

    /// Messages since T (RFC 3339, YYYY-MM-DD, a span such as 30d, or today,
    /// yesterday, this-week, last-week, this-month, last-month in --tz)
    #[arg(long, value_name = "T")]
    pub since: Option<String>,

    /// Messages before T (same forms as --since)
    #[arg(long, value_name = "T")]
    pub until: Option<String>,

    /// Only this project (name or folder slug)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,

    /// Time zone of days and weeks (IANA name) [default: the local zone]
    #[arg(long, value_name = "ZONE")]
    pub tz: Option<String>,
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let tz = match &args.tz {
        Some(name) => jiff::tz::TimeZone::get(name)
            .with_context(|| format!("--tz {name:?} is not a known time zone"))?,
        None => jiff::tz::TimeZone::system(),
    };
    let bound = |s: &Option<String>, end: bool| {
        s.as_deref()
            .map(|s| parse_bound_in(s, &tz, end))
            .transpose()
    };
    let filter = CostFilter {
        since: bound(&args.since, false)?,
        until: bound(&args.until, true)?,
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
