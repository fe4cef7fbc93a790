#!/usr/bin/env bash
# `hook user-prompt-submit`: p99 <= 20 ms with 100,000 memories
# (tests/bench/memory.sh's database). Baseline in the same run: process
# start, and `hook event` on the same database.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
CALLS=${CALLS:-200}
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
[ -f "$BENCH_DIR/mem100000.db" ] || CALLS=1 tests/bench/memory.sh >/dev/null
rm -f "$BENCH_DIR"/promptwork.db*
cp "$BENCH_DIR/mem100000.db" "$BENCH_DIR/promptwork.db"
work=$BENCH_DIR/promptwork.db
"$SK" --db "$work" config list >/dev/null  # migrate, untimed
mkdir -p "$BENCH_DIR/proj-03"
for n in version event prompt; do : >"$BENCH_DIR/p-$n.txt"; done
words=(borborkalo borbordra borgatta quruve filqulozen lologat dradrataru borlofilgat lozengatne kapokadra)
payload() {
  printf '{"session_id":"bench-p-%d","hook_event_name":"UserPromptSubmit","cwd":"%s","prompt":"what did we decide about the %s and the %s"}' \
    "$1" "$BENCH_DIR/proj-03" "${words[$(( $1 % 10 ))]}" "${words[$(( ($1 * 7) % 10 ))]}"
}
shown=0
for n in $(seq 1 "$CALLS"); do
  timed_in "$BENCH_DIR/p-version.txt" "" "$SK" --version
  timed_in "$BENCH_DIR/p-event.txt" "$(payload "$n")" "$SK" --db "$work" hook event --harness claude-code
  timed_in "$BENCH_DIR/p-prompt.txt" "$(payload "$n")" "$SK" --db "$work" hook user-prompt-submit --harness claude-code
done
hits=$(payload 1 | "$SK" --db "$work" hook user-prompt-submit --harness claude-code | wc -c)
echo "| measure ($CALLS calls each, interleaved; 100,000 memories, 5,000 in the project) | p50 ms | p99 ms |"
echo "|---|---|---|"
echo "| baseline: \`sessionkit --version\` | $(pct "$BENCH_DIR/p-version.txt" 50) | $(pct "$BENCH_DIR/p-version.txt" 99) |"
echo "| baseline: \`hook event\` | $(pct "$BENCH_DIR/p-event.txt" 50) | $(pct "$BENCH_DIR/p-event.txt" 99) |"
echo "| \`hook user-prompt-submit\` (target p99 20 ms; one answer: $hits bytes) | $(pct "$BENCH_DIR/p-prompt.txt" 50) | $(pct "$BENCH_DIR/p-prompt.txt" 99) |"
