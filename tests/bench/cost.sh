#!/usr/bin/env bash
# `sessionkit cost` answered from the database, next to ccusage re-reading the
# corpus for the same question (issue 4: <= 50 ms, ratio <= 0.02). Uses the
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
