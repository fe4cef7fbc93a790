#!/usr/bin/env bash
# `sessionkit tree` on a session with 200 agents (<= 20 ms from the
# database). Reported next to a baseline measured in the same run: the same
# binary opening the same database for `config list` (process start + open).
set -euo pipefail
cd "$(dirname "$0")/../.."
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$PWD/target/release/sessionkit
root=$BENCH_DIR/tree200/projects
if [ ! -d "$root" ]; then
  python3 - "$root" <<'PY'
import json, os, sys
root = sys.argv[1]
sid = "66666666-6666-4666-8666-666666666666"
slug = os.path.join(root, "-bench-tree")
sub = os.path.join(slug, sid, "subagents")
os.makedirs(sub, exist_ok=True)
def line(o): return json.dumps(o, separators=(",", ":")) + "\n"
def ts(i): return "2026-01-01T%02d:%02d:%02d.000Z" % (i // 3600, i // 60 % 60, i % 60)
calls = {"main": []}
agents = ["a%03d" % i for i in range(200)]
for i, a in enumerate(agents):
    parent = "main" if i < 20 else agents[(i - 20) // 5]  # depth up to 3
    calls.setdefault(parent, []).append((a, i))
def write(path, owner, first):
    with open(path, "w") as f:
        f.write(line({"type": "user", "sessionId": sid, "timestamp": ts(first), "message": {"role": "user", "content": "go"}}))
        for a, i in calls.get(owner, []):
            f.write(line({"type": "assistant", "sessionId": sid, "timestamp": ts(i + 1), "message": {"id": "m_%s_%s" % (owner, a), "model": "claude-sonnet-4-5-20250929",
                "content": [{"type": "tool_use", "id": "toolu_" + a, "name": "Agent", "input": {"prompt": a, "subagent_type": "general-purpose", "description": "work " + a}}],
                "usage": {"input_tokens": 3, "output_tokens": 5}}}))
            f.write(line({"type": "user", "sessionId": sid, "timestamp": ts(i + 500), "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_" + a, "content": "ok"}]}}))
write(os.path.join(slug, sid + ".jsonl"), "main", 0)
for a, i in [(a, i) for i, a in enumerate(agents)]:
    write(os.path.join(sub, "agent-%s.jsonl" % a), a, i + 2)
    with open(os.path.join(sub, "agent-%s.meta.json" % a), "w") as f:
        f.write(json.dumps({"agentType": "general-purpose", "toolUseId": "toolu_" + a, "spawnDepth": 1}))
PY
fi
db=$BENCH_DIR/tree200.db
rm -f "$db"*
"$SK" --db "$db" ingest --root "$root" --quiet >/dev/null
median_ms() {
  local ts=()
  for _ in $(seq 1 21); do
    local a b
    a=$(date +%s%N); "$@" >/dev/null; b=$(date +%s%N)
    ts+=($(( (b - a) / 1000 )))
  done
  printf '%s\n' "${ts[@]}" | sort -n | awk '{v[NR]=$1} END {printf "%.2f", v[(NR+1)/2]/1000}'
}
base=$(median_ms "$SK" --db "$db" config list --format json)
tree=$(median_ms "$SK" --db "$db" tree 6666 --format text)
tjson=$(median_ms "$SK" --db "$db" tree 6666 --format json)
agents=$("$SK" --db "$db" show 6666 --format json | python3 -c "import json,sys;print(json.load(sys.stdin)['agents'])")
echo "| measure (median of 21, $agents agents) | ms |"
echo "|---|---|"
echo "| baseline: \`config list\` (start + open the database) | $base |"
echo "| \`tree\` text | $tree ($(python3 -c "print(round($tree/$base, 2))")x baseline) |"
echo "| \`tree --format json\` | $tjson ($(python3 -c "print(round($tjson/$base, 2))")x baseline) |"
