#!/usr/bin/env python3
"""Generates sessionkit's embedded price table (src/domain/pricing/models.tsv) from
a pinned LiteLLM price map, an older one that fills its gaps, and
sessionkit's own corrections (src/domain/pricing/overrides.tsv).

Usage: scripts/prices.py CURRENT_JSON LEGACY_JSON OVERRIDES_TSV > src/domain/pricing/models.tsv

LiteLLM (MIT, notice in src/domain/pricing/LITELLM-LICENSE): 1.110.2 is the current
map, 1.80.17 the legacy one. Prices are LiteLLM's per-token numbers as
dollars per million tokens, converted exactly (decimal, not float). An empty
cell is a price LiteLLM does not give (never zero).

Rows, one per model name, in name order:
- Claude: keys naming a claude model of the anthropic, vertex_ai-anthropic_models,
  bedrock, bedrock_converse or azure_ai providers. The name is the key less
  its provider path, region prefix (us., eu., ...), `anthropic.`,
  `@latest` and `-v1:0`, `@date` as `-date`; of several keys for one name, the first in
  this order: the plain anthropic key (current, then legacy), vertex,
  bedrock (a regional key last: those cost about 10% more), azure.
  Anthropic's rates for the same model on every platform follow one rule,
  which fills what a row lacks and corrects what LiteLLM gets wrong: cache
  reads at 0.1 times input, 5-minute cache writes at 1.25 times, 1-hour
  writes at 2 times (LiteLLM's legacy rows say 6 for every model).
- OpenAI: plain openai keys of gpt-5*, codex-*, o3*, o4-mini*, gpt-4.1* and
  gpt-4o* chat or responses models, without audio, realtime, speech or
  image ones.
- Gemini: chat models of the gemini provider, then vertex_ai-language-models.
- Others agents run: chat models of deepseek, xai, mistral, moonshot, zai
  and dashscope. A model priced in tiers by prompt size (`tiered_pricing`)
  has its first tier as its rates and the rest in the `tiers` column.
A model whose input and output are both free in LiteLLM is left unpriced.
Then each override replaces one cell (the file says why for each).
"""
import csv
import json
import re
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
    "deprecation_date", "litellm_key", "source", "tiers",
]

FIELDS = {
    "input_per_mtok": "input_cost_per_token",
    "output_per_mtok": "output_cost_per_token",
    "cache_read_per_mtok": "cache_read_input_token_cost",
    "cache_write_5m_per_mtok": "cache_creation_input_token_cost",
    "cache_write_1h_per_mtok": "cache_creation_input_token_cost_above_1hr",
    "input_above_200k_per_mtok": "input_cost_per_token_above_200k_tokens",
    "output_above_200k_per_mtok": "output_cost_per_token_above_200k_tokens",
    "cache_read_above_200k_per_mtok": "cache_read_input_token_cost_above_200k_tokens",
    "cache_write_above_200k_per_mtok": "cache_creation_input_token_cost_above_200k_tokens",
    "cache_write_1h_above_200k_per_mtok": "cache_creation_input_token_cost_above_1hr_above_200k_tokens",
}

# The other long-context tiers LiteLLM names, as the table's one alt tier.
ALT_TIERS = ("100k", "272k")
ALT_FIELDS = {
    "input_above_alt_per_mtok": "input_cost_per_token_above_{}_tokens",
    "output_above_alt_per_mtok": "output_cost_per_token_above_{}_tokens",
    "cache_read_above_alt_per_mtok": "cache_read_input_token_cost_above_{}_tokens",
    "cache_write_above_alt_per_mtok": "cache_creation_input_token_cost_above_{}_tokens",
    "cache_write_1h_above_alt_per_mtok": "cache_creation_input_token_cost_above_1hr_above_{}_tokens",
}

