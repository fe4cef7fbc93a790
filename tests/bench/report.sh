#!/usr/bin/env bash
# `sessionkit report` on the 1 GiB bench corpus's database (target: <= 1 s)
# and on a year of heavy use (target: the file <= 2 MB): time and size,
# median of 5, beside process start-up measured in the same run.
#
#   tests/bench/report.sh
#   BENCH_DIR=/tmp/b tests/bench/report.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
ROOT=$PWD
GEN=${GEN:-$ROOT/../shared/bench/gen_corpus.py}
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$ROOT/target/release/sessionkit

big=$(bench_corpus)
year=$BENCH_DIR/corpus_year
if [ ! -f "$year/expected_totals.json" ]; then
  rm -rf "$year"
  # 1,200 sessions from a year back: a heavy user's year.
  python3 "$GEN" --out "$year" --sessions 1200 --mib-per-session 0.25 --seed 7 \
    --start "$(date -u -d '365 days ago' +%F)" >/dev/null
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for name in big year; do
  corpus=$big; [ "$name" = year ] && corpus=$year
  db=$BENCH_DIR/report-$name.db
  [ -f "$db" ] || "$SK" --db "$db" ingest --root "$corpus/projects" --quiet >/dev/null
  for i in 1 2 3 4 5; do
    timed "$out/floor" "$SK" --version
    timed "$out/$name" "$SK" --db "$db" report --out "$out/$name.html"
  done
  sessions=$("$SK" --db "$db" sessions --format jsonl | wc -l)
  printf '  %-44s p50 %8s ms  file %6s KiB  (%s sessions)\n' "report, $name ($(du -sh "$corpus/projects" | cut -f1))" \
    "$(pct "$out/$name" 50)" "$(( $(stat -c %s "$out/$name.html") / 1024 ))" "$sessions"
done
printf '  %-44s p50 %8s ms\n' "process start (--version)" "$(pct "$out/floor" 50)"
