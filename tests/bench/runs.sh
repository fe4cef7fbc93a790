#!/usr/bin/env bash
# Agent runs: every `session` subcommand and an attributed
# `remember` <= 10 ms p99 with 10,000 runs and 1,000,000 memory events.
# Seeded with Python's sqlite3 into a file sessionkit created and migrated.
# Baseline in the same run: `sessionkit --version` (process start).
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
CALLS=${CALLS:-100}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
db=$BENCH_DIR/runs10k.db
NOW=2026-06-01T12:00:00Z
if [ ! -f "$db" ] || [ "${RESEED:-0}" = 1 ]; then
  rm -f "$db"*
  "$SK" --db "$db" config list >/dev/null
  python3 - "$db" <<'PY'
import sqlite3, sys, json
db = sqlite3.connect(sys.argv[1])
T = 1_780_000_000_000          # 2026-05-28
def uid(prefix, i): return "%s-%04x-7%03x-8%03x-%012x" % (prefix, (i >> 16) & 0xffff, i & 0xfff, i % 4096, i)
with db:
    runs = []
    for i in range(10_000):
        closed = None if i % 50 == 0 else T + i * 1000 + 3_600_000      # 200 live, the rest closed
        runs.append((uid("01990000", i), "claude-code", "bench-%05d" % i, "startup", "proj-%02d" % (i % 20), None,
                     '{"kind":"all"}', T + i * 1000, closed, T + i * 1000 + 60_000))
    db.executemany("INSERT INTO agent_sessions(run_id, agent, session_id, source, project, scope, selector, opened_at,"
                   " closed_at, last_seen_at) VALUES (?,?,?,?,?,?,?,?,?,?)", runs)
    db.executemany("INSERT INTO memories(memory_id, kind, topic, description, content, project, scope, tags, status,"
                   " pinned, content_hash, valid_from, created_at, updated_at) VALUES (?, 'note', ?, NULL, ?, ?, 'project',"
                   " '[]', 'active', 0, ?, ?, ?, ?)",
                   [(uid("01980000", m), "topic %d" % m, "content of memory %d" % m, "proj-%02d" % (m % 20),
                     "%064x" % m, T, T, T) for m in range(50_000)])
    batch = []
    for e in range(1_000_000):
        batch.append((uid("01970000", e), uid("01980000", e % 50_000), "create" if e < 50_000 else "revise", "cli",
                      uid("01990000", e % 10_000), T + e))
        if len(batch) == 100_000:
            db.executemany("INSERT INTO memory_events(event_id, memory_id, kind, actor, session_run_id, created_at)"
                           " VALUES (?,?,?,?,?,?)", batch)
            batch = []
db.execute("PRAGMA optimize")
db.close()
PY
fi
rm -f "$BENCH_DIR"/runswork.db*
cp "$db" "$BENCH_DIR/runswork.db"
sync
work=$BENCH_DIR/runswork.db
names=(version open heartbeat show close events list remember)
for n in "${names[@]}"; do : >"$BENCH_DIR/r-$n.txt"; done
t() { local out=$1; shift; timed "$BENCH_DIR/r-$out.txt" "$@"; }
live_run=$(SESSIONKIT_NOW=$NOW "$SK" --db "$work" session open --agent codex --session-id bench-live --source startup \
  --project proj-solo --format json | python3 -c "import json,sys; print(json.load(sys.stdin)['run_id'])")
export SESSIONKIT_NOW=$NOW
for n in $(seq 1 "$CALLS"); do
  t version "$SK" --version
  t open "$SK" --db "$work" session open --agent gemini --session-id "new-$n" --source startup --project proj-03
  t heartbeat "$SK" --db "$work" session heartbeat --agent claude-code --session-id "bench-$(printf %05d $((n * 50)))" --excerpt "turn $n"
  t show "$SK" --db "$work" session show --agent claude-code --session-id "bench-$(printf %05d $((n * 37)))"
  t close "$SK" --db "$work" session close --agent gemini --session-id "new-$n"
  t events "$SK" --db "$work" session events "$(printf '01990000-0000-7%03x-8%03x-%012x' $((n * 13)) $((n * 13)) $((n * 13)))"
  t list "$SK" --db "$work" session list --live --project proj-07
  t remember "$SK" --db "$work" remember --kind finding --topic "bench $n" --content "attributed finding number $n" \
    --project proj-solo --session-run-id "$live_run"
done
echo "| measure ($CALLS calls each, interleaved; 10,000 runs, 1,000,000 memory events) | p50 ms | p99 ms |"
echo "|---|---|---|"
for n in "${names[@]}"; do
  echo "| $n | $(pct "$BENCH_DIR/r-$n.txt" 50) | $(pct "$BENCH_DIR/r-$n.txt" 99) |"
done
