//! `sessionkit export --format otlp-json` and `--otlp-endpoint URL`: the
//! transcripts' token and cost metrics under Claude Code's own names and
//! every session's agent tree as a trace, as OTLP/JSON lines or to an
//! OTLP/HTTP endpoint (each message once across runs).

use std::io::Write;

use anyhow::{Context, Result};

use super::ExportArgs;
use crate::commands::{Ctx, Exit};
use crate::domain::clock::parse_bound;
use crate::services::otlp::{self, Signal};

pub fn export(ctx: &Ctx, a: &ExportArgs) -> Result<Exit> {
    let since = a.since.as_deref().map(parse_bound).transpose()?;
    if let Some(endpoint) = &a.otlp_endpoint {
        anyhow::ensure!(
            endpoint.starts_with("http://") || endpoint.starts_with("https://"),
            "--otlp-endpoint {endpoint:?} is not an http:// or https:// URL"
        );
        let headers = otlp::headers(
            std::env::var("OTEL_EXPORTER_OTLP_HEADERS").ok().as_deref(),
            &a.otlp_header,
        )?;
        let mut store = ctx.open_writer()?;
        let requests = otlp::requests(&store, since, Some(endpoint))?;
        let (mut points, mut spans) = (0, 0);
        for r in &requests {
            otlp::send(endpoint, &headers, r)?;
            store.otlp_sent(endpoint, &r.messages, &r.sessions)?;
            points += r.points;
            spans += r.spans;
        }
        ctx.out.note(&format!(
            "sent {points} metric points and {spans} spans to {endpoint} in {} requests",
            requests.len()
        ));
        return Ok(Exit::Success);
    }
    let store = ctx.open()?;
    let requests = otlp::requests(&store, since, None)?;
    let mut out: Box<dyn Write> = if a.out == "-" {
        Box::new(std::io::BufWriter::new(std::io::stdout().lock()))
    } else {
        Box::new(std::io::BufWriter::new(
            std::fs::File::create(&a.out).with_context(|| format!("cannot write {}", a.out))?,
        ))
    };
    for r in &requests {
        writeln!(out, "{}", r.body)?;
    }
    out.flush()?;
    let count = |s: Signal| requests.iter().filter(|r| r.signal == s).count();
    ctx.out.note(&format!(
        "{} metric points in {} requests, {} spans in {}",
        requests.iter().map(|r| r.points).sum::<usize>(),
        count(Signal::Metrics),
        requests.iter().map(|r| r.spans).sum::<usize>(),
        count(Signal::Traces)
    ));
    Ok(Exit::Success)
}
