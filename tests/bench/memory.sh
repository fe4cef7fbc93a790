#!/usr/bin/env bash
# Memory at size: with 100,000 memories, `remember` <= 10 ms,
# `recall` <= 20 ms, `memories --kind commitment` <= 20 ms. The memories come
# from a generator of realistic text (Zipf-distributed words, 20 projects,
# every kind, 5% commitments) loaded with `sessionkit import`. Baselines in
# the same run: `sessionkit --version` (process start) and the same commands
# on a database of 100 memories.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
N=${N:-100000}
CALLS=${CALLS:-100}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
gen() { python3 tests/bench/memgen.py "$1" "$2"; }  # gen COUNT FILE
big=$BENCH_DIR/mem$N.db
small=$BENCH_DIR/mem100.db
for pair in "$N:$big" "100:$small"; do
  count=${pair%%:*}; db=${pair#*:}
  if [ ! -f "$db" ] || [ "${RESEED:-0}" = 1 ]; then
    rm -f "$db"*
    gen "$count" "$BENCH_DIR/mem$count.jsonl"
    start=$(date +%s%N)
    "$SK" --db "$db" import "$BENCH_DIR/mem$count.jsonl" --quiet --format jsonl >/dev/null
    end=$(date +%s%N)
    echo "imported $count memories in $(( (end - start) / 1000000 )) ms" >&2
  fi
done
rm -f "$BENCH_DIR"/memwork*.db*
cp "$big" "$BENCH_DIR/memwork-big.db"; cp "$small" "$BENCH_DIR/memwork-small.db"
for size in big small; do  # migrate a database an older build made, untimed
  "$SK" --db "$BENCH_DIR/memwork-$size.db" config list >/dev/null
done
sync
words=(kalo mita neru tashi pove drazen borfil gatqu lone mishi rupo veka)
: >"$BENCH_DIR/m-ver.txt"
for f in remember-big remember-small recall-big recall-small; do : >"$BENCH_DIR/m-$f.txt"; done
for n in $(seq 1 "$CALLS"); do
  w1=${words[$((n % 12))]}; w2=${words[$(((n * 7) % 12))]}
  timed "$BENCH_DIR/m-ver.txt" "$SK" --version
  for size in big small; do
    db=$BENCH_DIR/memwork-$size.db
    timed "$BENCH_DIR/m-remember-$size.txt" "$SK" --db "$db" remember --kind finding --topic "bench $n $w1" \
      --content "measured $w1 $w2 against the $n-th sample of the cache, run $RANDOM" --project proj-03
    timed "$BENCH_DIR/m-recall-$size.txt" "$SK" --db "$db" recall "$w1 $w2" --format jsonl
  done
done
median_ms() {
  local f=$BENCH_DIR/m-med.txt; : >"$f"
  for _ in $(seq 1 21); do timed "$f" "$@"; done
  pct "$f" 50
}
list_big=$(median_ms "$SK" --db "$BENCH_DIR/memwork-big.db" memories --kind commitment --format jsonl)
list_small=$(median_ms "$SK" --db "$BENCH_DIR/memwork-small.db" memories --kind commitment --format jsonl)
list_proj=$(median_ms "$SK" --db "$BENCH_DIR/memwork-big.db" memories --kind commitment --project proj-03 --format jsonl)
listed_proj=$("$SK" --db "$BENCH_DIR/memwork-big.db" memories --kind commitment --project proj-03 --format jsonl | wc -l)
listed=$("$SK" --db "$BENCH_DIR/memwork-big.db" memories --kind commitment --format jsonl | wc -l)
echo "| measure ($CALLS calls, interleaved) | $N memories p50 | p99 | 100 memories p50 | p99 |"
echo "|---|---|---|---|---|"
echo "| baseline: \`sessionkit --version\` | $(pct "$BENCH_DIR/m-ver.txt" 50) | $(pct "$BENCH_DIR/m-ver.txt" 99) | | |"
echo "| \`remember\` (target 10 ms) | $(pct "$BENCH_DIR/m-remember-big.txt" 50) | $(pct "$BENCH_DIR/m-remember-big.txt" 99) | $(pct "$BENCH_DIR/m-remember-small.txt" 50) | $(pct "$BENCH_DIR/m-remember-small.txt" 99) |"
echo "| \`recall\` two words (target 20 ms) | $(pct "$BENCH_DIR/m-recall-big.txt" 50) | $(pct "$BENCH_DIR/m-recall-big.txt" 99) | $(pct "$BENCH_DIR/m-recall-small.txt" 50) | $(pct "$BENCH_DIR/m-recall-small.txt" 99) |"
echo "| \`memories --kind commitment\` (median of 21; $listed rows; target 20 ms) | $list_big | | $list_small | |"
echo "| \`memories --kind commitment --project proj-03\` (median of 21; $listed_proj rows) | $list_proj | | | |"
