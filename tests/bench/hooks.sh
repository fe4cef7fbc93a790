#!/usr/bin/env bash
# `hook event` (p99 <= 15 ms) and `sweep` (<= 100 ms) on a database
# holding 1,000,000 hook events and 10,000 sessions (30,000 agents). Reported
# next to baselines measured in the same run: `sessionkit --version` (process
# start, no database) and `hook event` on an empty database.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
CALLS=${CALLS:-400}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
db=$BENCH_DIR/live1m.db
seed() {
  rm -f "$db"*
  "$SK" --db "$db" config list >/dev/null   # creates and migrates the file
  python3 - "$db" <<'PY'
import hashlib, json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("PRAGMA journal_mode=WAL")
T0 = 1_767_225_600_000          # 2026-01-01T00:00:00Z
sessions = 10_000
def sid(i): return "%08x-0000-4000-8000-%012x" % (i, i)
with db:
    for i in range(sessions):
        s = sid(i)
        t = T0 + i * 60_000
        db.execute("INSERT INTO sessions(session_id, harness, project_slug, project, started_at, last_activity_at, status, status_at,"
                   " records, unknown_records, synthetic_messages, bytes, degraded_lines)"
                   " VALUES (?, 'claude-code', '-bench', 'bench', ?, ?, 'working', ?, 10, 0, 0, 1000, 0)", (s, t, t + 50_000, t + 50_000))
        for j, a in enumerate([s, "a%d" % i, "b%d" % i]):
            status = "completed" if j == 2 else "working"
            db.execute("INSERT INTO agents(session_id, agent_id, parent_agent_id, layout, transcript_path, first_seen_at, last_seen_at,"
                       " status, status_at, outcome_cause, records) VALUES (?, ?, ?, ?, 'x.jsonl', ?, ?, ?, ?, ?, 3)",
                       (s, a, None if j == 0 else s, "main" if j == 0 else "nested", t, t + 50_000, status, t + 50_000,
                        "tool_result" if j == 2 else "transcript"))
    events = ("UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStop")
    rows = []
    for n in range(1_000_000):
        i = n % sessions
        ev = events[n % 5]
        payload = json.dumps({"hook_event_name": ev, "n": n, "session_id": sid(i)}, separators=(",", ":"), sort_keys=True)
        rows.append((hashlib.sha256(payload.encode()).digest(), ev, sid(i), "a%d" % i if ev == "SubagentStop" else None,
                     T0 + n * 1_000, payload))
        if len(rows) == 50_000:
            db.executemany("INSERT INTO events_raw(event_key, has_delivery_id, harness, event, session_id, agent_id, received_at, payload)"
                           " VALUES (?, 0, 'claude-code', ?, ?, ?, ?, ?)", rows)
            rows = []
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
db.close()
PY
}
if [ ! -f "$db" ] || [ "${RESEED:-0}" = 1 ]; then seed; fi
rm -f "$BENCH_DIR"/work.db*
cp "$db" "$BENCH_DIR/work.db"
sync   # the copy's dirty pages would otherwise be written back during the timings
work=$BENCH_DIR/work.db
empty=$BENCH_DIR/empty.db
rm -f "$empty"*
# Latencies in microseconds, interleaved (start, empty, full for each call)
# so that this machine's noise hits the three alike. A fresh payload each time.
: >"$BENCH_DIR/ver.txt"; : >"$BENCH_DIR/empty.txt"; : >"$BENCH_DIR/full.txt"; : >"$BENCH_DIR/before.txt"
for n in $(seq 1 "$CALLS"); do
  i=$(( (n * 7919) % 10000 ))
  s=$(printf '%08x-0000-4000-8000-%012x' "$i" "$i")
  ev=Stop; [ $((n % 3)) = 0 ] && ev=UserPromptSubmit
  p=$(printf '{"session_id":"%s","hook_event_name":"%s","turn":%d,"cwd":"/w","transcript_path":"/p/%s.jsonl"}' "$s" "$ev" "$n" "$s")
  # Every other payload carries text that looks like secrets (so
  # redaction compiles and runs its rules on it).
  if [ $((n % 2)) = 0 ]; then
    p=$(printf '{"session_id":"%s","hook_event_name":"%s","turn":%d,"cwd":"/w","transcript_path":"/p/%s.jsonl","last_assistant_message":"Set PASSWORD=hunter%d, the api key sk-ant-api03-AbCdEf0123456789_AbCd%d and https://u:p%d@h/x; token ghp_0123456789abcdefABCDEF%d"}' "$s" "$ev" "$n" "$s" "$n" "$n" "$n" "$n")
  fi
  timed_in "$BENCH_DIR/ver.txt" "$p" "$SK" --version
  timed_in "$BENCH_DIR/empty.txt" "$p" "$SK" --db "$empty" hook event
  # BEFORE=/path/to/an/older/sessionkit: the same call by that build,
  # interleaved (each build first on every other call: the second call on
  # a session finds its pages warm), for a regression check in one run.
  if [ -n "${BEFORE:-}" ] && [ $((n % 2)) = 0 ]; then
    timed_in "$BENCH_DIR/before.txt" "$p" "$BEFORE" --db "$work" hook event
  fi
  timed_in "$BENCH_DIR/full.txt" "$p" "$SK" --db "$work" hook event
  if [ -n "${BEFORE:-}" ] && [ $((n % 2)) = 1 ]; then
    timed_in "$BENCH_DIR/before.txt" "$p" "$BEFORE" --db "$work" hook event
  fi
