//! The price table: parsing `models.tsv` and matching transcript model ids.

use std::collections::BTreeMap;

use anyhow::{Context, Result};

use super::{Price, Rates, SYNTHETIC, Tier, parse_rate};

/// The embedded default table (see `mod.rs` for its source).
const EMBEDDED: &str = include_str!("models.tsv");

/// Prices by model id.
#[derive(Debug, Clone, Default)]
pub struct PriceTable {
    pub prices: BTreeMap<String, Price>,
}

/// Parses the `models.tsv` format (header names select the columns).
pub fn parse_tsv(text: &str) -> Result<Vec<Price>> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines
        .next()
        .context("empty price table")?
        .split('\t')
        .collect();
    for name in ["model", "input_per_mtok", "output_per_mtok"] {
        anyhow::ensure!(header.contains(&name), "price table has no {name} column");
    }
    let mut out = Vec::new();
    for (n, line) in lines.enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let row = Row {
            header: &header,
            cells: line.split('\t').collect(),
            line: n + 2,
        };
        out.extend(row.price()?);
    }
    Ok(out)
}

/// One line of the price table, read by column name.
struct Row<'a> {
    header: &'a [&'a str],
    cells: Vec<&'a str>,
    /// Its line number in the file.
    line: usize,
}

impl Row<'_> {
    fn cell(&self, name: &str) -> Option<&str> {
        let i = self.header.iter().position(|h| *h == name)?;
        self.cells
            .get(i)
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
    }

    fn rate(&self, name: &str) -> Result<Option<i64>> {
        match self.cell(name) {
            None => Ok(None),
            Some(v) => parse_rate(v)
                .map(Some)
                .with_context(|| format!("line {}: {name} {v:?} is not a price", self.line)),
        }
    }

    /// The row's price; `None` for a row without both base rates (it
    /// cannot price anything).
    fn price(&self) -> Result<Option<Price>> {
        let name = self
            .cell("model")
            .with_context(|| format!("line {}: no model", self.line))?;
        let (Some(i), Some(o)) = (self.rate("input_per_mtok")?, self.rate("output_per_mtok")?)
        else {
            return Ok(None);
        };
        // LiteLLM's fallbacks (pricing/README.md): a missing cache rate is
        // billed at the input rate; a missing 1h write at the 5m write rate.
        let w5 = self.rate("cache_write_5m_per_mtok")?.unwrap_or(i);
        let base = Rates {
            input: i,
            output: o,
            cache_read: self.rate("cache_read_per_mtok")?.unwrap_or(i),
            cache_write_5m: w5,
            cache_write_1h: self.rate("cache_write_1h_per_mtok")?.unwrap_or(w5),
        };
        let mut tiers = Vec::new();
        tiers.extend(self.tier(200_000, "200k", "cache_write_1h_above_200k_per_mtok", &base)?);
        if let Some(th) = self.cell("alt_tier_threshold_tokens") {
            let th: u64 = th
                .parse()
                .with_context(|| format!("line {}: bad threshold {th:?}", self.line))?;
            tiers.extend(self.tier(th, "alt", "cache_write_1h_above_alt_per_mtok", &base)?);
        }
        tiers.extend(self.more_tiers(&base)?);
        tiers.sort_by_key(|t| t.threshold);
        Ok(Some(Price {
            model: name.to_string(),
            base,
            tiers,
            fast_multiplier: self.rate("fast_multiplier")?,
            us_multiplier: self.rate("us_only_multiplier")?,
        }))
    }

    /// A premium tier from its columns (`input_above_{sfx}_per_mtok`, ...):
    /// a missing premium field falls back to the base rate; `None` when the
    /// row has none of them.
    fn tier(&self, threshold: u64, sfx: &str, w1_col: &str, base: &Rates) -> Result<Option<Tier>> {
        let ti = self.rate(&format!("input_above_{sfx}_per_mtok"))?;
        let to = self.rate(&format!("output_above_{sfx}_per_mtok"))?;
        let tcr = self.rate(&format!("cache_read_above_{sfx}_per_mtok"))?;
        let tw5 = self.rate(&format!("cache_write_above_{sfx}_per_mtok"))?;
        let tw1 = self.rate(w1_col)?;
        if [ti, to, tcr, tw5, tw1].iter().all(Option::is_none) {
            return Ok(None);
        }
        Ok(Some(Tier {
            threshold,
            rates: Rates {
                input: ti.unwrap_or(base.input),
                output: to.unwrap_or(base.output),
                cache_read: tcr.unwrap_or(base.cache_read),
                cache_write_5m: tw5.unwrap_or(base.cache_write_5m),
                cache_write_1h: tw1.unwrap_or(base.cache_write_1h),
            },
        }))
    }

    /// More tiers by prompt size, from the `tiers` column:
    /// `threshold:input/output[/cache_read]`, `;`-separated (a rate left out
    /// is the base's).
    fn more_tiers(&self, base: &Rates) -> Result<Vec<Tier>> {
        let mut out = Vec::new();
        let Some(more) = self.cell("tiers") else {
            return Ok(out);
        };
        for t in more.split(';').filter(|t| !t.is_empty()) {
            let bad = || {
                format!(
                    "line {}: tier {t:?} is not threshold:input/output[/cache_read]",
                    self.line
                )
            };
            let (th, rates) = t.split_once(':').with_context(bad)?;
            let th: u64 = th.parse().with_context(bad)?;
            let r: Vec<i64> = rates
                .split('/')
                .map(parse_rate)
                .collect::<Option<_>>()
                .with_context(bad)?;
            anyhow::ensure!((2..=3).contains(&r.len()), bad());
            out.push(Tier {
                threshold: th,
                rates: Rates {
                    input: r[0],
                    output: r[1],
                    cache_read: r.get(2).copied().unwrap_or(r[0]),
                    cache_write_5m: base.cache_write_5m,
                    cache_write_1h: base.cache_write_1h,
                },
            });
        }
        Ok(out)
    }
}

