//! The harness's own cost, as a Claude Code `cost-state` record states it.

use crate::domain::clock::parse_instant;
use crate::domain::transcript::usage::Buckets;
use crate::domain::transcript::wire;
use crate::domain::transcript::{HarnessCost, HarnessModelCost};

/// Dollars as the harness writes them (a float) to the nano-dollar.
pub(super) fn nano(usd: f64) -> i64 {
    (usd * 1e9).round() as i64
}

/// A `cost-state` record as the harness's reported totals.
pub(super) fn harness_cost(
    line: &[u8],
    ts: Option<&str>,
) -> Result<HarnessCost, serde_json::Error> {
    let w: wire::CostState = serde_json::from_slice(line)?;
    let models = w
        .model_usage
        .into_iter()
        .map(|(model, u)| {
            // The 5m/1h split when given, else all cache writes as 5m.
            let (w5, w1) = match (u.cache_creation_5m, u.cache_creation_1h) {
                (None, None) => (u.cache_creation_input_tokens, 0),
                (a, b) => (a.unwrap_or(0), b.unwrap_or(0)),
            };
            HarnessModelCost {
                model,
                tokens: Buckets {
                    input: u.input_tokens,
                    output: u.output_tokens,
                    cache_write_5m: w5,
                    cache_write_1h: w1,
                    cache_read: u.cache_read_input_tokens,
                    reasoning: 0,
                },
                web_searches: u.web_search_requests,
                cost_nanousd: nano(u.cost_usd),
            }
        })
        .collect();
    Ok(HarnessCost {
        at: ts.and_then(parse_instant),
        cost_nanousd: nano(w.total_cost_usd.unwrap_or(0.0)),
        models,
        responses: Vec::new(),
    })
}
