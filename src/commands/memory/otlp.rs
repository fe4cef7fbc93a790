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
        // What the endpoint took, recorded once the run ends (also when a
        // later request fails: those it took stay taken).
        let mut taken: Vec<otlp::Request> = Vec::new();
        let sent = otlp::each_request(&store, since, Some(endpoint), &mut |mut r| {
            otlp::send(endpoint, &headers, &r)?;
            r.body = serde_json::Value::Null;
            taken.push(r);
            Ok(())
        });
        for r in &taken {
            store.otlp_sent(endpoint, &r.messages, &r.sessions)?;
        }
        sent?;
        ctx.out.note(&format!(
            "sent {} metric points and {} spans to {endpoint} in {} requests",
            taken.iter().map(|r| r.points).sum::<usize>(),
            taken.iter().map(|r| r.spans).sum::<usize>(),
            taken.len()
        ));
        return Ok(Exit::Success);
    }
    let store = ctx.open()?;
    let mut out: Box<dyn Write> = if a.out == "-" {
        Box::new(std::io::BufWriter::new(std::io::stdout().lock()))
    } else {
        Box::new(std::io::BufWriter::new(
            std::fs::File::create(&a.out).with_context(|| format!("cannot write {}", a.out))?,
        ))
    };
    // (points, metrics requests, spans, traces requests)
    let mut n = (0, 0, 0, 0);
    otlp::each_request(&store, since, None, &mut |r| {
        writeln!(out, "{}", r.body)?;
        match r.signal {
            Signal::Metrics => (n.0, n.1) = (n.0 + r.points, n.1 + 1),
            Signal::Traces => (n.2, n.3) = (n.2 + r.spans, n.3 + 1),
        }
        Ok(())
    })?;
    out.flush()?;
    ctx.out.note(&format!(
        "{} metric points in {} requests, {} spans in {}",
        n.0, n.1, n.2, n.3
    ));
    Ok(Exit::Success)
}