CLAUDE_PROVIDERS = ["anthropic", "vertex_ai-anthropic_models", "bedrock", "bedrock_converse", "azure_ai"]
OPENAI_PREFIXES = ("gpt-5", "codex-", "o3", "o4-mini", "gpt-4.1", "gpt-4o")
OPENAI_EXCLUDED = ("audio", "realtime", "tts", "transcribe", "image")
OTHER_PROVIDERS = ["deepseek", "xai", "mistral", "moonshot", "zai", "dashscope"]
REGIONS = ("us.", "eu.", "apac.", "global.", "jp.", "au.", "ca.")
DATE = re.compile(r"^\d{8}$")


def per_mtok(v):
    return format((Decimal(repr(v)) * 1_000_000).normalize(), "f")


def times(value, factor):
    return format((Decimal(value) * Decimal(factor)).normalize(), "f")


def claude_name(key):
    m = key.rsplit("/", 1)[-1]
    regional = False
    for r in REGIONS:
        if m.startswith(r):
            m, regional = m[len(r):], True
    m = m.removeprefix("anthropic.")
    if "@" in m:
        head, tail = m.split("@", 1)
        if DATE.match(tail):
            m = f"{head}-{tail}"
        elif tail == "latest":
            m = head
    if m.endswith(":0"):
        m = m[:-2]
        for v in ("-v1", "-v2"):
            m = m.removesuffix(v)
    return m, regional


def flat(v):
    """A map entry with its tiered prices (`tiered_pricing`, by prompt
    size) as flat ones: the first tier's rates as the base."""
    tiers = v.get("tiered_pricing")
    if "input_cost_per_token" in v or not tiers:
        return v
    first = next((t for t in tiers if t.get("range", [None])[0] == 0), None)
    if first is None:
        return v
    v = dict(v)
    for k in ("input_cost_per_token", "output_cost_per_token", "cache_read_input_token_cost"):
        if k in first:
            v[k] = first[k]
    return v


def is_chat(v, modes=("chat",)):
    if not isinstance(v, dict):
        return False
    v = flat(v)
    return (
        v.get("mode") in modes
        and "input_cost_per_token" in v
        and "output_cost_per_token" in v
        and not v.get("alias_of")
        and not (v["input_cost_per_token"] == 0 and v["output_cost_per_token"] == 0)
    )


def tiers_of(v):
    """The tiers past the first of a tiered entry, as the table writes them:
    `threshold:input/output/cache_read` separated by `;` (a request whose
    prompt is over the threshold is billed at those rates, all of it)."""
    out = []
    for t in sorted(v.get("tiered_pricing") or [], key=lambda t: t.get("range", [0])[0]):
        start = int(t.get("range", [0])[0])
        if start == 0 or "input_cost_per_token" not in t or "output_cost_per_token" not in t:
            continue
        rates = [per_mtok(t["input_cost_per_token"]), per_mtok(t["output_cost_per_token"])]
        if "cache_read_input_token_cost" in t:
            rates.append(per_mtok(t["cache_read_input_token_cost"]))
        out.append(f"{start}:{'/'.join(rates)}")
    return ";".join(out)


def row_of(name, key, v, source):
    tiers = tiers_of(v) if "input_cost_per_token" not in v else ""
    v = flat(v)
    row = {c: "" for c in COLUMNS}
    row["tiers"] = tiers
    row.update(model=name, provider=v.get("litellm_provider", ""), litellm_key=key, source=source)
    for col, field in FIELDS.items():
        if v.get(field) is not None:
            row[col] = per_mtok(v[field])
    for tier in ALT_TIERS:
        if f"input_cost_per_token_above_{tier}_tokens" in v:
            row["alt_tier_threshold_tokens"] = str(int(tier[:-1]) * 1000)
            for col, field in ALT_FIELDS.items():
                if v.get(field.format(tier)) is not None:
                    row[col] = per_mtok(v[field.format(tier)])
            break
    if v.get("max_input_tokens"):
        row["max_input_tokens"] = str(v["max_input_tokens"])
    extra = v.get("provider_specific_entry") or {}
    if extra.get("fast"):
        row["fast_multiplier"] = format(Decimal(repr(extra["fast"])).normalize(), "f")
    if extra.get("us"):
        row["us_only_multiplier"] = format(Decimal(repr(extra["us"])).normalize(), "f")
    if v.get("deprecation_date"):
        row["deprecation_date"] = v["deprecation_date"]
    return row


