//! `sessionkit schema [COMMAND]`: the JSON Schema of a command's JSON
//! output; alone, the commands that have one.

use anyhow::{Result, bail};

use crate::commands::Exit;

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
        // Within 80 columns: a long description goes on under itself.
        for c in super::TYPED {
            let what = super::contract(c).map_or("", |(_, what)| what);
            let mut line = format!("{c:<16}");
            for word in what.split(' ') {
                if line.len() + 1 + word.len() > 80 && line.trim_end().len() > 16 {
                    writeln!(out, "{line}")?;
                    line = " ".repeat(16);
                }
                line.push(' ');
                line.push_str(word);
            }
            writeln!(out, "{line}")?;
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
