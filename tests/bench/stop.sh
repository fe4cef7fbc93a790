#!/usr/bin/env bash
# `hook stop`: p99 <= 15 ms with the nudge off and <= 30 ms with
# it on, on a database of 1,000,000 hook events, 10,000 runs and 1,100,000
# memory events. Baselines in the same run: `sessionkit --version` (process
# start) and `hook event` (the record alone) on the same database.
#
#   tests/bench/stop.sh            # 200 calls of each, interleaved
#
# Reuses the databases of tests/bench/brief.sh (runs, memory events) and
# tests/bench/hooks.sh (hook events); run those first, or this runs them.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
CALLS=${CALLS:-200}
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
[ -f "$BENCH_DIR/brief.db" ] || CALLS=1 tests/bench/brief.sh >/dev/null
[ -f "$BENCH_DIR/live1m.db" ] || CALLS=1 tests/bench/hooks.sh >/dev/null
db=$BENCH_DIR/stop.db
if [ ! -f "$db" ] || [ "${RESEED:-0}" = 1 ]; then
  rm -f "$db"*
  cp "$BENCH_DIR/brief.db" "$db"
  "$SK" --db "$db" config list >/dev/null  # migrate, untimed
  python3 - "$db" "$BENCH_DIR/live1m.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("ATTACH ? AS h", (sys.argv[2],))
with db:
    db.execute("INSERT INTO events_raw SELECT * FROM h.events_raw")
    # Every run live and open (the seed closed them an hour after opening).
    db.execute("UPDATE agent_sessions SET closed_at = NULL, last_seen_at = 1790000000000")
db.execute("DETACH h")
db.execute("PRAGMA optimize")
db.close()
PY
fi
rm -f "$BENCH_DIR"/stopwork.db*
cp "$db" "$BENCH_DIR/stopwork.db"
sync
work=$BENCH_DIR/stopwork.db
for n in version event off on failure; do : >"$BENCH_DIR/s-$n.txt"; done
failure() {
  printf '{"session_id":"bench-%05d","hook_event_name":"StopFailure","cwd":"/w","error":"unknown","last_assistant_message":"API Error: 400 turn %d"}' "$1" "$2"
}
payload() {
  printf '{"session_id":"bench-%05d","hook_event_name":"Stop","cwd":"/w","stop_hook_active":false,"last_assistant_message":"done with turn %d; the key was sk-ant-api03-AbCdEf0123456789_AbCd%d"}' "$1" "$2" "$2"
}
# Every call a different run; 30 s apart in the clock, so the nudge's
# calls meet runs with 110 memory events each: armed on their first Stop
# (the prompt rendered), then finalized, then quiet.
for n in $(seq 1 "$CALLS"); do
  run=$(( (n * 7919) % 10000 ))
  now=$(date -u -d "@$(( 1790000000 + n * 30 ))" +%Y-%m-%dT%H:%M:%SZ)
  timed_in "$BENCH_DIR/s-version.txt" "" "$SK" --version
  timed_in "$BENCH_DIR/s-event.txt" "$(payload "$run" "$n")" env SESSIONKIT_NOW="$now" "$SK" --db "$work" hook event --harness claude-code
  timed_in "$BENCH_DIR/s-off.txt" "$(payload "$run" "$n")" env SESSIONKIT_NOW="$now" "$SK" --db "$work" hook stop --harness claude-code
  timed_in "$BENCH_DIR/s-on.txt" "$(payload "$(( (run + 5000) % 10000 ))" "$n")" env SESSIONKIT_NOW="$now" SESSIONKIT_STOP_NUDGE=1 "$SK" --db "$work" hook stop --harness claude-code
  timed_in "$BENCH_DIR/s-failure.txt" "$(failure "$run" "$n")" env SESSIONKIT_NOW="$now" "$SK" --db "$work" hook stop --harness claude-code
done
armed=$(python3 -c "import sqlite3,sys;print(sqlite3.connect(sys.argv[1]).execute('select count(*) from agent_sessions where triage_attempt_count > 0').fetchone()[0])" "$work")
echo "| measure ($CALLS calls each, interleaved; 1,000,000 hook events, 10,000 runs, 1,100,000 memory events) | p50 ms | p99 ms |"
echo "|---|---|---|"
echo "| baseline: \`sessionkit --version\` (process start) | $(pct "$BENCH_DIR/s-version.txt" 50) | $(pct "$BENCH_DIR/s-version.txt" 99) |"
echo "| baseline: \`hook event\` (the record alone) | $(pct "$BENCH_DIR/s-event.txt" 50) | $(pct "$BENCH_DIR/s-event.txt" 99) |"
echo "| \`hook stop\`, nudge off (target p99 15 ms) | $(pct "$BENCH_DIR/s-off.txt" 50) | $(pct "$BENCH_DIR/s-off.txt" 99) |"
echo "| \`hook stop\`, nudge on, $armed runs armed (target p99 30 ms) | $(pct "$BENCH_DIR/s-on.txt" 50) | $(pct "$BENCH_DIR/s-on.txt" 99) |"
# The whole StopFailure call: its event is committed before it returns, so
# this bounds the time to commit from above (Claude Code 2.1.332 signals
# the hook about 10 ms after starting it; the hook outlives the signal).
echo "| \`hook stop\` with a StopFailure, start to exit (event committed before) | $(pct "$BENCH_DIR/s-failure.txt" 50) | $(pct "$BENCH_DIR/s-failure.txt" 99) |"