def claude_rows(maps):
    best = {}
    for source, prices in maps:
        for key, v in prices.items():
            if "claude" not in key or not is_chat(v):
                continue
            provider = v.get("litellm_provider")
            if provider not in CLAUDE_PROVIDERS:
                continue
            name, regional = claude_name(key)
            if not name.startswith("claude-"):
                continue
            plain = provider == "anthropic" and "/" not in key
            if plain:
                rank = (0, 0 if source == "current" else 1, 0, key)
            else:
                rank = (1, CLAUDE_PROVIDERS.index(provider), int(regional), 0 if source == "current" else 1, key)
            if name not in best or rank < best[name][0]:
                best[name] = (rank, row_of(name, key, v, source))
    rows = {}
    for name, (_, row) in best.items():
        # Anthropic's rule for cache prices, on every platform.
        base = row["input_per_mtok"]
        if not row["cache_read_per_mtok"]:
            row["cache_read_per_mtok"] = times(base, "0.1")
        if not row["cache_write_5m_per_mtok"]:
            row["cache_write_5m_per_mtok"] = times(base, "1.25")
        row["cache_write_1h_per_mtok"] = times(base, "2")
        if row["input_above_200k_per_mtok"]:
            row["cache_write_1h_above_200k_per_mtok"] = times(row["input_above_200k_per_mtok"], "2")
        if row["input_above_alt_per_mtok"]:
            row["cache_write_1h_above_alt_per_mtok"] = times(row["input_above_alt_per_mtok"], "2")
        rows[name] = row
    return rows


def openai_rows(maps, taken):
    rows = {}
    for source, prices in maps:
        for key in sorted(prices):
            v = prices[key]
            if "/" in key or key in rows or key in taken:
                continue
            if not is_chat(v, ("chat", "responses")) or v.get("litellm_provider") != "openai":
                continue
            if not key.startswith(OPENAI_PREFIXES) or any(x in key for x in OPENAI_EXCLUDED):
                continue
            rows[key] = row_of(key, key, v, source)
    return rows


def prefixed_rows(prices, providers, taken, source, keep=lambda name: True):
    rows = {}
    for provider in providers:
        for key in sorted(prices):
            v = prices[key]
            if not is_chat(v) or v.get("litellm_provider") != provider:
                continue
            name = key.split("/", 1)[1] if key.startswith(provider + "/") else key
            if "/" in name or name in rows or name in taken or not keep(name):
                continue
            rows[name] = row_of(name, key, v, source)
    return rows


def main(current_path, legacy_path, overrides_path):
    current = json.load(open(current_path))
    legacy = json.load(open(legacy_path))
    for m in (current, legacy):
        m.pop("sample_spec", None)
    maps = [("current", current), ("legacy-1.80.17", legacy)]
    rows = claude_rows(maps)
    rows.update(openai_rows(maps, rows))
    rows.update(
        prefixed_rows(current, ["gemini", "vertex_ai-language-models"], rows, "current",
                      lambda n: n.startswith("gemini-"))
    )
    rows.update(prefixed_rows(current, OTHER_PROVIDERS, rows, "current"))
    with open(overrides_path, newline="") as f:
        for o in csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t"):
            name = o["model"]
            if name not in rows:
                rows[name] = {c: "" for c in COLUMNS}
                rows[name].update(model=name, provider="sessionkit")
            if o["column"] not in COLUMNS:
                sys.exit(f"overrides: unknown column {o['column']!r}")
            rows[name][o["column"]] = o["value"]
            rows[name]["source"] = rows[name]["source"] + "+override" if rows[name]["source"] else "override"
    print("\t".join(COLUMNS))
    for name in sorted(rows):
        print("\t".join(rows[name][c] for c in COLUMNS))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
