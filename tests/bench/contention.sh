#!/usr/bin/env bash
# `hook event` latency while another process writes: beside a
# 100,000-memory `import` and beside a bulk `ingest` of the 40-session
# corpus, against the same hook on an idle database measured in the same
# run. Hooks fire one after another for as long as the writer runs; the
# table gives p50/p99/max and how many took the spool (the budget is 2 s).
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
corpus=$BENCH_DIR/corpus_1g/projects
if [ ! -d "$corpus" ]; then
  python3 ../shared/bench/gen_corpus.py --out "$BENCH_DIR/corpus_1g" --sessions 40 --mib-per-session 26 --seed 1 >/dev/null
fi
memories=$BENCH_DIR/import100k.jsonl
if [ ! -f "$memories" ]; then
  python3 - "$memories" <<'PY'
import json, sys
with open(sys.argv[1], "w") as f:
    for i in range(100_000):
        f.write(json.dumps({"type": "memory", "memory_id": "01b00000-0000-7000-8000-%012d" % i, "kind": "note",
            "topic": "t %d" % i, "description": None, "content": "content number %d lorem ipsum %d" % (i, i * 7919),
            "project": "big", "scope": "project", "tags": [], "status": "active", "pinned": False, "redacted": False,
            "supersedes": None, "valid_from": "2026-01-01T00:00:00.000Z", "valid_to": None,
            "created_at": "2026-01-01T00:00:00.000Z", "updated_at": "2026-01-01T00:00:00.000Z"}) + "\n")
PY
fi

# hooks_beside DB OUT SPOOLED CMD...: starts CMD, fires hooks at DB until it
# ends; latencies (us) to OUT, spooled hooks counted in SPOOLED.
hooks_beside() {
  local db=$1 out=$2 spooled=$3; shift 3
  : >"$out"; : >"$spooled"
  "$@" >/dev/null 2>&1 &
  local pid=$! n=0 a b err
  while kill -0 "$pid" 2>/dev/null; do
    a=${EPOCHREALTIME/./}
    err=$(printf '{"session_id":"s%d","hook_event_name":"Stop"}' "$n" | "$SK" --db "$db" hook event 2>&1 >/dev/null || true)
    b=${EPOCHREALTIME/./}
    echo $(( b - a )) >>"$out"
    case "$err" in *spool*) echo x >>"$spooled" ;; esac
    n=$((n + 1))
  done
  wait "$pid"
}
idle=$BENCH_DIR/contention-idle.db; rm -f "$idle"*
: >"$BENCH_DIR/idle.txt"
for n in $(seq 1 200); do
  timed "$BENCH_DIR/idle.txt" sh -c "printf '{\"session_id\":\"s$n\",\"hook_event_name\":\"Stop\"}' | '$SK' --db '$idle' hook event"
done
imp=$BENCH_DIR/contention-import.db; rm -f "$imp"*
"$SK" --db "$imp" config list >/dev/null
hooks_beside "$imp" "$BENCH_DIR/beside-import.txt" "$BENCH_DIR/spooled-import.txt" "$SK" --db "$imp" import "$memories" --quiet
ing=$BENCH_DIR/contention-ingest.db; rm -f "$ing"*
"$SK" --db "$ing" config list >/dev/null
hooks_beside "$ing" "$BENCH_DIR/beside-ingest.txt" "$BENCH_DIR/spooled-ingest.txt" "$SK" --db "$ing" ingest --root "$corpus" --quiet
row() { echo "| $1 | $(wc -l <"$2") | $(pct "$2" 50) | $(pct "$2" 99) | $(pct "$2" 100) | $3 |"; }
echo "| hook event | calls | p50 ms | p99 ms | max ms | spooled |"
echo "|---|---|---|---|---|---|"
row "baseline: idle database" "$BENCH_DIR/idle.txt" 0
row "beside a 100,000-memory import" "$BENCH_DIR/beside-import.txt" "$(wc -l <"$BENCH_DIR/spooled-import.txt")"
row "beside a bulk ingest (40 sessions, ~1 GB)" "$BENCH_DIR/beside-ingest.txt" "$(wc -l <"$BENCH_DIR/spooled-ingest.txt")"
base=$(pct "$BENCH_DIR/idle.txt" 99)
for w in import ingest; do
  echo "p99 beside $w / idle p99: $(awk -v a="$(pct "$BENCH_DIR/beside-$w.txt" 99)" -v b="$base" 'BEGIN {printf "%.2f", a/b}')x"
done
