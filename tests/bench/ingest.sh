#!/usr/bin/env bash
# Ingest benchmark. Everything is measured in one run, side by side,
# and reported as ratios; nothing here is asserted by the test suite.
#
#   tests/bench/ingest.sh            # 1 GiB corpus, 3 rounds
#   ROUNDS=5 BENCH_DIR=/tmp/b tests/bench/ingest.sh
#
# Needs python3 and ../shared/bench/gen_corpus.py; installs ccusage@20.0.24
# from the npm registry into $BENCH_DIR/ccusage (npm i --prefix; set
# CCUSAGE=/path/to/ccusage to use another one).
set -euo pipefail
# The transcript projection alone: the search index (on by default) adds
# its own cost, measured beside ccusage by tests/bench/search.sh.
export SESSIONKIT_SEARCH_INDEX=${SESSIONKIT_SEARCH_INDEX:-off}
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
ROOT=$PWD
GEN=${GEN:-$ROOT/../shared/bench/gen_corpus.py}
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
ROUNDS=${ROUNDS:-3}
mkdir -p "$BENCH_DIR"

cargo build --release --quiet --bin sessionkit --example floor
SK=$ROOT/target/release/sessionkit
FLOOR=$ROOT/target/release/examples/floor

big=$(bench_corpus)
many=$BENCH_DIR/corpus_many
if [ ! -f "$many/.ready" ]; then
  # 150 sessions; nested subagent files multiplied to 2,500 in all.
  rm -rf "$many"
  python3 "$GEN" --out "$many" --sessions 150 --mib-per-session 0.15 --seed 2 >/dev/null
  python3 - "$many/projects" <<'PY'
import os, shutil, sys
root = sys.argv[1]
files = []
for d, _, fs in os.walk(root):
    files += [os.path.join(d, f) for f in fs if f.startswith("agent-") and f.endswith(".jsonl")]
files.sort()
n, i = len(files), 0
while n < 2500:
    src = files[i % len(files)]
    d, f = os.path.split(src)
    shutil.copy(src, os.path.join(d, f.replace("agent-", "agent-c%04d" % i, 1)))
    n, i = n + 1, i + 1
PY
  touch "$many/.ready"
fi

ccusage=()
if [ -n "${CCUSAGE:-}" ]; then
  ccusage=("$CCUSAGE")
else
  cc_bin=$BENCH_DIR/ccusage/node_modules/.bin/ccusage
  if [ ! -x "$cc_bin" ] && command -v npm >/dev/null; then
    timeout 300 npm i --prefix "$BENCH_DIR/ccusage" ccusage@20.0.24 >/dev/null 2>&1 || true
  fi
  if [ -x "$cc_bin" ] && "$cc_bin" --version >/dev/null 2>&1; then
    ccusage=("$cc_bin")
  fi
fi

# time_it CMD... -> prints "seconds max_rss_kib"
time_it() {
  /usr/bin/time -o "$BENCH_DIR/.time" -f "%e %M" "$@" >/dev/null 2>/dev/null
  tail -1 "$BENCH_DIR/.time"
}

