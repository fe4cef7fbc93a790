//! `sessionkit completions`: shell completions generated from the clap tree.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap_complete::Shell;

use crate::commands::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell to print completions for
    #[arg(value_enum, required_unless_present = "dir")]
    pub shell: Option<Shell>,

    /// Write bash, zsh and fish completions into DIR instead (what `completions/` holds)
    #[arg(long, value_name = "DIR", conflicts_with = "shell")]
    pub dir: Option<PathBuf>,
}

/// The shells whose completions are checked in, and their file names.
pub const CHECKED_IN: &[(Shell, &str)] = &[
    (Shell::Bash, "sessionkit.bash"),
    (Shell::Zsh, "_sessionkit"),
    (Shell::Fish, "sessionkit.fish"),
];

/// The completion script for one shell.
pub fn render(shell: Shell) -> Vec<u8> {
    let mut cmd = crate::cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "sessionkit", &mut buf);
    buf
}

pub fn run(args: &Args) -> Result<Exit> {
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (shell, name) in CHECKED_IN {
            let path = dir.join(name);
            std::fs::write(&path, render(*shell))
                .with_context(|| format!("writing {}", path.display()))?;
        }
        return Ok(Exit::Success);
    }
    if let Some(shell) = args.shell {
        use std::io::Write;
        std::io::stdout().lock().write_all(&render(shell))?;
    }
    Ok(Exit::Success)
}
