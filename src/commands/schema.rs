//! `sessionkit schema COMMAND`: the JSON Schema of a command's JSON output.

use anyhow::{Result, bail};

use crate::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The command whose JSON output to describe
    #[arg(value_name = "COMMAND")]
    pub command: String,
}

pub fn run(a: &Args) -> Result<Exit> {
    let Some((s, _)) = super::contract(&a.command) else {
        bail!(
            "{:?} has no JSON schema yet (typed so far: {}); its fields are listed in `sessionkit {} --help`",
            a.command,
            super::TYPED.join(", "),
            a.command
        );
    };
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &s)?;
    writeln!(out)?;
    Ok(Exit::Success)
}