cat "$big"/projects/*/*.jsonl "$big"/projects/*/*/subagents/*.jsonl >/dev/null 2>&1 || true
gib=$(python3 -c "import json;print(json.load(open('$big/expected_totals.json'))['jsonl_bytes']/2**30)")
echo "corpus: $(printf %.2f "$gib") GiB, 40 sessions; rounds: $ROUNDS"

declare -a T_FLOOR=() T_INGEST=() T_CC=() R_INGEST=() R_CC=()
for r in $(seq 1 "$ROUNDS"); do
  read -r t m < <(time_it "$FLOOR" "$big/projects"); T_FLOOR+=("$t")
  rm -f "$BENCH_DIR"/cold.db*
  read -r t m < <(time_it "$SK" --db "$BENCH_DIR/cold.db" ingest --root "$big/projects" --quiet); T_INGEST+=("$t"); R_INGEST+=("$m")
  if [ ${#ccusage[@]} -gt 0 ]; then
    read -r t m < <(CLAUDE_CONFIG_DIR=$big time_it "${ccusage[@]}" daily --json --offline); T_CC+=("$t"); R_CC+=("$m")
  fi
  echo "round $r: floor ${T_FLOOR[-1]} s, ingest ${T_INGEST[-1]} s (${R_INGEST[-1]} KiB)${T_CC:+, ccusage ${T_CC[-1]:-} s}"
done

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
mf=$(median "${T_FLOOR[@]}"); mi=$(median "${T_INGEST[@]}"); ri=$(median "${R_INGEST[@]}")

# Nothing changed: the second run over the 1 GiB corpus reads no transcript byte.
again=$("$SK" --db "$BENCH_DIR/cold.db" ingest --root "$big/projects" --json)
read -r t_again m_again < <(time_it "$SK" --db "$BENCH_DIR/cold.db" ingest --root "$big/projects" --quiet)
bytes_again=$(echo "$again" | python3 -c "import json,sys;print(json.load(sys.stdin)['bytes_read'])")

# Append 1 MiB to one session: only that session is read again.
victim=$(ls -S "$big"/projects/*/*.jsonl | sed -n 1p)  # sed reads all: no SIGPIPE under pipefail
cp "$victim" "$BENCH_DIR/victim.bak"
python3 - "$victim" <<'PY'
import json, sys
path = sys.argv[1]
sid = path.rsplit("/", 1)[1][:-6]
rec = {"type": "user", "sessionId": sid, "timestamp": "2026-01-01T00:00:00.000Z",
       "message": {"role": "user", "content": "x" * 4000}}
line = json.dumps(rec) + "\n"
with open(path, "a") as f:
    f.write(line * (2**20 // len(line) + 1))
PY
append=$(/usr/bin/time -o "$BENCH_DIR/.time" -f "%e %M" "$SK" --db "$BENCH_DIR/cold.db" ingest --root "$big/projects" --json)
read -r t_append m_append < <(tail -1 "$BENCH_DIR/.time")
cp "$BENCH_DIR/victim.bak" "$victim"
"$SK" --db "$BENCH_DIR/cold.db" ingest --root "$big/projects" --quiet >/dev/null
app_updated=$(echo "$append" | python3 -c "import json,sys;d=json.load(sys.stdin);print(d['sessions_updated'], d['sessions_unchanged'], d['bytes_read'])")

# 150 sessions and 2,500 subagent files, nothing changed (median of 5).
rm -f "$BENCH_DIR"/many.db*
"$SK" --db "$BENCH_DIR/many.db" ingest --root "$many/projects" --quiet >/dev/null
T_MANY=()
for _ in 1 2 3 4 5; do read -r t m < <(time_it "$SK" --db "$BENCH_DIR/many.db" ingest --root "$many/projects" --quiet); T_MANY+=("$t"); done
n_agents=$(find "$many/projects" -name 'agent-*.jsonl' | wc -l)

echo
echo "| measure | value |"
echo "|---|---|"
echo "| floor: serde_json IgnoredAny, $(nproc) threads (median) | $mf s |"
echo "| cold \`sessionkit ingest\` (median) | $mi s, $(( ri / 1024 )) MiB peak RSS |"
echo "| ingest / floor | $(python3 -c "print(round($mi/$mf, 2))")x |"
if [ ${#T_CC[@]} -gt 0 ]; then
  mc=$(median "${T_CC[@]}"); rc=$(median "${R_CC[@]}")
  echo "| \`ccusage daily --json --offline\` v20.0.24 (median) | $mc s, $(( rc / 1024 )) MiB peak RSS |"
  echo "| ingest / ccusage | $(python3 -c "print(round($mi/$mc, 2))")x |"
else
  echo "| ccusage | not installable here; skipped |"
fi
echo "| second run, nothing changed (1 GiB corpus) | $t_again s, transcript bytes read: $bytes_again, $(( m_again / 1024 )) MiB RSS |"
echo "| after appending 1 MiB to one session | $t_append s; updated, unchanged, bytes read: $app_updated |"
echo "| nothing changed, 150 sessions + $n_agents subagent files (median of 5) | $(median "${T_MANY[@]}") s |"
