//! `sessionkit pricing list|set|import`: the price table in force.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use serde_json::Value;

use super::Ctx;
use crate::commands::Exit;
use crate::domain::clock;
use crate::domain::pricing::{Price, Rate, Rates, Tier, parse_rate, usd};
use crate::output::records::{PRICE_CHANGE_SCHEMA, PRICE_SCHEMA, PriceChangeRecord, PriceRecord};
use crate::output::{Column, col};

#[derive(Debug, clap::Args)]
#[command(after_long_help = format!(
    "pricing list: {}\n\npricing set and pricing import: {}",
    super::help_fields("pricing"),
    super::help_fields("pricing-change")
))]
pub struct Args {
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// The prices in force ($ per million tokens), embedded or set by you
    List {
        /// Only models whose id contains PATTERN
        #[arg(long, value_name = "PATTERN")]
        model: Option<String>,
    },
    /// Set a model's price ($ per million tokens); reprices stored messages
    Set {
        model: String,
        #[arg(long, value_name = "USD")]
        input: String,
        #[arg(long, value_name = "USD")]
        output: String,
        /// [default: the input rate]
        #[arg(long, value_name = "USD")]
        cache_read: Option<String>,
        /// [default: the input rate]
        #[arg(long = "cache-write-5m", value_name = "USD")]
        cache_write_5m: Option<String>,
        /// [default: the 5-minute write rate]
        #[arg(long = "cache-write-1h", value_name = "USD")]
        cache_write_1h: Option<String>,
    },
    /// Import LiteLLM's model_prices_and_context_window.json; reprices stored messages
    Import { file: PathBuf },
}

const LIST: &[Column] = &[
    col("model", "model"),
    col("input", "input"),
    col("output", "output"),
    col("cache_read", "cache read"),
    col("cache_write_5m", "cache w 5m"),
    col("cache_write_1h", "cache w 1h"),
    col("tiers", "long context"),
    col("source", "source"),
];

const CHANGE: &[Column] = &[
    col("models", "models"),
    col("rows_repriced", "rows repriced"),
    col("cost_delta_usd", "cost moved"),
];

