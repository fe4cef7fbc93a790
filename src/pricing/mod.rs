//! Prices and exact cost arithmetic.
//!
//! The embedded table is `models.tsv`, extracted from LiteLLM's price map
//! (MIT, © 2023 Berri AI; `LITELLM-LICENSE` beside it) of litellm 1.110.2,
//! and 1.80.17 for gaps: Claude and OpenAI rows, then Google's Gemini rows
//! that `scripts/gemini_prices.py` prints from the same map. Prices
//! are held as integer micro-dollars per million tokens, parsed from the
//! decimal text (no floating point), so every cost is exact: a message's cost
//! is computed in pico-dollars and rounded once to integer nano-dollars.

mod table;

pub use table::PriceTable;

use crate::transcript::{Billing, Buckets};

/// A web search, as Anthropic bills it: $10 per 1,000 searches, in
/// pico-dollars (what Claude Code 2.1.332 adds per
/// `server_tool_use.web_search_requests`, harness-observed.md §2 item 10).
pub const WEB_SEARCH_PICOUSD: i128 = 10_000_000_000;

/// The US-only inference multiplier when the table has none for a model:
/// Claude Code 2.1.332 applies 1.1 to every `inference_geo: "us"` request
/// (`var OF=1.1;function xF(e){return e.inference_geo==="us"?OF:1}`,
/// harness-observed.md §2 item 10). In micro-units.
pub const US_ONLY_DEFAULT: Rate = 1_100_000;

/// Micro-dollars per million tokens ($3/MTok = 3,000,000).
pub type Rate = i64;

/// The five rates of one tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rates {
    pub input: Rate,
    pub output: Rate,
    pub cache_read: Rate,
    pub cache_write_5m: Rate,
    pub cache_write_1h: Rate,
}

/// A long-context tier: above `threshold` prompt tokens, every bucket of the
/// request is billed at `rates` (pricing/README.md, "Tiered pricing").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tier {
    pub threshold: u64,
    pub rates: Rates,
}

/// The price of one model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Price {
    pub model: String,
    pub base: Rates,
    /// Ascending by threshold.
    pub tiers: Vec<Tier>,
    /// What a `speed: "fast"` request costs as a multiple of the standard
    /// rates, in micro-units (2× = 2,000,000); `None`: no fast price known.
    pub fast_multiplier: Option<Rate>,
    /// The US-only inference multiplier, in micro-units.
    pub us_multiplier: Option<Rate>,
}

impl Price {
    /// The rates a request is billed at: the highest tier whose threshold its
    /// prompt (input + cache writes + cache reads) strictly exceeds.
    pub fn rates_for(&self, b: &Buckets) -> Rates {
        let prompt = b.input + b.cache_write_5m + b.cache_write_1h + b.cache_read;
        self.tiers
            .iter()
            .rev()
            .find(|t| prompt > t.threshold)
            .map_or(self.base, |t| t.rates)
    }

    /// The exact cost of one message, in nano-dollars (half-up from pico):
    /// its tokens at the rates of its tier, times the fast multiplier for a
    /// fast request and the US-only one for US-only inference, plus its web
    /// searches. `None` for a fast request of a model with no fast price
    /// (unpriced, never guessed: Decision 4).
    pub fn cost_nanousd(&self, b: &Buckets, billing: Billing) -> Option<i64> {
        let r = self.rates_for(b);
        let mut pico: i128 = [
            (b.input, r.input),
            (b.output, r.output),
            (b.cache_read, r.cache_read),
            (b.cache_write_5m, r.cache_write_5m),
            (b.cache_write_1h, r.cache_write_1h),
        ]
        .iter()
        .map(|(n, rate)| i128::from(*n) * i128::from(*rate))
        .sum();
        // tokens × micro$/MTok = pico-dollars; multipliers are micro-units.
        if billing.fast {
            pico = pico * i128::from(self.fast_multiplier?) / 1_000_000;
        }
        if billing.us_only {
            pico = pico * i128::from(self.us_multiplier.unwrap_or(US_ONLY_DEFAULT)) / 1_000_000;
        }
        pico += i128::from(billing.web_searches) * WEB_SEARCH_PICOUSD;
        // 1000 pico = 1 nano.
        Some(i64::try_from((pico + 500) / 1000).unwrap_or(i64::MAX))
    }
}

/// The model id Claude Code writes for messages it makes itself; free.
pub const SYNTHETIC: &str = "<synthetic>";

/// Parses a decimal price in $/MTok ("0.125", "3", "1e-1" is refused) into
/// micro-dollars per million tokens, exactly.
pub fn parse_rate(s: &str) -> Option<Rate> {
    let s = s.trim();
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if whole.is_empty() && frac.is_empty() {
        return None;
    }
    if !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 6
    {
        return None;
    }
    let w: i64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let mut f: i64 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    for _ in frac.len()..6 {
        f *= 10;
    }
    w.checked_mul(1_000_000)?.checked_add(f)
}

/// Nano-dollars as a number of dollars rounded to 6 decimals (for JSON).
pub fn usd(nano: i64) -> f64 {
    // Exact decimal first, then one conversion: no sum of floats anywhere.
    let micro = (i128::from(nano) + 500).div_euclid(1000);
    micro as f64 / 1e6
}

/// Dollars to the micro-dollar for messages: `$0.040674`.
pub fn cents_exact(nano: i64) -> String {
    let m = (i128::from(nano) + 500).div_euclid(1000);
    format!(
        "${}.{:06}",
        m.div_euclid(1_000_000),
        m.rem_euclid(1_000_000)
    )
}

