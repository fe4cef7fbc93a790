#!/usr/bin/env bash
# `sessionkit statusline` as Claude Code calls it after every message: p50
# and p99 of the whole process (read stdin, record the snapshot, catch the
# session's transcript up, the costs, print), on a database holding the 1 GiB
# bench corpus, against process start-up (`sessionkit --version`) measured in
# the same run. The target: p99 <= 25 ms. With ccusage installed
# (CCUSAGE=path, or $BENCH_DIR/ccusage from ingest.sh), its statusline on the
# same corpus is measured too (a few calls, --no-cache: the transcript has
# changed since the last call, as it has after every message).
#
#   tests/bench/statusline.sh            # 200 calls
#   CALLS=500 BENCH_DIR=/tmp/b tests/bench/statusline.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
ROOT=$PWD
GEN=${GEN:-$ROOT/../shared/bench/gen_corpus.py}
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
CALLS=${CALLS:-200}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$ROOT/target/release/sessionkit

big=$(bench_corpus)
db=$BENCH_DIR/statusline.db
if [ ! -f "$db" ]; then
  SESSIONKIT_DB=$db "$SK" ingest --root "$big/projects" --quiet >/dev/null
fi
# The newest session's transcript: the one Claude Code is writing.
transcript=$(ls -t "$big"/projects/*/*.jsonl | sed -n 1p)
sid=$(basename "$transcript" .jsonl)
now=$(date +%s)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for i in $(seq "$CALLS"); do
  # The share moves every tenth call: a snapshot is written then.
  pct=$(( 20 + i / 10 ))
  payload=$(printf '{"session_id":"%s","transcript_path":"%s","cwd":"/w","workspace":{"current_dir":"/w","project_dir":"/w"},"version":"2.1.332","model":{"id":"claude-sonnet-4-5","display_name":"Sonnet 4.5"},"cost":{"total_cost_usd":1.5},"context_window":{"used_percentage":40,"total_input_tokens":146170,"total_output_tokens":5000,"context_window_size":200000},"rate_limits":{"five_hour":{"used_percentage":%d,"resets_at":%d},"seven_day":{"used_percentage":41,"resets_at":%d}}}' \
    "$sid" "$transcript" "$pct" $(( now + 7200 )) $(( now + 200000 )))
  timed "$out/floor" "$SK" --version
  SESSIONKIT_DB=$db timed_in "$out/statusline" "$payload" "$SK" statusline
done
echo "statusline on $(du -sh "$big" | cut -f1) corpus ($(basename "$db")), $CALLS calls:"
printf '  %-28s p50 %6s ms  p99 %6s ms\n' "process start (--version)" "$(pct "$out/floor" 50)" "$(pct "$out/floor" 99)"
printf '  %-28s p50 %6s ms  p99 %6s ms\n' "sessionkit statusline" "$(pct "$out/statusline" 50)" "$(pct "$out/statusline" 99)"
echo "  one line: $(printf '%s' "$payload" | SESSIONKIT_DB=$db "$SK" statusline)"
echo "  peak memory (KiB): $( { /usr/bin/time -f %M env SESSIONKIT_DB="$db" "$SK" statusline <<<"$payload" >/dev/null; } 2>&1 | tail -1)"
CCUSAGE=${CCUSAGE:-$BENCH_DIR/ccusage/node_modules/.bin/ccusage}
if [ -x "$CCUSAGE" ]; then
  for i in 1 2 3; do
    CLAUDE_CONFIG_DIR=$big timed_in "$out/ccusage" "$payload" "$CCUSAGE" statusline --offline --no-cache
  done
  printf '  %-28s p50 %6s ms (3 calls)\n' "ccusage statusline" "$(pct "$out/ccusage" 50)"
fi
