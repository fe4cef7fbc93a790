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

    /// Send the transcripts' token and cost metrics (Claude Code's names)
    /// and agent trees (as traces) to this OTLP/HTTP endpoint as JSON
    /// (`http://collector:4318`): what it has not taken yet, each message
    /// once across runs. Headers from OTEL_EXPORTER_OTLP_HEADERS and
    /// --otlp-header
    #[arg(long, value_name = "URL", conflicts_with = "project")]
    pub otlp_endpoint: Option<String>,

    /// A header for the OTLP endpoint (KEY=VALUE; repeatable)
    #[arg(long, value_name = "KEY=VALUE", requires = "otlp_endpoint")]
    pub otlp_header: Vec<String>,

    /// With --format otlp-json: write the OTLP/JSON lines here (`-`:
    /// standard output), as the Collector's otlpjsonfile receiver reads them
    #[arg(long, value_name = "FILE", default_value = "-")]
    pub out: String,

    /// The OpenTelemetry export's messages since T (RFC 3339, YYYY-MM-DD, or a
    /// span such as 30d)
    #[arg(long, value_name = "T")]
    pub since: Option<String>,
}

pub fn export(ctx: &Ctx, a: &ExportArgs) -> Result<Exit> {
    if a.otlp_endpoint.is_some() || ctx.out.format == crate::output::Format::OtlpJson {
        return super::otlp::export(ctx, a);
    }
    anyhow::ensure!(
        a.since.is_none() && a.out == "-",
        "--since and --out are the OpenTelemetry export's (--format otlp-json or --otlp-endpoint)"
    );
    anyhow::ensure!(
        ctx.out.format != crate::output::Format::Json,
        "export writes JSON Lines (--format jsonl, the default) or OpenTelemetry (--format otlp-json), not one JSON document"
    );
    let store = ctx.open()?;
    let (memories, events) = store.export_rows(a.project.as_deref())?;
    if std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        // What a person running it bare may have wanted instead.
        ctx.out.note(
            "these are the memories, for `sessionkit import`; what the agents cost: `sessionkit cost --json`; the transcripts as OpenTelemetry: `--format otlp-json`",
        );
    }
    if memories.is_empty() {
        ctx.out.note(if a.project.is_some() {
            "no memories in this project to export"
        } else {
            "no memories to export: `sessionkit remember` records one"
        });
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for line in export_lines(&memories, &events) {
        // Through a value, whose keys are sorted: the file's stable form
        // (controls and bidi characters as JSON escapes, as every JSON is).
        crate::output::write_json(&mut out, &serde_json::to_value(&line)?, false)?;
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(Exit::Success)
}
