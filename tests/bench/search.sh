#!/usr/bin/env bash
# `sessionkit search` on the 1 GiB bench corpus, everything side by side in
# one run:
#   - cold ingest with the default settings (search.index lazy: no words
#     read), beside `ccusage daily` (target: <= 0.5x, <= 80 MiB peak), the
#     serde floor (every line parsed to IgnoredAny on every core,
#     `tests/bench/floor.rs`) and with search.index on (words indexed as
#     ingest reads);
#   - the first search, which builds the index (target: <= one ccusage
#     daily), and the index's size against the transcript bytes it covers;
#   - appending 1 MiB to a session, then ingest with the index kept current
#     (target: <= 25 ms);
#   - query latency, p50 and p99 of the whole process, over a mix of
#     queries (words in almost every text, rare words, absent words,
#     phrases, prefixes, filtered), beside process start-up
#     (`sessionkit --version`) measured in the same run (target p99 <= 50 ms).
#
#   tests/bench/search.sh                 # 3 ingest rounds, 20 calls per query
#   ROUNDS=1 CALLS=50 BENCH_DIR=/tmp/b tests/bench/search.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
ROOT=$PWD
GEN=${GEN:-$ROOT/../shared/bench/gen_corpus.py}
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
ROUNDS=${ROUNDS:-3}
CALLS=${CALLS:-20}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit --example floor
SK=$ROOT/target/release/sessionkit
FLOOR=$ROOT/target/release/examples/floor

big=$(bench_corpus)
CCUSAGE=${CCUSAGE:-$BENCH_DIR/ccusage/node_modules/.bin/ccusage}
if [ ! -x "$CCUSAGE" ] && command -v npm >/dev/null; then
  timeout 300 npm i --prefix "$BENCH_DIR/ccusage" ccusage@20.0.24 >/dev/null 2>&1 || true
fi

# time_it CMD... -> prints "seconds max_rss_kib"
time_it() {
  /usr/bin/time -o "$BENCH_DIR/.time" -f "%e %M" "$@" >/dev/null 2>/dev/null
  tail -1 "$BENCH_DIR/.time"
}
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

cat "$big"/projects/*/*.jsonl "$big"/projects/*/*/subagents/*.jsonl >/dev/null 2>&1 || true
declare -a T_LAZY=() M_LAZY=() T_ON=() T_BUILD=() M_BUILD=() T_CC=() T_FLOOR=()
db=$BENCH_DIR/search.db
for r in $(seq 1 "$ROUNDS"); do
  read -r t _ < <(time_it "$FLOOR" "$big/projects"); T_FLOOR+=("$t")
  rm -f "$BENCH_DIR"/search-on.db*
  read -r t _ < <(SESSIONKIT_SEARCH_INDEX=on time_it "$SK" --db "$BENCH_DIR/search-on.db" ingest --root "$big/projects" --quiet); T_ON+=("$t")
  rm -f "$db"*
  read -r t m < <(SESSIONKIT_SEARCH_INDEX=lazy time_it "$SK" --db "$db" ingest --root "$big/projects" --quiet); T_LAZY+=("$t"); M_LAZY+=("$m")
  read -r t m < <(SESSIONKIT_SEARCH_INDEX=lazy time_it "$SK" --db "$db" search kangaroo --format jsonl); T_BUILD+=("$t"); M_BUILD+=("$m")
  if [ -x "$CCUSAGE" ]; then
    read -r t _ < <(CLAUDE_CONFIG_DIR=$big time_it "$CCUSAGE" daily --json --offline); T_CC+=("$t")
  fi
  echo "round $r: ingest ${T_LAZY[-1]} s (index on: ${T_ON[-1]} s), first search ${T_BUILD[-1]} s${T_CC:+, ccusage daily ${T_CC[-1]:-} s}"
done
lazy=$(median "${T_LAZY[@]}"); on=$(median "${T_ON[@]}"); build=$(median "${T_BUILD[@]}")
echo "cold ingest of $(du -sh "$big/projects" | cut -f1) (median of $ROUNDS):"
printf '  %-40s %6s s  %6s MiB peak\n' "ingest, default (search.index lazy)" "$lazy" "$(( $(median "${M_LAZY[@]}") / 1024 ))"
printf '  %-40s %6s s\n' "serde floor (IgnoredAny, $(nproc) threads)" "$(median "${T_FLOOR[@]}")"
printf '  %-40s %6s s\n' "ingest, search.index on" "$on"
printf '  %-40s %6s s  %6s MiB peak\n' "first search (builds the index)" "$build" "$(( $(median "${M_BUILD[@]}") / 1024 ))"
if [ ${#T_CC[@]} -gt 0 ]; then
  cc=$(median "${T_CC[@]}")
  printf '  %-40s %6s s\n' "ccusage daily --offline" "$cc"
  echo "  ingest / ccusage: $(python3 -c "print(round($lazy/$cc, 2))")x; first search / ccusage: $(python3 -c "print(round($build/$cc, 2))")x; ingest with the index on / ccusage: $(python3 -c "print(round($on/$cc, 2))")x"
fi
python3 - "$db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
idx = c.execute("""SELECT SUM(pgsize) FROM dbstat WHERE name IN (SELECT name FROM sqlite_schema
  WHERE tbl_name IN ('said','said_texts','said_blocks','said_names','said_sessions') OR tbl_name LIKE 'said_fts%')""").fetchone()[0]
cov = c.execute("SELECT SUM(bytes) FROM sessions WHERE session_id IN (SELECT session_id FROM said_sessions)").fetchone()[0]
texts, tb = c.execute("SELECT COUNT(*), SUM(len) FROM said_texts").fetchone()
places = c.execute("SELECT COUNT(*) FROM said").fetchone()[0]
print(f"index: {idx/2**20:.1f} MiB for {cov/2**20:.1f} MiB of transcripts = {idx*100/cov:.1f} % "
      f"({texts} distinct texts, {tb/2**20:.1f} MiB, said in {places} places)")
PY

# 1 MiB appended to the largest session, then ingest with the index kept
# current (the first search above built it), a few times.
largest=$(python3 -c 'import glob, os, sys; print(max(glob.glob(sys.argv[1] + "/projects/*/*.jsonl"), key=os.path.getsize))' "$big")
cp "$largest" "$BENCH_DIR/largest.bak"
declare -a T_APPEND=()
for i in 1 2 3 4 5; do
  python3 - "$BENCH_DIR/largest.bak" "$largest" <<'PY'