fn is_date(s: &str) -> bool {
    s.len() == 8 && s.bytes().all(|b| b.is_ascii_digit())
}

/// Strips provider prefixes and decorations: `anthropic/`, `bedrock/...`,
/// region prefixes (`us.`, `eu.`, ...), `anthropic.`, `@date`, `-v1:0`.
pub fn normalize(model: &str) -> String {
    let mut m = model.trim();
    if let Some(i) = m.rfind('/') {
        m = &m[i + 1..];
    }
    for region in ["us.", "eu.", "apac.", "global.", "jp.", "au.", "ca."] {
        if let Some(rest) = m.strip_prefix(region) {
            m = rest;
        }
    }
    m = m.strip_prefix("anthropic.").unwrap_or(m);
    if let Some((head, tail)) = m.split_once('@')
        && (is_date(tail) || tail == "latest")
    {
        m = head;
    }
    let m = m.strip_suffix(":0").map_or(m, |x| {
        x.strip_suffix("-v1").or(x.strip_suffix("-v2")).unwrap_or(x)
    });
    m.to_string()
}

impl PriceTable {
    /// The embedded default table.
    pub fn embedded() -> PriceTable {
        let prices = parse_tsv(EMBEDDED).unwrap_or_default();
        PriceTable {
            prices: prices.into_iter().map(|p| (p.model.clone(), p)).collect(),
        }
    }

    /// The price of a transcript's model id: exact, then without provider
    /// decorations, then date-aware (`claude-sonnet-4` is
    /// `claude-sonnet-4-20250514`, never `claude-sonnet-4-5`; a dated id
    /// whose date the table lacks takes the undated row). `None`: unpriced.
    pub fn lookup(&self, model: &str) -> Option<&Price> {
        if let Some(p) = self.prices.get(model) {
            return Some(p);
        }
        let m = normalize(model);
        if let Some(p) = self.prices.get(&m) {
            return Some(p);
        }
        if let Some((base, date)) = m.rsplit_once('-')
            && is_date(date)
            && let Some(p) = self.prices.get(base)
        {
            return Some(p);
        }
        let prefix = format!("{m}-");
        self.prices
            .range(prefix.clone()..)
            .take_while(|(k, _)| k.starts_with(&prefix))
            .filter(|(k, _)| is_date(&k[prefix.len()..]))
            .map(|(_, p)| p)
            .last()
    }

    /// The cost of a counted message in nano-dollars; `None` when its
    /// model has no price. `<synthetic>`
    /// costs 0.
    pub fn message_cost(
        &self,
        model: &str,
        b: &crate::domain::transcript::Buckets,
        billing: crate::domain::transcript::Billing,
    ) -> Option<i64> {
        if PriceTable::is_free(model) {
            return Some(0);
        }
        self.lookup(model).and_then(|p| p.cost_nanousd(b, billing))
    }

    /// Whether a model is known to cost nothing (`<synthetic>`).
    pub fn is_free(model: &str) -> bool {
        model == SYNTHETIC
    }

