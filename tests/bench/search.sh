#!/usr/bin/env bash
# `sessionkit search` on the 1 GiB bench corpus:
#   - cold ingest with the search index on (the default) and off, beside
#     `ccusage daily` on the same corpus in the same run (the target: with
#     the index on, <= 0.5x ccusage; the setting search.index turns it off);
#   - the index's size against the transcript bytes it covers (target
#     <= 35 %, tool outputs not indexed);
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
cargo build --release --quiet --bin sessionkit
SK=$ROOT/target/release/sessionkit

big=$BENCH_DIR/corpus_1g
if [ ! -f "$big/expected_totals.json" ]; then
  rm -rf "$big"
  python3 "$GEN" --out "$big" --sessions 40 --mib-per-session 26 --seed 1 >/dev/null
fi
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
declare -a T_ON=() T_OFF=() T_CC=()
db=$BENCH_DIR/search.db
for r in $(seq 1 "$ROUNDS"); do
  rm -f "$BENCH_DIR"/search-off.db*
  read -r t _ < <(SESSIONKIT_SEARCH_INDEX=off time_it "$SK" --db "$BENCH_DIR/search-off.db" ingest --root "$big/projects" --quiet); T_OFF+=("$t")
  rm -f "$db"*
  read -r t _ < <(time_it "$SK" --db "$db" ingest --root "$big/projects" --quiet); T_ON+=("$t")
  if [ -x "$CCUSAGE" ]; then
    read -r t _ < <(CLAUDE_CONFIG_DIR=$big time_it "$CCUSAGE" daily --json --offline); T_CC+=("$t")
  fi
  echo "round $r: ingest with the index ${T_ON[-1]} s, without ${T_OFF[-1]} s${T_CC:+, ccusage daily ${T_CC[-1]:-} s}"
done
on=$(median "${T_ON[@]}"); off=$(median "${T_OFF[@]}")
echo "cold ingest of $(du -sh "$big/projects" | cut -f1) (median of $ROUNDS):"
printf '  %-34s %6s s\n' "with the search index" "$on" "without (search.index off)" "$off"
if [ ${#T_CC[@]} -gt 0 ]; then
  cc=$(median "${T_CC[@]}")
  printf '  %-34s %6s s\n' "ccusage daily --offline" "$cc"
  echo "  with the index / ccusage: $(python3 -c "print(round($on/$cc, 2))")x; without: $(python3 -c "print(round($off/$cc, 2))")x"
fi
python3 - "$db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
idx = c.execute("""SELECT SUM(pgsize) FROM dbstat WHERE name IN
  ('said','said_by_text','said_texts','said_texts_hash','said_unindexed') OR name LIKE 'said_fts%'""").fetchone()[0]
cov = c.execute("SELECT SUM(bytes) FROM sessions WHERE session_id IN (SELECT DISTINCT session_id FROM said)").fetchone()[0]
texts, tb = c.execute("SELECT COUNT(*), SUM(LENGTH(CAST(text AS BLOB))) FROM said_texts").fetchone()
places = c.execute("SELECT COUNT(*) FROM said").fetchone()[0]
print(f"index: {idx/2**20:.1f} MiB for {cov/2**20:.1f} MiB of transcripts = {idx*100/cov:.1f} % "
      f"({texts} distinct texts, {tb/2**20:.1f} MiB, said in {places} places)")
PY

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