/// Micro-dollars per MTok as a decimal number of dollars.
fn dollars(r: Rate) -> String {
    let s = format!("{}.{:06}", r / 1_000_000, r % 1_000_000);
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn rate(name: &str, v: &str) -> Result<Rate> {
    parse_rate(v).with_context(|| {
        format!("--{name} {v:?} is not a price in dollars per million tokens (e.g. 3 or 0.125)")
    })
}

/// LiteLLM's per-token dollars as micro-dollars per million tokens.
fn per_token(v: &Value) -> Option<Rate> {
    let x = v.as_f64()?;
    (x.is_finite() && x >= 0.0).then(|| (x * 1e12).round() as Rate)
}

/// The rows of a LiteLLM price map (its field names: pricing/README.md).
fn litellm(doc: &Value) -> Result<Vec<Price>> {
    let map = doc
        .as_object()
        .context("not a LiteLLM price map (expected a JSON object of models)")?;
    let mut out = Vec::new();
    for (model, e) in map {
        if model == "sample_spec" {
            continue;
        }
        let (Some(i), Some(o)) = (
            per_token(&e["input_cost_per_token"]),
            per_token(&e["output_cost_per_token"]),
        ) else {
            continue;
        };
        let cr = per_token(&e["cache_read_input_token_cost"]).unwrap_or(i);
        let w5 = per_token(&e["cache_creation_input_token_cost"]).unwrap_or(i);
        let w1 = per_token(&e["cache_creation_input_token_cost_above_1hr"]).unwrap_or(w5);
        let base = Rates {
            input: i,
            output: o,
            cache_read: cr,
            cache_write_5m: w5,
            cache_write_1h: w1,
        };
        let above = |f: &str| per_token(&e[format!("{f}_above_200k_tokens")]);
        let mut tiers = Vec::new();
        if above("input_cost_per_token").is_some() || above("output_cost_per_token").is_some() {
            tiers.push(Tier {
                threshold: 200_000,
                rates: Rates {
                    input: above("input_cost_per_token").unwrap_or(i),
                    output: above("output_cost_per_token").unwrap_or(o),
                    cache_read: above("cache_read_input_token_cost").unwrap_or(cr),
                    cache_write_5m: above("cache_creation_input_token_cost").unwrap_or(w5),
                    cache_write_1h: per_token(
                        &e["cache_creation_input_token_cost_above_1hr_above_200k_tokens"],
                    )
                    .unwrap_or(w1),
                },
            });
        }
        out.push(Price {
            model: model.clone(),
            base,
            tiers,
            fast_multiplier: None,
            us_multiplier: None,
        });
    }
    if out.is_empty() {
        bail!("no model in that file has input and output prices");
    }
    Ok(out)
}

pub fn run(ctx: &Ctx, args: &Args) -> Result<Exit> {
    let mut store = ctx.open_writer()?;
    let (prices, source) = match &args.action {
        Action::List { model } => return list(ctx, &store, model.as_deref()),
        Action::Set {
            model,
            input,
            output,
            cache_read,
            cache_write_5m,
            cache_write_1h,
        } => {
            let i = rate("input", input)?;
            let or = |name: &str, v: &Option<String>, default: i64| -> Result<i64> {
                Ok(v.as_deref()
                    .map(|v| rate(name, v))
                    .transpose()?
                    .unwrap_or(default))
            };
            let w5 = or("cache-write-5m", cache_write_5m, i)?;
            let base = Rates {
                input: i,
                output: rate("output", output)?,
                cache_read: or("cache-read", cache_read, i)?,
                cache_write_5m: w5,
                cache_write_1h: or("cache-write-1h", cache_write_1h, w5)?,
            };
            let price = Price {
                model: model.clone(),
                base,
                tiers: Vec::new(),
                fast_multiplier: None,
                us_multiplier: None,
            };
            (vec![price], "custom")
        }
        Action::Import { file } => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("reading {}", file.display()))?;
            let doc: Value = serde_json::from_str(&text)
                .with_context(|| format!("{} is not JSON", file.display()))?;
            (litellm(&doc)?, "import")
        }
    };
    let done = store.set_prices(&prices, source, clock::now())?;
    let row = PriceChangeRecord {
        cost_delta_nanousd: done.delta_nanousd,
        cost_delta_usd: usd(done.delta_nanousd),
        models: prices.len(),
        rows_repriced: done.rows,
        schema: PRICE_CHANGE_SCHEMA,
    };
    ctx.out.record_of(CHANGE, &row)?;
    Ok(Exit::Success)
}

/// `pricing list [MODEL]`: every price in force (or those whose model
/// holds MODEL), with where it came from.
fn list(ctx: &Ctx, store: &crate::store::Store, model: Option<&str>) -> Result<Exit> {
    let sources = store.price_sources()?;
    let pat = model.map(str::to_lowercase);
    let table = store.prices()?;
    let rows = table
        .prices
        .values()
        .filter(|p| {
            pat.as_deref()
                .is_none_or(|m| p.model.to_lowercase().contains(m))
        })
        .map(|p| {
            let b = &p.base;
            let tiers: Vec<String> = p
                .tiers
                .iter()
                .map(|t| {
                    let (i, o) = (dollars(t.rates.input), dollars(t.rates.output));
                    format!(">{}: {i}/{o}", t.threshold)
                })
                .collect();
            PriceRecord {
                cache_read: dollars(b.cache_read),
                cache_write_1h: dollars(b.cache_write_1h),
                cache_write_5m: dollars(b.cache_write_5m),
                input: dollars(b.input),
                model: &p.model,
                output: dollars(b.output),
                schema: PRICE_SCHEMA,
                source: sources.get(&p.model).map_or("embedded", String::as_str),
                tiers,
            }
        });
    ctx.out.records_of(LIST, rows)?;
    Ok(Exit::Success)
}