    /// Adds or replaces rows. A row that names no fast or US-only
    /// multiplier (a price set by hand, or imported) keeps the one the row
    /// it replaces had.
    pub fn extend(&mut self, prices: Vec<Price>) {
        for mut p in prices {
            if let Some(old) = self.prices.get(&p.model) {
                p.fast_multiplier = p.fast_multiplier.or(old.fast_multiplier);
                p.us_multiplier = p.us_multiplier.or(old.us_multiplier);
            }
            self.prices.insert(p.model.clone(), p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::transcript::Buckets;

    #[test]
    fn embedded_table_parses_every_row() {
        let t = PriceTable::embedded();
        let rows = EMBEDDED.lines().skip(1).filter(|l| !l.is_empty()).count();
        assert_eq!(t.prices.len(), rows, "one row per line of models.tsv");
        assert!(rows > 300, "{rows}");
        // The alias of Claude 3.5 Haiku at its own rates, cache included
        // (LiteLLM's row had no cache prices: cache reads went at the input rate).
        let h = &t.prices["claude-3-5-haiku"];
        assert_eq!(
            (
                h.base.input,
                h.base.cache_read,
                h.base.cache_write_5m,
                h.base.cache_write_1h
            ),
            (800_000, 80_000, 1_000_000, 1_600_000)
        );
        // Priced by prompt size in tiers (DashScope's Qwen3 Coder Plus).
        let q = &t.prices["qwen3-coder-plus"];
        assert_eq!(
            (q.base.input, q.base.output, q.base.cache_read),
            (1_000_000, 5_000_000, 100_000)
        );
        let tiers: Vec<(u64, i64, i64, i64)> = q
            .tiers
            .iter()
            .map(|t| {
                (
                    t.threshold,
                    t.rates.input,
                    t.rates.output,
                    t.rates.cache_read,
                )
            })
            .collect();
        assert_eq!(
            tiers,
            [
                (32_000, 1_800_000, 9_000_000, 180_000),
                (128_000, 3_000_000, 15_000_000, 300_000),
                (256_000, 6_000_000, 60_000_000, 600_000)
            ]
        );
        assert!(
            parse_tsv("model\tinput_per_mtok\toutput_per_mtok\ttiers\nm\t1\t2\t10:x\n").is_err()
        );
        // Models of the other agents' providers.
        for m in [
            "deepseek-chat",
            "grok-4.20",
            "kimi-k2.5",
            "glm-4.6",
            "mistral-large-latest",
        ] {
            assert!(t.lookup(m).is_some(), "{m}");
        }
        // Gemini's long-context tier: the whole request above 200,000.
        let g = &t.prices["gemini-2.5-pro"];
        assert_eq!(
            (g.base.input, g.base.output, g.base.cache_read),
            (1_250_000, 10_000_000, 125_000)
        );
        assert_eq!(
            (
                g.tiers[0].threshold,
                g.tiers[0].rates.input,
                g.tiers[0].rates.cache_read
            ),
            (200_000, 2_500_000, 250_000)
        );
        let s = &t.prices["claude-sonnet-4-20250514"];
        assert_eq!(s.base.input, 3_000_000);
        assert_eq!(s.base.cache_write_1h, 6_000_000);
        assert_eq!(s.tiers.len(), 1);
        assert_eq!(
            (s.tiers[0].threshold, s.tiers[0].rates.output),
            (200_000, 22_500_000)
        );
        let gpt = &t.prices["gpt-5"];
        assert_eq!(
            gpt.base.cache_write_5m, gpt.base.input,
            "no cache-write rate: input rate"
        );
        let h = &t.prices["claude-haiku-5-5"];
        assert_eq!(
            (h.tiers[0].threshold, h.tiers[0].rates.input),
            (100_000, 500_000)
        );
    }

    #[test]
    fn model_ids_match_as_documented() {
        let t = PriceTable::embedded();
        let id = |m: &str| t.lookup(m).map(|p| p.model.as_str());
        assert_eq!(
            id("claude-sonnet-4-20250514"),
            Some("claude-sonnet-4-20250514")
        );
        assert_eq!(
            id("anthropic/claude-sonnet-4-20250514"),
            Some("claude-sonnet-4-20250514")
        );
        assert_eq!(
            id("us.anthropic.claude-sonnet-4-20250514-v1:0"),
            Some("claude-sonnet-4-20250514")
        );
        assert_eq!(
            id("claude-sonnet-4-5@20250929"),
            t.lookup("claude-sonnet-4-5").map(|p| p.model.as_str())
        );
        // Date-aware: `claude-3-7-sonnet` has only dated rows; the latest wins,
        // and `claude-sonnet-4` never takes `claude-sonnet-4-5`'s price.
        assert_eq!(id("claude-3-7-sonnet"), Some("claude-3-7-sonnet-20250219"));
        assert_eq!(id("claude-sonnet-4"), Some("claude-sonnet-4"));
        assert_ne!(id("claude-sonnet-4"), id("claude-sonnet-4-5"));
        // A dated id the table lacks takes its undated row.
        assert_eq!(id("claude-haiku-4-5-20990101"), Some("claude-haiku-4-5"));
        assert_eq!(id("claude-made-up-9"), None);
        assert!(PriceTable::is_free("<synthetic>"));
    }

    #[test]
    fn gen_corpus_pinned_prices_cost_exactly() {
        // The synthetic corpus generator prices sonnet 4.5 at = 3 / 15 / 3.75 / 6 / 0.30.
        let t = PriceTable::embedded();
        let p = t.lookup("claude-sonnet-4-5-20250929").unwrap();
        let b = Buckets {
            input: 10,
            output: 100,
            cache_write_5m: 1000,
            cache_write_1h: 500,
            cache_read: 20_000,
            reasoning: 0,
        };
        // 10×3 + 100×15 + 1000×3.75 + 500×6 + 20000×0.3 = 14,280 → $0.01428
        assert_eq!(p.cost_nanousd(&b, Default::default()), Some(14_280_000));
    }
}
