//! `sessionkit export --format otlp-json` and `--otlp-endpoint URL`: the
//! transcripts' token and cost metrics under Claude Code's own names and
//! every session's agent tree as a trace, as OTLP/JSON lines or to an
//! OTLP/HTTP endpoint (each message once across runs).

use std::io::Write;

use anyhow::{Context, Result};

use super::ExportArgs;
use crate::commands::{Ctx, Exit};
use crate::domain::clock::parse_bound;
use crate::domain::confined::Whole;
use crate::services::otlp::{self, Signal};
use crate::store::Store;

pub fn export(ctx: &Ctx, a: &ExportArgs) -> Result<Exit> {
    let since = a.since.as_deref().map(parse_bound).transpose()?;
    if let Some(url) = &a.otlp_endpoint {
        let endpoint = otlp::Endpoint::parse(url)?;
        let headers = otlp::headers(
            std::env::var("OTEL_EXPORTER_OTLP_HEADERS").ok().as_deref(),
            &a.otlp_header,
        )?;
        // Requests are built from one connection's snapshot and each one
        // the endpoint took is recorded at once on another, before the
        // next is sent: a run killed or failing later resends nothing the
        // endpoint already has.
        let mut writer = ctx.open_writer()?;
        let reader = Store::open(&ctx.db)?;
        let (mut points, mut spans, mut requests) = (0, 0, 0);
        otlp::each_request(&reader, since, Some(&endpoint.key), &mut |r| {
            otlp::send(&endpoint, &headers, &r)?;
            writer.otlp_sent(&endpoint.key, &r.messages, &r.sessions)?;
            (points, spans, requests) = (points + r.points, spans + r.spans, requests + 1);
            Ok(())
        })
        .with_context(|| {
            format!(
                "after {requests} requests taken and recorded ({points} metric points, {spans} spans); a rerun sends the rest"
            )
        })?;
        ctx.out.note(&format!(
            "sent {points} metric points and {spans} spans to {} in {requests} requests",
            endpoint.shown
        ));
        return Ok(Exit::Success);
    }
    let store = ctx.open()?;
    // A file is written whole (a temporary renamed into place), so a
    // failed or killed export leaves the last good one.
    let mut file = if a.out == "-" {
        None
    } else {
        Some(Whole::create(std::path::Path::new(&a.out))?)
    };
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let out: &mut dyn Write = match &mut file {
        Some(f) => f,
        None => &mut stdout,
    };
    // (points, metrics requests, spans, traces requests)
    let mut n = (0, 0, 0, 0);
    otlp::each_request(&store, since, None, &mut |r| {
        crate::output::write_json(out, &r.body, false)?;
        out.write_all(b"\n")?;
        match r.signal {
            Signal::Metrics => (n.0, n.1) = (n.0 + r.points, n.1 + 1),
            Signal::Traces => (n.2, n.3) = (n.2 + r.spans, n.3 + 1),
        }
        Ok(())
    })?;
    out.flush()?;
    if let Some(f) = file {
        f.commit()?;
    }
    ctx.out.note(&format!(
        "{} metric points in {} requests, {} spans in {}",
        n.0, n.1, n.2, n.3
    ));
    Ok(Exit::Success)
}
