#!/usr/bin/env bash
# Sessions of any size and tail resume. Everything is measured in
# one run and reported as ratios against baselines of the same run; nothing
# here is asserted by the test suite.
#
#   tests/bench/big.sh                  # 4 GiB session, 5 append rounds
#   ROUNDS=9 BENCH_DIR=/tmp/b tests/bench/big.sh
#
# 1. One session file of 4 GiB (gen_corpus.py, --sessions 1): cold ingest
#    time, peak RSS, bytes/second against the 40-session 1 GiB corpus and
#    against one small session, and its token totals against
#    expected_totals.json.
# 2. A 1 GiB session that grows by 1 MiB (the next bytes the generator
#    wrote, whole lines): bytes read and wall time of each ingest.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
GEN=${GEN:-$ROOT/../shared/bench/gen_corpus.py}
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
ROUNDS=${ROUNDS:-5}
mkdir -p "$BENCH_DIR"
. tests/bench/lib.sh

cargo build --release --quiet --bin sessionkit
SK=$ROOT/target/release/sessionkit

huge=$BENCH_DIR/corpus_4g
if [ ! -f "$huge/expected_totals.json" ]; then
  rm -rf "$huge"
  python3 "$GEN" --out "$huge" --sessions 1 --mib-per-session 4200 --subagent-share 0 --seed 7 >/dev/null
fi
big=$(bench_corpus)
huge_file=$(ls "$huge"/projects/*/*.jsonl)
sid=$(basename "$huge_file" .jsonl)

# One small session of the 1 GiB corpus, alone under its own root.
small=$BENCH_DIR/corpus_small
if [ ! -d "$small" ]; then
  one=$(ls -S "$big"/projects/*/*.jsonl | sed -n 20p)
  mkdir -p "$small/projects/p"
  cp "$one" "$small/projects/p/"
fi

# time_it CMD... -> "seconds max_rss_kib cpu_seconds" (CPU: user + system,
# steadier than wall time on a shared VM: it tells work from waiting)
time_it() {
  /usr/bin/time -o "$BENCH_DIR/.time" -f "%e %M %U %S" "$@" >/dev/null 2>/dev/null
  tail -1 "$BENCH_DIR/.time" | awk '{print $1, $2, $3 + $4}' >"$BENCH_DIR/.time1"
  mv "$BENCH_DIR/.time1" "$BENCH_DIR/.time"
  tail -1 "$BENCH_DIR/.time"
}
bytes_of() { du -bc "$@" | tail -1 | cut -f1; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

cat "$huge_file" >/dev/null
huge_bytes=$(stat -c %s "$huge_file")
big_bytes=$(bytes_of $(find "$big/projects" -name '*.jsonl'))
small_bytes=$(bytes_of $(find "$small/projects" -name '*.jsonl'))

declare -a T_HUGE=() R_HUGE=() T_BIG=() T_SMALL=() C_HUGE=() C_BIG=()
for r in $(seq 1 3); do
  rm -f "$BENCH_DIR"/huge.db*
  read -r t m c < <(time_it "$SK" --db "$BENCH_DIR/huge.db" ingest --root "$huge/projects" --quiet); T_HUGE+=("$t"); R_HUGE+=("$m"); C_HUGE+=("$c")
  rm -f "$BENCH_DIR"/big.db*
  read -r t m c < <(time_it "$SK" --db "$BENCH_DIR/big.db" ingest --root "$big/projects" --quiet); T_BIG+=("$t"); C_BIG+=("$c")
  rm -f "$BENCH_DIR"/small.db*
  read -r t m _ < <(time_it "$SK" --db "$BENCH_DIR/small.db" ingest --root "$small/projects" --quiet); T_SMALL+=("$t")
  echo "round $r: 4 GiB session ${T_HUGE[-1]} s (${R_HUGE[-1]} KiB), 1 GiB corpus ${T_BIG[-1]} s, one small session ${T_SMALL[-1]} s"
done
th=$(median "${T_HUGE[@]}"); rh=$(median "${R_HUGE[@]}"); tb=$(median "${T_BIG[@]}"); ts=$(median "${T_SMALL[@]}")
ch=$(median "${C_HUGE[@]}"); cb=$(median "${C_BIG[@]}")

totals=$(python3 - "$huge/expected_totals.json" "$BENCH_DIR/huge.db" <<'PY'
import json, sqlite3, sys
e = json.load(open(sys.argv[1]))["totals"]
want = (e["input_tokens"], e["output_tokens"], e["cache_creation_5m_tokens"], e["cache_creation_1h_tokens"], e["cache_read_tokens"])
got = sqlite3.connect(sys.argv[2]).execute(
    "SELECT SUM(input_tokens), SUM(output_tokens), SUM(cache_write_5m_tokens), SUM(cache_write_1h_tokens), SUM(cache_read_tokens) FROM token_usage").fetchone()
print("equal to expected_totals.json" if tuple(got) == want else f"DIFFER: {got} vs {want}")
PY
)

# Tail resume: the first 1 GiB of the huge session, then 1 MiB more a round.
grow=$BENCH_DIR/corpus_grow
rm -rf "$grow" "$BENCH_DIR"/grow.db*
mkdir -p "$grow/projects/p"
g=$grow/projects/p/$sid.jsonl
python3 - "$huge_file" "$g" $((1 << 30)) <<'PY'
import sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(src, "rb") as f:
    data = f.read(n)
with open(dst, "wb") as f:
    f.write(data[: data.rfind(b"\n") + 1])
PY
"$SK" --db "$BENCH_DIR/grow.db" ingest --root "$grow/projects" --quiet >/dev/null
: >"$BENCH_DIR/.append_us"
declare -a READS=()
for r in $(seq 1 "$ROUNDS"); do
  python3 - "$huge_file" "$g" $((1 << 20)) <<'PY'
import os, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
at = os.path.getsize(dst)
with open(src, "rb") as f:
    f.seek(at)
    data = f.read(n)
with open(dst, "ab") as f:
    f.write(data[: data.rfind(b"\n") + 1])
PY
  a=${EPOCHREALTIME/./}
  out=$("$SK" --db "$BENCH_DIR/grow.db" ingest --root "$grow/projects" --json)
  b=${EPOCHREALTIME/./}
  echo $(( b - a )) >>"$BENCH_DIR/.append_us"
  READS+=("$(echo "$out" | python3 -c "import json,sys;d=json.load(sys.stdin);print(d['bytes_read'])")")
done
# Nothing changed, for the process and walk alone.
: >"$BENCH_DIR/.same_us"
for _ in $(seq 1 "$ROUNDS"); do timed "$BENCH_DIR/.same_us" "$SK" --db "$BENCH_DIR/grow.db" ingest --root "$grow/projects" --quiet; done
resumed=$(python3 - "$BENCH_DIR/grow.db" "$g" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("SELECT SUM(messages) FROM usage_rollup").fetchone()[0], c.execute("SELECT bytes FROM sessions").fetchone()[0])
PY
)
rm -f "$BENCH_DIR"/growcold.db*
"$SK" --db "$BENCH_DIR/growcold.db" ingest --root "$grow/projects" --quiet >/dev/null
cold=$(python3 - "$BENCH_DIR/growcold.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
print(c.execute("SELECT SUM(messages) FROM usage_rollup").fetchone()[0], c.execute("SELECT bytes FROM sessions").fetchone()[0])
PY
)

