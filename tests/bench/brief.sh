#!/usr/bin/env bash
# The briefing: `brief` <= 20 ms and `hook session-start` p99 <= 30 ms
# end to end on a database with 100,000 memories (20 projects of 5,000),
# 10,000 runs and 1,000,000 memory events. Reuses the memories of
# tests/bench/memory.sh (run it first, or this script runs it). Baseline in
# the same run: `sessionkit --version` (process start).
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
CALLS=${CALLS:-100}
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
[ -f "$BENCH_DIR/mem100000.db" ] || CALLS=1 tests/bench/memory.sh >/dev/null
db=$BENCH_DIR/brief.db
if [ ! -f "$db" ] || [ "${RESEED:-0}" = 1 ]; then
  rm -f "$db"*
  cp "$BENCH_DIR/mem100000.db" "$db"
  python3 - "$db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
T = 1_780_000_000_000
def uid(prefix, i): return "%s-%04x-7%03x-8%03x-%012x" % (prefix, (i >> 16) & 0xffff, i & 0xfff, i % 4096, i)
mids = [r[0] for r in db.execute("SELECT memory_id FROM memories ORDER BY rowid LIMIT 50000")]
with db:
    db.executemany("INSERT INTO agent_sessions(run_id, agent, session_id, source, project, selector, opened_at, closed_at,"
                   " last_seen_at) VALUES (?, 'claude-code', ?, 'startup', ?, '{\"kind\":\"all\"}', ?, ?, ?)",
                   [(uid("01990000", i), "bench-%05d" % i, "proj-%02d" % (i % 20), T + i, T + i + 3_600_000, T + i + 60_000)
                    for i in range(10_000)])
    batch = []
    for e in range(1_000_000):
        batch.append((uid("01970000", e), mids[e % len(mids)], "revise", "cli", uid("01990000", e % 10_000), T + e))
        if len(batch) == 100_000:
            db.executemany("INSERT INTO memory_events(event_id, memory_id, kind, actor, session_run_id, created_at)"
                           " VALUES (?,?,?,?,?,?)", batch)
            batch = []
db.execute("PRAGMA optimize")
db.close()
PY
fi
rm -f "$BENCH_DIR"/briefwork.db*
cp "$db" "$BENCH_DIR/briefwork.db"
sync
work=$BENCH_DIR/briefwork.db
"$SK" --db "$work" config list >/dev/null  # migrate a database an older build made, untimed
mkdir -p "$BENCH_DIR/proj-03"
for n in version brief start before-brief before-start; do : >"$BENCH_DIR/b-$n.txt"; done
t() { local out=$1; shift; timed "$BENCH_DIR/b-$out.txt" "$@"; }
start() {
  printf '{"session_id":"bench-start-%s","hook_event_name":"SessionStart","source":"startup","cwd":"%s"}' "$2" "$BENCH_DIR/proj-03" \
    | "$1" --db "$work" hook session-start --harness claude-code
}
# BEFORE=/path/to/an/older/sessionkit times it too, interleaved with this
# build, for a regression check measured in the same run.
for n in $(seq 1 "$CALLS"); do
  t version "$SK" --version
  t brief "$SK" --db "$work" brief --project proj-03
  t start start "$SK" "$n"
  if [ -n "${BEFORE:-}" ]; then
    t before-brief "$BEFORE" --db "$work" brief --project proj-03
    t before-start start "$BEFORE" "before-$n"
  fi
done
bytes=$("$SK" --db "$work" brief --project proj-03 | wc -c)
echo "| measure ($CALLS calls each, interleaved; 100,000 memories, 5,000 in the project; 10,000 runs; 1,000,000 memory events) | p50 ms | p99 ms |"
echo "|---|---|---|"
echo "| baseline: \`sessionkit --version\` | $(pct "$BENCH_DIR/b-version.txt" 50) | $(pct "$BENCH_DIR/b-version.txt" 99) |"
echo "| \`brief --project proj-03\` ($bytes bytes; target 20 ms) | $(pct "$BENCH_DIR/b-brief.txt" 50) | $(pct "$BENCH_DIR/b-brief.txt" 99) |"
echo "| \`hook session-start\` (startup: brief, open the run, stamp, log the injection; target p99 30 ms) | $(pct "$BENCH_DIR/b-start.txt" 50) | $(pct "$BENCH_DIR/b-start.txt" 99) |"
if [ -n "${BEFORE:-}" ]; then
  echo "| the same, \`BEFORE\` build: \`brief\` | $(pct "$BENCH_DIR/b-before-brief.txt" 50) | $(pct "$BENCH_DIR/b-before-brief.txt" 99) |"
  echo "| the same, \`BEFORE\` build: \`hook session-start\` | $(pct "$BENCH_DIR/b-before-start.txt" 50) | $(pct "$BENCH_DIR/b-before-start.txt" 99) |"
fi
