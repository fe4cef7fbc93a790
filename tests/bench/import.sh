#!/usr/bin/env bash
# `import` speed: N memories (default 100,000) with one event each, from the
# memory generator's export, into a fresh database, ROUNDS times (default 3).
# Target: at least 20,000 memories a second, memory bounded by the record
# count (ids), not the text. Baseline in the
# same run: importing the same file a second time, where every record is
# already present (the file read, redacted and checked, nothing written).
set -euo pipefail
cd "$(dirname "$0")/../.."
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
N=${N:-100000}
ROUNDS=${ROUNDS:-3}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
file=$BENCH_DIR/mem$N.jsonl
[ -f "$file" ] || python3 tests/bench/memgen.py "$N" "$file"
db=$BENCH_DIR/import-work.db
run() {  # run LABEL ARGS...: prints "LABEL seconds peak-KiB"
  local label=$1; shift
  /usr/bin/time -f "$label %e %M" "$@" >/dev/null 2>"$BENCH_DIR/import-time.txt" ||
    { cat "$BENCH_DIR/import-time.txt" >&2; exit 1; }
  tail -n 1 "$BENCH_DIR/import-time.txt"
}
for r in $(seq 1 "$ROUNDS"); do
  rm -f "$db"*
  sync
  run import "$SK" --db "$db" import "$file" --quiet --format jsonl
  run again "$SK" --db "$db" import "$file" --quiet --format jsonl
done | awk -v n="$N" -v size="$(stat -c %s "$file")" '
  { s[$1] += $2; if ($3 > m[$1]) m[$1] = $3; c[$1]++ }
  END {
    imp = s["import"] / c["import"]; again = s["again"] / c["again"]
    printf "import of %d memories (a %d MiB file): %.2f s mean of %d (%.0f memories/s), peak %d MiB\n", n, size / 1048576, imp, c["import"], n / imp, m["import"] / 1024
    printf "again (all present): %.2f s, peak %d MiB\n", again, m["again"] / 1024
    printf "import / again: %.2fx\n", imp / again
  }'
