//! `sessionkit man`: roff man pages generated from the clap tree.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::CommandFactory;

use crate::cli::Cli;
use crate::commands::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write sessionkit.1 and one page per command into DIR (what `man/` holds)
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Every page: (file name, roff text), the top page first.
pub fn pages() -> Result<Vec<(String, Vec<u8>)>> {
    crate::cli::FULL_HELP.store(true, std::sync::atomic::Ordering::Relaxed);
    let cmd = Cli::command();
    let mut out = Vec::new();
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut buf)?;
    out.push(("sessionkit.1".to_string(), buf));
    for sub in cmd.get_subcommands() {
        add_pages(&mut out, "sessionkit", sub)?;
    }
    Ok(out)
}

/// The page of `sub` under `parent` (`sessionkit-memory`), then one page per
/// subcommand of it (`sessionkit-memory-show`), as git names its pages.
fn add_pages(out: &mut Vec<(String, Vec<u8>)>, parent: &str, sub: &clap::Command) -> Result<()> {
    let name = format!("{parent}-{}", sub.get_name());
    let page = sub.clone().name(name.clone());
    let mut buf = Vec::new();
    clap_mangen::Man::new(page).render(&mut buf)?;
    out.push((format!("{name}.1"), buf));
    for nested in sub.get_subcommands().filter(|s| s.get_name() != "help") {
        add_pages(out, &name, nested)?;
    }
    Ok(())
}

pub fn run(args: &Args) -> Result<Exit> {
    let pages = pages()?;
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (name, text) in &pages {
            let path = dir.join(name);
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        }
    } else {
        use std::io::Write;
        std::io::stdout().lock().write_all(&pages[0].1)?;
    }
    Ok(Exit::Success)
}
