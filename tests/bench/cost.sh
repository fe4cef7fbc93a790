#!/usr/bin/env bash
# `sessionkit cost` answered from the database, next to ccusage re-reading the
# corpus for the same question (<= 50 ms, ratio <= 0.02). Uses the
# 1 GiB corpus and database that tests/bench/ingest.sh leaves in BENCH_DIR.
set -euo pipefail
cd "$(dirname "$0")/../.."
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
big=$BENCH_DIR/corpus_1g
[ -d "$big/projects" ] || { echo "run tests/bench/ingest.sh first (it generates $big)"; exit 2; }
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
db=$BENCH_DIR/cost.db
rm -f "$db"*
"$SK" --db "$db" ingest --root "$big/projects" --quiet >/dev/null
ms() { local a b; a=$(date +%s%N); "$@" >/dev/null 2>&1; b=$(date +%s%N); echo $(( (b - a) / 1000 )); }
median() { sort -n | awk '{v[NR]=$1} END {printf "%.1f", v[int((NR+1)/2)]/1000}'; }
day=$(for _ in $(seq 21); do ms "$SK" --db "$db" cost --by day --tz UTC --format json; done | median)
ses=$(for _ in $(seq 21); do ms "$SK" --db "$db" cost --by session --tz UTC --format json; done | median)
cc=""
if [ -n "${CCUSAGE:-}" ]; then
  cc=$(for _ in 1 2 3; do CLAUDE_CONFIG_DIR=$big ms "$CCUSAGE" daily --json --offline; done | median)
fi
echo "| measure (median) | ms |"
echo "|---|---|"
echo "| \`cost --by day\` | $day |"
echo "| \`cost --by session\` | $ses |"
if [ -n "$cc" ]; then
  echo "| \`ccusage daily --json --offline\` over the corpus | $cc |"
  echo "| cost --by day / ccusage daily | $(python3 -c "print(round($day/$cc, 4))") |"
fi

# Daily totals against ccusage (same corpus, UTC days). The generated corpus
# has no long-context request and ccusage bills 1h writes at 2x input, which
# equals the table for these three models, so every row should agree; a row
# that does not is printed with both sides.
if [ -n "${CCUSAGE:-}" ]; then
  TZ=UTC CLAUDE_CONFIG_DIR=$big "$CCUSAGE" daily --json --offline > "$BENCH_DIR/ccusage-daily.json"
  "$SK" --db "$db" cost --by day --tz UTC --format json > "$BENCH_DIR/sessionkit-daily.json"
  python3 - "$BENCH_DIR/ccusage-daily.json" "$BENCH_DIR/sessionkit-daily.json" <<'PY'
import json, sys
cc = {d.get("date", d.get("period")): d for d in json.load(open(sys.argv[1]))["daily"]}
sk = {d["day"]: d for d in json.load(open(sys.argv[2]))}
bad = 0
for day in sorted(set(cc) | set(sk)):
    c, s = cc.get(day), sk.get(day)
    if not c or not s:
        print("day %s only in %s" % (day, "ccusage" if c else "sessionkit")); bad += 1; continue
    ours = (s["input_tokens"], s["output_tokens"], s["cache_write_5m_tokens"] + s["cache_write_1h_tokens"], s["cache_read_tokens"])
    theirs = (c["inputTokens"], c["outputTokens"], c["cacheCreationTokens"], c["cacheReadTokens"])
    cost_ok = abs(c["totalCost"] - (s["cost_usd"] or 0)) < 1e-6
    if ours != theirs or not cost_ok:
        bad += 1
        print("day %s differs: sessionkit %s $%s, ccusage %s $%s" % (day, ours, s["cost_usd"], theirs, c["totalCost"]))
print("| daily rows equal to ccusage | %d of %d |" % (len(sk) - bad, len(sk)))
PY
fi