done
events=$(python3 -c "import sqlite3,sys;print(sqlite3.connect(sys.argv[1]).execute('select count(*) from events_raw').fetchone()[0])" "$work")
ms() { local a b; a=$(date +%s%N); "$@" >/dev/null || true; b=$(date +%s%N); awk -v d=$(( (b - a) / 1000 )) 'BEGIN {printf "%.2f", d/1000}'; }
# The first sweep after a history import: every live agent is stale.
first=$(SESSIONKIT_NOW=2027-01-01T00:00:00Z ms "$SK" --db "$work" sweep --format jsonl)
changed=$( (SESSIONKIT_NOW=2027-01-01T00:00:00Z "$SK" --db "$db" sweep --dry-run --format jsonl || true) | wc -l)
# Cron's steady state: nothing to change.
steady=$(SESSIONKIT_NOW=2027-01-01T00:00:00Z ms "$SK" --db "$work" sweep --format jsonl)
echo "| measure ($CALLS calls; database: $events events, 10,000 sessions, 30,000 agents) | p50 ms | p99 ms |"
echo "|---|---|---|"
echo "| baseline: \`sessionkit --version\` (process start) | $(pct "$BENCH_DIR/ver.txt" 50) | $(pct "$BENCH_DIR/ver.txt" 99) |"
echo "| baseline: \`hook event\` on an empty database | $(pct "$BENCH_DIR/empty.txt" 50) | $(pct "$BENCH_DIR/empty.txt" 99) |"
echo "| \`hook event\` on the full database | $(pct "$BENCH_DIR/full.txt" 50) | $(pct "$BENCH_DIR/full.txt" 99) |"
if [ -n "${BEFORE:-}" ]; then
  echo "| the same, \`BEFORE\` build | $(pct "$BENCH_DIR/before.txt" 50) | $(pct "$BENCH_DIR/before.txt" 99) |"
fi
echo
echo "| sweep | ms |"
echo "|---|---|"
echo "| first sweep after an import ($changed agents become unknown) | $first |"
echo "| steady state (nothing to change) | $steady |"
p99=$(pct "$BENCH_DIR/full.txt" 99); base=$(pct "$BENCH_DIR/ver.txt" 99)
echo
echo "hook event p99 / process-start p99: $(awk -v a="$p99" -v b="$base" 'BEGIN {printf "%.2f", a/b}')x"