import sys
# About 1 MiB of the session's own last whole lines, appended again.
data = open(sys.argv[1], "rb").read()[-1_100_000:]
lines = data.split(b"\n")[1:-1]
out, size = [], 0
for line in lines:
    if size + len(line) + 1 > 1 << 20:
        break
    out.append(line)
    size += len(line) + 1
open(sys.argv[2], "ab").write(b"\n".join(out) + b"\n")
PY
  read -r t _ < <(time_it "$SK" --db "$db" ingest --root "$big/projects" --quiet); T_APPEND+=("$t")
done
cp "$BENCH_DIR/largest.bak" "$largest"
SESSIONKIT_DB=$db "$SK" ingest --root "$big/projects" --quiet >/dev/null 2>&1 || true
echo "ingest after 1 MiB appended, index current (median of 5): $(median "${T_APPEND[@]}") s"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Words of the generator's small vocabulary are in most texts (the worst
# case: relevance ranks a bounded window); the rest are rare or absent.
queries=(
  "function" "cache index" "deploy release" "migra" "\"return value\""
  "session token --role user" "schema --since 30d" "build --newest"
  "kangaroo" "docs.example.invalid" "WebFetch" "src/ledger.rs"
)
for q in "${queries[@]}"; do
  for i in $(seq "$CALLS"); do
    timed "$out/floor" "$SK" --version
    # shellcheck disable=SC2086
    eval "set -- $q"
    SESSIONKIT_DB=$db timed "$out/all" "$SK" search "$@" --format jsonl
    SESSIONKIT_DB=$db timed "$out/q$(echo "$q" | md5sum | cut -c1-8)" "$SK" search "$@" --format jsonl
  done
done
echo "search, ${#queries[@]} queries x $CALLS calls (whole process):"
printf '  %-34s p50 %6s ms  p99 %6s ms\n' "process start (--version)" "$(pct "$out/floor" 50)" "$(pct "$out/floor" 99)"
printf '  %-34s p50 %6s ms  p99 %6s ms\n' "sessionkit search (all queries)" "$(pct "$out/all" 50)" "$(pct "$out/all" 99)"
for q in "${queries[@]}"; do
  f=$out/q$(echo "$q" | md5sum | cut -c1-8)
  printf '    %-32s p50 %6s ms  p99 %6s ms\n' "$q" "$(pct "$f" 50)" "$(pct "$f" 99)"
done
echo "  peers, as they state it: deja-vu 1.5 ms median over 3.5 GB; cass under 60 ms"
