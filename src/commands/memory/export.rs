//! `sessionkit export`: every memory, commitment and event as JSON Lines
//! (`continuity::memory::export` is the format).

use std::io::Write;

use anyhow::Result;

use crate::commands::Exit;
use crate::commands::{Ctx, help_fields};
use crate::domain::memory::export::export_lines;

#[derive(Debug, clap::Args)]
#[command(after_long_help = format!(
    "Deterministic: keys sorted, memories then commitments then events, no derived or volatile fields. {}",
    help_fields("export")
))]
pub struct ExportArgs {
    /// Only this project's memories (and their commitments and events)
    #[arg(long, value_name = "P")]
    pub project: Option<String>,
}

pub fn export(ctx: &Ctx, a: &ExportArgs) -> Result<Exit> {
    let store = ctx.open()?;
    let (memories, events) = store.export_rows(a.project.as_deref())?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in export_lines(&memories, &events) {
        // Through a value, whose keys are sorted: the file's stable form.
        writeln!(out, "{}", serde_json::to_value(&line)?)?;
    }
    out.flush()?;
    Ok(Exit::Success)
}
