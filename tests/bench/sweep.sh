#!/usr/bin/env bash
# `sweep` with the closer: a pass over 10,000 finished runs with
# no judge calls takes <= 1 s. The database is tests/bench/brief.sh's
# (10,000 closed runs, 100,000 memories, 1,100,000 memory events); each run
# gets one briefed commitment and a last message, a tenth of them saying it
# is done. Baselines in the same run: process start, and the same sweep
# with the closer off.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
ROUNDS=${ROUNDS:-5}
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
[ -f "$BENCH_DIR/brief.db" ] || CALLS=1 tests/bench/brief.sh >/dev/null
db=$BENCH_DIR/sweep.db
if [ ! -f "$db" ] || [ "${RESEED:-0}" = 1 ]; then
  rm -f "$db"*
  cp "$BENCH_DIR/brief.db" "$db"
  "$SK" --db "$db" config list >/dev/null  # migrate, untimed
  python3 - "$db" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
ids = [r[0] for r in db.execute("SELECT memory_id FROM commitments ORDER BY memory_id LIMIT 10000")]
topics = dict(db.execute("SELECT memory_id, topic FROM memories WHERE kind = 'commitment'"))
runs = [r[0] for r in db.execute("SELECT run_id FROM agent_sessions ORDER BY run_id")]
with db:
    for n, run in enumerate(runs):
        m = ids[n % len(ids)]
        t = topics[m]
        said = ("The %s is done." % t) if n % 10 == 0 else "Stopped for today."
        db.execute("UPDATE agent_sessions SET briefed_memories = ?, last_message_excerpt = ? WHERE run_id = ?",
                   (json.dumps([{"id": m, "topic": t, "status": "open"}]), said, run))
db.close()
PY
fi
: >"$BENCH_DIR/w-version.txt"; : >"$BENCH_DIR/w-off.txt"; : >"$BENCH_DIR/w-on.txt"
for r in $(seq 1 "$ROUNDS"); do
  rm -f "$BENCH_DIR"/sweepwork.db*; cp "$db" "$BENCH_DIR/sweepwork.db"; sync
  timed "$BENCH_DIR/w-version.txt" "$SK" --version
  timed "$BENCH_DIR/w-off.txt" env SESSIONKIT_NOW=2027-01-01T00:00:00Z "$SK" --db "$BENCH_DIR/sweepwork.db" -q sweep --format jsonl
  timed "$BENCH_DIR/w-on.txt" env SESSIONKIT_NOW=2027-01-01T00:00:00Z SESSIONKIT_CLOSER=on "$SK" --db "$BENCH_DIR/sweepwork.db" sweep --format jsonl
done
resolved=$(SESSIONKIT_NOW=2027-01-01T00:01:00Z SESSIONKIT_CLOSER=on "$SK" --db "$BENCH_DIR/sweepwork.db" sweep --dry-run --format jsonl | wc -l || true)
echo "| measure ($ROUNDS rounds, each on a fresh copy; 10,000 finished runs, 1,100,000 memory events) | median ms |"
echo "|---|---|"
echo "| baseline: \`sessionkit --version\` | $(pct "$BENCH_DIR/w-version.txt" 50) |"
echo "| \`sweep\`, closer off | $(pct "$BENCH_DIR/w-off.txt" 50) |"
echo "| \`sweep\`, closer on: one batch of 100 runs (evidence judge; target 1 s) | $(pct "$BENCH_DIR/w-on.txt" 50) |"
echo
echo "a dry run after it would resolve $resolved more (the next batch)"