/// Dollars with cents for tables: `$12.35`.
pub fn cents(nano: i64) -> String {
    let c = (i128::from(nano) + 5_000_000).div_euclid(10_000_000);
    format!("${}.{:02}", c / 100, c % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn price(base: [i64; 5], tier: Option<(u64, [i64; 5])>) -> Price {
        let r = |a: [i64; 5]| Rates {
            input: a[0],
            output: a[1],
            cache_read: a[2],
            cache_write_5m: a[3],
            cache_write_1h: a[4],
        };
        Price {
            model: "m".into(),
            base: r(base),
            tiers: tier
                .map(|(t, a)| Tier {
                    threshold: t,
                    rates: r(a),
                })
                .into_iter()
                .collect(),
            fast_multiplier: None,
            us_multiplier: None,
        }
    }

    fn plain(p: &Price, b: &Buckets) -> i64 {
        p.cost_nanousd(b, Billing::default()).unwrap()
    }

    fn b(i: u64, o: u64, w5: u64, w1: u64, cr: u64) -> Buckets {
        Buckets {
            input: i,
            output: o,
            cache_write_5m: w5,
            cache_write_1h: w1,
            cache_read: cr,
        }
    }

    #[test]
    fn rates_parse_exactly() {
        assert_eq!(parse_rate("3"), Some(3_000_000));
        assert_eq!(parse_rate("0.125"), Some(125_000));
        assert_eq!(parse_rate("22.5"), Some(22_500_000));
        assert_eq!(parse_rate("0.000001"), Some(1));
        assert_eq!(parse_rate("1e-6"), None);
        assert_eq!(parse_rate(""), None);
        assert_eq!(
            parse_rate("0.0000001"),
            None,
            "finer than a micro-dollar per MTok"
        );
    }

    /// Sonnet 4 (pricing/README.md): 3 / 15 / 0.3 / 3.75 / 6; above 200k 6 / 22.5 / 0.6 / 7.5.
    fn sonnet4() -> Price {
        price(
            [3_000_000, 15_000_000, 300_000, 3_750_000, 6_000_000],
            Some((
                200_000,
                [6_000_000, 22_500_000, 600_000, 7_500_000, 6_000_000],
            )),
        )
    }

    #[test]
    fn hand_computed_costs() {
        // 1,000 in, 500 out, 2,000 5m writes, 1,000 1h writes, 10,000 reads:
        // 1000×3 + 500×15 + 2000×3.75 + 1000×6 + 10000×0.3 = 27,000 $/MTok·tok = $0.027.
        assert_eq!(
            plain(&sonnet4(), &b(1_000, 500, 2_000, 1_000, 10_000)),
            27_000_000
        );
    }

    #[test]
    fn long_context_moves_the_whole_request() {
        // 60k input + 150k cache reads = 210k > 200k: every bucket at the premium,
        // where a per-bucket rule (ccusage) would bill none of it at the premium.
        let got = plain(&sonnet4(), &b(60_000, 1_000, 0, 0, 150_000));
        // 60000×6 + 1000×22.5 + 150000×0.6 = 472,500 → $0.4725
        assert_eq!(got, 472_500_000);
        // Exactly at the threshold stays at base (strict >).
        let at = plain(&sonnet4(), &b(50_000, 0, 0, 0, 150_000));
        assert_eq!(at, 50_000 * 3_000 + 150_000 * 300);
    }

    #[test]
    fn sub_nano_rounds_half_up_once_per_message() {
        let p = price([1, 0, 0, 0, 0], None); // $0.000001/MTok
        assert_eq!(plain(&p, &b(499, 0, 0, 0, 0)), 0);
        assert_eq!(plain(&p, &b(500, 0, 0, 0, 0)), 1);
    }

    /// Claude Code 2.1.332's own figure for the captured session
    /// (corpus/captured/claude-code-2.1.332, cost-state.totalCostUSD
    /// 0.0406736): four claude-opus-5-5 messages of 11 in, 7 out, 300 cache
    /// reads, 200 5m and 1,000 1h writes at $4/$20/$0.2/$5/$8, each
    /// `inference_geo: "us"`: 4 × $0.009244 × 1.1.
    #[test]
    fn us_only_fast_and_web_search() {
        let opus55 = Price {
            fast_multiplier: Some(2_000_000),
            us_multiplier: Some(1_100_000),
            ..price([4_000_000, 20_000_000, 200_000, 5_000_000, 8_000_000], None)
        };
        let msg = b(11, 7, 200, 1_000, 300);
        let us = Billing {
            us_only: true,
            ..Billing::default()
        };
        assert_eq!(plain(&opus55, &msg), 9_244_000);
        assert_eq!(4 * opus55.cost_nanousd(&msg, us).unwrap(), 40_673_600);
        let fast = Billing {
            fast: true,
            ..Billing::default()
        };
        assert_eq!(opus55.cost_nanousd(&msg, fast), Some(18_488_000));
        let searches = Billing {
            web_searches: 3,
            ..Billing::default()
        };
        assert_eq!(
            opus55.cost_nanousd(&msg, searches),
            Some(9_244_000 + 30_000_000)
        );
        // A fast request of a model with no fast price is unpriced; US-only
        // without a table multiplier takes Claude Code's 1.1.
        let plain_model = price([4_000_000, 20_000_000, 200_000, 5_000_000, 8_000_000], None);
        assert_eq!(plain_model.cost_nanousd(&msg, fast), None);
        assert_eq!(plain_model.cost_nanousd(&msg, us), Some(10_168_400));
    }

    #[test]
    fn money_formats() {
        assert_eq!(usd(27_000_000), 0.027);
        assert_eq!(usd(1_234_567_890), 1.234568);
        assert_eq!(cents(1_234_567_890), "$1.23");
        assert_eq!(cents(5_000_000), "$0.01");
        assert_eq!(cents(4_999_999), "$0.00");
    }
}