rate() { python3 -c "print(round($1 / $2 / 2**20))"; }
echo
echo "| measure | value |"
echo "|---|---|"
echo "| 4 GiB session ($(( huge_bytes >> 20 )) MiB, one file): cold ingest (median of 3) | $th s, $(rate "$huge_bytes" "$th") MiB/s, $(( rh / 1024 )) MiB peak RSS |"
echo "| 1 GiB corpus, 40 sessions (same run) | $tb s, $(rate "$big_bytes" "$tb") MiB/s |"
echo "| one small session ($(( small_bytes >> 20 )) MiB) | $ts s, $(rate "$small_bytes" "$ts") MiB/s |"
echo "| 4 GiB session bytes/s ÷ 1 GiB corpus bytes/s | $(python3 -c "print(round(($huge_bytes/$th)/($big_bytes/$tb), 2))") |"
echo "| 4 GiB session bytes/s ÷ one small session bytes/s | $(python3 -c "print(round(($huge_bytes/$th)/($small_bytes/$ts), 2))") |"
echo "| CPU seconds per GiB (user + system, median): 4 GiB session / 1 GiB corpus | $(python3 -c "print(round($ch / ($huge_bytes / 2**30), 2))") / $(python3 -c "print(round($cb / ($big_bytes / 2**30), 2))") |"
echo "| 4 GiB session token totals | $totals |"
echo "| 1 MiB appended to a 1 GiB session: wall time p50 / max ($ROUNDS rounds) | $(pct "$BENCH_DIR/.append_us" 50) / $(pct "$BENCH_DIR/.append_us" 100) ms |"
echo "| bytes read per append (median) | $(median "${READS[@]}") |"
echo "| nothing changed, same session: p50 | $(pct "$BENCH_DIR/.same_us" 50) ms |"
echo "| after the appends: token rows, session bytes (resumed / cold) | $resumed / $cold |"
