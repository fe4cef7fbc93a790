#!/usr/bin/env bash
# Memory at size (issue 6): with 100,000 memories, `remember` <= 10 ms,
# `recall` <= 20 ms, `memories --kind commitment` <= 20 ms. The memories come
# from a generator of realistic text (Zipf-distributed words, 20 projects,
# every kind, 5% commitments) loaded with `sessionkit import`. Baselines in
# the same run: `sessionkit --version` (process start) and the same commands
# on a database of 100 memories.
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
N=${N:-100000}
CALLS=${CALLS:-100}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
gen() {  # gen COUNT FILE
  python3 - "$1" "$2" <<'PY'
import json, random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rnd = random.Random(7)
syll = ["ka", "lo", "mi", "ne", "ru", "ta", "shi", "po", "ve", "dra", "qu", "zen", "bor", "fil", "gat"]
vocab = sorted({"".join(rnd.choice(syll) for _ in range(rnd.randint(2, 4))) for _ in range(9000)})[:6000]
weights = [1.0 / (i + 1) for i in range(len(vocab))]          # Zipf
kinds = ["decision"] * 20 + ["fact"] * 20 + ["note"] * 15 + ["finding"] * 10 + ["convention"] * 8 + \
        ["constraint"] * 6 + ["pattern"] * 6 + ["preference"] * 5 + ["commitment"] * 5 + ["blocker"] * 3 + ["stage"] * 2
def ts(ms):
    s, ms = divmod(ms, 1000); m, s = divmod(s, 60); h, m = divmod(m, 60); d, h = divmod(h, 24)
    return "2026-%02d-%02dT%02d:%02d:%02d.%03dZ" % (1 + d // 28, 1 + d % 28, h, m, s, ms)
with open(path, "w") as f:
    tail = []
    for i in range(n):
        kind = rnd.choice(kinds)
        words = rnd.choices(vocab, weights, k=rnd.randint(15, 70))
        t = ts(i * 1500)
        mid = "01900000-%04x-7%03x-8%03x-%012x" % (i >> 16, i & 0xfff, i % 4096, i)
        f.write(json.dumps({"type": "memory", "memory_id": mid, "kind": kind,
            "topic": " ".join(rnd.choices(vocab, weights, k=rnd.randint(2, 6))) + " %d" % i,
            "description": None, "content": " ".join(words) + ".", "project": "proj-%02d" % (i % 20),
            "scope": "project", "tags": sorted(set(rnd.choices(vocab[:200], k=rnd.randint(0, 3)))), "status": "active",
            "pinned": False, "redacted": False, "supersedes": None, "valid_from": t, "valid_to": None,
            "created_at": t, "updated_at": t}, sort_keys=True) + "\n")
        if kind == "commitment":
            tail.append(json.dumps({"type": "commitment", "memory_id": mid, "status": rnd.choice(["open", "open", "waiting", "resolved"]),
                "due_at": None, "owner": None, "resolved_at": None, "updated_at": t}, sort_keys=True))
        tail.append(json.dumps({"type": "event", "event_id": "01900000-%04x-7%03x-9%03x-%012x" % (i >> 16, i & 0xfff, i % 4096, i),
            "memory_id": mid, "kind": "create", "actor": "importer", "session_run_id": None, "reason": None, "created_at": t}, sort_keys=True))
    f.write("\n".join(tail) + "\n")
PY
}
big=$BENCH_DIR/mem$N.db
small=$BENCH_DIR/mem100.db
for pair in "$N:$big" "100:$small"; do
  count=${pair%%:*}; db=${pair#*:}
  if [ ! -f "$db" ] || [ "${RESEED:-0}" = 1 ]; then
    rm -f "$db"*
    gen "$count" "$BENCH_DIR/mem$count.jsonl"
    start=$(date +%s%N)
    "$SK" --db "$db" import "$BENCH_DIR/mem$count.jsonl" --quiet --format jsonl >/dev/null
    end=$(date +%s%N)
    echo "imported $count memories in $(( (end - start) / 1000000 )) ms" >&2
  fi
done
rm -f "$BENCH_DIR"/memwork*.db*
cp "$big" "$BENCH_DIR/memwork-big.db"; cp "$small" "$BENCH_DIR/memwork-small.db"
for size in big small; do  # migrate a database an older build made, untimed
  "$SK" --db "$BENCH_DIR/memwork-$size.db" config list >/dev/null
done
sync
words=(kalo mita neru tashi pove drazen borfil gatqu lone mishi rupo veka)
: >"$BENCH_DIR/m-ver.txt"
for f in remember-big remember-small recall-big recall-small; do : >"$BENCH_DIR/m-$f.txt"; done
for n in $(seq 1 "$CALLS"); do
  w1=${words[$((n % 12))]}; w2=${words[$(((n * 7) % 12))]}
  timed "$BENCH_DIR/m-ver.txt" "$SK" --version
  for size in big small; do
    db=$BENCH_DIR/memwork-$size.db
    timed "$BENCH_DIR/m-remember-$size.txt" "$SK" --db "$db" remember --kind finding --topic "bench $n $w1" \
      --content "measured $w1 $w2 against the $n-th sample of the cache, run $RANDOM" --project proj-03
    timed "$BENCH_DIR/m-recall-$size.txt" "$SK" --db "$db" recall "$w1 $w2" --format jsonl
  done
done
median_ms() {
  local f=$BENCH_DIR/m-med.txt; : >"$f"
  for _ in $(seq 1 21); do timed "$f" "$@"; done
  pct "$f" 50
}
list_big=$(median_ms "$SK" --db "$BENCH_DIR/memwork-big.db" memories --kind commitment --format jsonl)
list_small=$(median_ms "$SK" --db "$BENCH_DIR/memwork-small.db" memories --kind commitment --format jsonl)
list_proj=$(median_ms "$SK" --db "$BENCH_DIR/memwork-big.db" memories --kind commitment --project proj-03 --format jsonl)
listed_proj=$("$SK" --db "$BENCH_DIR/memwork-big.db" memories --kind commitment --project proj-03 --format jsonl | wc -l)
listed=$("$SK" --db "$BENCH_DIR/memwork-big.db" memories --kind commitment --format jsonl | wc -l)
echo "| measure ($CALLS calls, interleaved) | $N memories p50 | p99 | 100 memories p50 | p99 |"
echo "|---|---|---|---|---|"
echo "| baseline: \`sessionkit --version\` | $(pct "$BENCH_DIR/m-ver.txt" 50) | $(pct "$BENCH_DIR/m-ver.txt" 99) | | |"
echo "| \`remember\` (target 10 ms) | $(pct "$BENCH_DIR/m-remember-big.txt" 50) | $(pct "$BENCH_DIR/m-remember-big.txt" 99) | $(pct "$BENCH_DIR/m-remember-small.txt" 50) | $(pct "$BENCH_DIR/m-remember-small.txt" 99) |"
echo "| \`recall\` two words (target 20 ms) | $(pct "$BENCH_DIR/m-recall-big.txt" 50) | $(pct "$BENCH_DIR/m-recall-big.txt" 99) | $(pct "$BENCH_DIR/m-recall-small.txt" 50) | $(pct "$BENCH_DIR/m-recall-small.txt" 99) |"
echo "| \`memories --kind commitment\` (median of 21; $listed rows; target 20 ms) | $list_big | | $list_small | |"
echo "| \`memories --kind commitment --project proj-03\` (median of 21; $listed_proj rows) | $list_proj | | | |"
