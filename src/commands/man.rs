//! `sessionkit man`: roff man pages generated from the clap tree.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::commands::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The command whose page to show (`cost`, `memory show`); none: the
    /// top page
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,

    /// Write sessionkit.1 and one page per command into DIR (what `man/` holds)
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<PathBuf>,

    /// Print the page's roff source instead of reading it
    #[arg(long)]
    pub roff: bool,
}

/// Every page: (file name, roff text), the top page first.
pub fn pages() -> Result<Vec<(String, Vec<u8>)>> {
    crate::cli::FULL_HELP.store(true, std::sync::atomic::Ordering::Relaxed);
    let cmd = crate::cli::command();
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
        return Ok(Exit::Success);
    }
    let name = std::iter::once("sessionkit")
        .chain(args.command.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join("-");
    let Some((_, roff)) = pages.iter().find(|(n, _)| *n == format!("{name}.1")) else {
        anyhow::bail!(
            "no page for {:?}: `sessionkit --help` lists the commands",
            args.command.join(" ")
        );
    };
    use std::io::Write;
    if args.roff {
        std::io::stdout().lock().write_all(roff)?;
        return Ok(Exit::Success);
    }
    if read_with_man(roff)? {
        return Ok(Exit::Success);
    }
    // No `man` here: the same text as the command's long help.
    crate::cli::FULL_HELP.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut cmd = crate::cli::command();
    for word in &args.command {
        cmd = cmd
            .find_subcommand(word)
            .cloned()
            .with_context(|| format!("no command {word:?}"))?;
    }
    write!(std::io::stdout().lock(), "{}", cmd.render_long_help())?;
    Ok(Exit::Success)
}

/// Shows a page through the system's `man` reading it from its standard
/// input (`man -l -`: paged on a terminal, plain text in a pipe); false
/// when there is no `man` to run.
fn read_with_man(roff: &[u8]) -> Result<bool> {
    use std::io::Write;
    let child = std::process::Command::new("man")
        .args(["-l", "-"])
        .stdin(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return Ok(false);
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A reader that quits early closes its end: not an error.
        let _ = stdin.write_all(roff);
    }
    let status = child.wait()?;
    anyhow::ensure!(status.success(), "man could not show the page ({status})");
    Ok(true)
}
