#!/usr/bin/env bash
# `sessionkit mcp` on the 1 GiB bench corpus's database (indexed), side by
# side with process start-up (`sessionkit --version`) in the same run:
#   - start-up to `initialize` answered: a fresh server each round, from
#     spawn to the answer's line (target <= 20 ms);
#   - `tools/call search` on one running server, the search bench's
#     queries (words in almost every text, rare words, absent words,
#     phrases, prefixes, filtered), p50 and p99 per call (target p99 <= 50 ms).
#
#   tests/bench/mcp.sh                    # 50 start-ups, 20 calls per query
#   ROUNDS=20 CALLS=50 BENCH_DIR=/tmp/b tests/bench/mcp.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/bench/lib.sh
ROOT=$PWD
GEN=${GEN:-$ROOT/../shared/bench/gen_corpus.py}
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}
ROUNDS=${ROUNDS:-50}
CALLS=${CALLS:-20}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$ROOT/target/release/sessionkit

big=$(bench_corpus)
db=$BENCH_DIR/mcp.db
if [ ! -f "$db" ]; then
  "$SK" --db "$db" ingest --root "$big/projects" --quiet >/dev/null
  "$SK" --db "$db" search kangaroo --quiet >/dev/null 2>&1 || true
fi

python3 - "$SK" "$db" "$ROUNDS" "$CALLS" <<'PY'
import json, subprocess, sys, time

sk, db, rounds, calls = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "bench", "version": "1"}}}

def pct(xs, p):
    xs = sorted(xs)
    return xs[max(0, min(len(xs) - 1, int(len(xs) * p / 100) - 1))] * 1000

def start():
    t = time.perf_counter()
    p = subprocess.Popen([sk, "--db", db, "mcp"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    p.stdin.write((json.dumps(INIT) + "\n").encode()); p.stdin.flush()
    line = p.stdout.readline()
    took = time.perf_counter() - t
    assert json.loads(line)["result"]["serverInfo"]["name"] == "sessionkit", line
    return p, took

floor, startup = [], []
for _ in range(rounds):
    t = time.perf_counter()
    subprocess.run([sk, "--version"], stdout=subprocess.DEVNULL)
    floor.append(time.perf_counter() - t)
    p, took = start()
    startup.append(took)
    p.stdin.close(); p.wait()
print(f"start-up, {rounds} rounds:")
print(f"  process start (--version)              p50 {pct(floor, 50):6.2f} ms  p99 {pct(floor, 99):6.2f} ms")
print(f"  spawn to initialize answered           p50 {pct(startup, 50):6.2f} ms  p99 {pct(startup, 99):6.2f} ms  (target <= 20 ms)")

queries = [
    {"query": "function"}, {"query": "cache index"}, {"query": "deploy release"},
    {"query": "migra"}, {"query": "\"return value\""},
    {"query": "session token", "role": "user"}, {"query": "schema", "since": "30d"},
    {"query": "build", "newest": True}, {"query": "kangaroo"},
    {"query": "docs.example.invalid"}, {"query": "WebFetch"}, {"query": "src/ledger.rs"},
]
p, _ = start()
p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'); p.stdin.flush()
every, per = [], {}
n = 1
for q in queries:
    args = dict(q, all_projects=True)
    for _ in range(calls):
        n += 1
        msg = {"jsonrpc": "2.0", "id": n, "method": "tools/call",
               "params": {"name": "search", "arguments": args}}
        t = time.perf_counter()
        p.stdin.write((json.dumps(msg) + "\n").encode()); p.stdin.flush()
        while True:
            r = json.loads(p.stdout.readline())
            if r.get("id") == n:
                break
        took = time.perf_counter() - t
        assert "result" in r and not r["result"].get("isError"), r
        every.append(took); per.setdefault(q["query"], []).append(took)
p.stdin.close(); p.wait()
print(f"tools/call search, {len(queries)} queries x {calls} calls (one server):")
print(f"  all queries                            p50 {pct(every, 50):6.2f} ms  p99 {pct(every, 99):6.2f} ms  (target p99 <= 50 ms)")
for q, xs in per.items():
    print(f"    {q:<36} p50 {pct(xs, 50):6.2f} ms  p99 {pct(xs, 99):6.2f} ms")
PY
