#!/usr/bin/env python3
"""Prints the price-table rows (src/pricing/models.tsv columns, tab-separated,
no header) of Google's Gemini models from a LiteLLM price map.

Usage: scripts/gemini_prices.py LITELLM_JSON >> src/pricing/models.tsv

Rows: chat models of the `gemini` provider (the `gemini/` prefix taken off),
then of `vertex_ai-language-models` for names the first does not have.
Prices are LiteLLM's per-token numbers as dollars per million tokens,
converted exactly (decimal, not float). Gemini bills the model's thoughts
as output, and sessionkit counts them as output, so no separate rate is
taken. The `_above_200k_tokens` fields become the long-context tier.
"""
import json
import sys
from decimal import Decimal

COLUMNS = [
    "model", "provider", "input_per_mtok", "output_per_mtok", "cache_read_per_mtok",
    "cache_write_5m_per_mtok", "cache_write_1h_per_mtok", "input_above_200k_per_mtok",
    "output_above_200k_per_mtok", "cache_read_above_200k_per_mtok",
    "cache_write_above_200k_per_mtok", "max_input_tokens", "cache_write_1h_above_200k_per_mtok",
    "alt_tier_threshold_tokens", "input_above_alt_per_mtok", "output_above_alt_per_mtok",
    "cache_read_above_alt_per_mtok", "cache_write_above_alt_per_mtok",
    "cache_write_1h_above_alt_per_mtok", "fast_multiplier", "us_only_multiplier",
    "deprecation_date", "litellm_key", "source",
]

FIELDS = {
    "input_per_mtok": "input_cost_per_token",
    "output_per_mtok": "output_cost_per_token",
    "cache_read_per_mtok": "cache_read_input_token_cost",
    "input_above_200k_per_mtok": "input_cost_per_token_above_200k_tokens",
    "output_above_200k_per_mtok": "output_cost_per_token_above_200k_tokens",
    "cache_read_above_200k_per_mtok": "cache_read_input_token_cost_above_200k_tokens",
}


def per_mtok(v):
    d = Decimal(repr(v)) * 1_000_000
    s = format(d.normalize(), "f")
    return s


def main(path):
    prices = json.load(open(path))
    rows = {}
    for provider in ("gemini", "vertex_ai-language-models"):
        for key in sorted(prices):
            v = prices[key]
            if not isinstance(v, dict) or v.get("litellm_provider") != provider:
                continue
            if v.get("mode") != "chat" or "input_cost_per_token" not in v or "output_cost_per_token" not in v:
                continue
            name = key.split("/", 1)[1] if key.startswith("gemini/") else key
            if not name.startswith("gemini-") or name in rows:
                continue
            if v["input_cost_per_token"] == 0 and v["output_cost_per_token"] == 0:
                continue  # a free experiment is no price: left unpriced, and said so
            row = {c: "" for c in COLUMNS}
            row.update(model=name, provider=provider, litellm_key=key, source="current")
            for col, field in FIELDS.items():
                if field in v:
                    row[col] = per_mtok(v[field])
            if "max_input_tokens" in v:
                row["max_input_tokens"] = str(v["max_input_tokens"])
            if v.get("deprecation_date"):
                row["deprecation_date"] = v["deprecation_date"]
            rows[name] = row
    for name in sorted(rows):
        print("\t".join(rows[name][c] for c in COLUMNS))


if __name__ == "__main__":
    main(sys.argv[1])
