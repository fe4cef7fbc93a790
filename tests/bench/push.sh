#!/usr/bin/env bash
# Push benchmark: 1,000,000 messages into a PostgreSQL server started here on a
# temporary folder and a loopback port. Measured in one run, side by side:
#   floor   the same rows loaded with psql's COPY into a plain table (what the
#           server takes to store them at all)
#   push    `sessionkit push` of the whole store (upserts, one transaction a
#           session), then again with nothing new
# Reported as seconds and as push / floor; nothing here is asserted.
#
#   tests/bench/push.sh              # 1,000 pi sessions x 1,000 responses
#   SESSIONS=100 RESPONSES=100 tests/bench/push.sh
#
# Needs python3 and PostgreSQL's server programs (initdb, pg_ctl, psql).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench/push}
SESSIONS=${SESSIONS:-1000}
RESPONSES=${RESPONSES:-1000}
rm -rf "$BENCH_DIR"
mkdir -p "$BENCH_DIR"
chmod 755 "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$ROOT/target/release/sessionkit

bin=$(dirname "$(command -v initdb || ls /usr/lib/postgresql/*/bin/initdb | tail -1)")
as_pg=()
[ "$(id -u)" = 0 ] && as_pg=(runuser -u postgres --)
data=$BENCH_DIR/pgdata
mkdir -p "$data"
[ "$(id -u)" = 0 ] && chown postgres "$data" "$BENCH_DIR"
echo secret >"$BENCH_DIR/pw"
[ "$(id -u)" = 0 ] && chown postgres "$BENCH_DIR/pw"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"${as_pg[@]}" "$bin/initdb" -D "$data" -U sk --auth=scram-sha-256 --pwfile="$BENCH_DIR/pw" --no-sync >/dev/null
"${as_pg[@]}" "$bin/pg_ctl" -D "$data" -o "-p $port -k $BENCH_DIR -c listen_addresses=127.0.0.1" \
  -l "$BENCH_DIR/pg.log" -w start >/dev/null
trap '"${as_pg[@]}" "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true' EXIT
export PGPASSWORD=secret
url=postgres://sk@127.0.0.1:$port/postgres

echo "generating $SESSIONS pi sessions x $RESPONSES responses"
python3 tests/bench/agentgen.py pi "$BENCH_DIR/corpus" --sessions "$SESSIONS" --responses "$RESPONSES" --pad 0 >/dev/null
db=$BENCH_DIR/sk.db
SESSIONKIT_DB=$db "$SK" ingest --root "$BENCH_DIR/corpus/sessions" >/dev/null 2>&1
msgs=$(sqlite3 "$db" "SELECT count(*) FROM token_usage")
echo "messages in the store: $msgs"

now() { date +%s.%N; }
# The floor: the same rows, COPY into a plain table.
sqlite3 -csv "$db" "SELECT message_id, session_id, agent_id, model, occurred_at, input_tokens, output_tokens,
  cache_write_5m_tokens, cache_write_1h_tokens, cache_read_tokens, COALESCE(reasoning_tokens,0), cost_nanousd
  FROM token_usage" >"$BENCH_DIR/rows.csv"
psql -q "$url" -c "CREATE TABLE floor (message_id text PRIMARY KEY, session_id text, agent_id text, model text,
  occurred_at bigint, i bigint, o bigint, w5 bigint, w1 bigint, r bigint, reasoning bigint, cost bigint)"
t0=$(now)
psql -q "$url" -c "\\copy floor FROM '$BENCH_DIR/rows.csv' WITH (FORMAT csv)"
t1=$(now)
floor=$(python3 -c "print(round($t1 - $t0, 2))")

t0=$(now)
SESSIONKIT_DB=$db "$SK" push "$url" --machine bench --format json >"$BENCH_DIR/push.json"
t1=$(now)
push=$(python3 -c "print(round($t1 - $t0, 2))")
t0=$(now)
SESSIONKIT_DB=$db "$SK" push "$url" --machine bench --format json >"$BENCH_DIR/again.json"
t1=$(now)
again=$(python3 -c "print(round(($t1 - $t0) * 1000))")
remote=$(psql -qtA "$url" -c "SELECT count(*) FROM sessionkit_messages")
echo "pushed: $(cat "$BENCH_DIR/push.json")"
echo "rows there: $remote (store: $msgs)"
echo "floor (COPY): ${floor}s   push: ${push}s   ratio: $(python3 -c "print(round($push / $floor, 2))")   push with nothing new: ${again} ms"
