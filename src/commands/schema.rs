//! `sessionkit schema [COMMAND]`: the JSON Schema of a command's JSON
//! output; alone, the commands that have one.

use anyhow::{Result, bail};

use crate::Exit;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The command whose JSON output to describe [default: list the commands that have a schema]
    #[arg(value_name = "COMMAND")]
    pub command: Option<String>,
}

pub fn run(a: &Args) -> Result<Exit> {
    use std::io::Write;
    let Some(command) = &a.command else {
        // The list: each command with a schema, and what its JSON holds.
        let mut out = std::io::stdout().lock();
        for c in super::TYPED {
            let what = super::contract(c).map_or("", |(_, what)| what);
            writeln!(out, "{c:<16} {what}")?;
        }
        return Ok(Exit::Success);
    };
    let Some((s, _)) = super::contract(command) else {
        bail!(
            "{:?} has no JSON schema yet (typed so far: {}); its fields are listed in `sessionkit {} --help`",
            command,
            super::TYPED.join(", "),
            command
        );
    };
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &s)?;
    writeln!(out)?;
    Ok(Exit::Success)
}
