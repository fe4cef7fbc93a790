#!/usr/bin/env bash
# Every other reader against Claude Code's (pi, Qwen Code, Copilot CLI,
# OpenCode, Kilo, Kimi CLI, Factory Droid, Cline, Hermes Agent, OpenClaw,
# Gemini CLI, Codex, Mistral Vibe), on corpora of about the same size (MIB,
# default 100), measured in one run: cold ingest into a fresh database,
# ROUNDS times (default 3), as bytes a second; each reader's ratio to Claude
# Code's (target >= 0.8). Then a home holding all fourteen agents' data
# (the others' golden corpora), ingested once: `ingest` with nothing
# changed, 20 times (target p50 <= 50 ms).
#
# Needs python3, tests/bench/agentgen.py and ../shared/bench/gen_corpus.py.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
. tests/bench/lib.sh
BENCH_DIR=${BENCH_DIR:-/tmp/sessionkit-bench}/readers
MIB=${MIB:-100}
ROUNDS=${ROUNDS:-3}
mkdir -p "$BENCH_DIR"
cargo build --release --quiet --bin sessionkit
SK=$ROOT/target/release/sessionkit
GEN=$ROOT/../shared/bench/gen_corpus.py
# About MIB of each: 20 sessions, responses padded to fill it.
sessions=20
claude=$BENCH_DIR/claude
[ -f "$claude/expected_totals.json" ] || python3 "$GEN" --out "$claude" --sessions $sessions --mib-per-session $((MIB / sessions)) --seed 1 >/dev/null
declare -A FOLDER=([pi]=sessions [qwen]=projects [copilot]=session-state [opencode]=. [kilo]=. [kimi]=sessions
  [droid]=sessions [cline]=sessions [hermes]=. [openclaw]=. [gemini]=tmp [codex]=sessions [vibe]=unified)
READERS=${READERS:-"pi qwen copilot opencode kilo kimi droid cline hermes openclaw gemini codex vibe"}
for f in $READERS; do
  [ -f "$BENCH_DIR/$f/expected_totals.json" ] ||
    python3 tests/bench/agentgen.py $f "$BENCH_DIR/$f" --sessions $sessions --responses 500 --pad $((MIB * 1048576 / sessions / 500)) >/dev/null
done
bytes() { du -sb --exclude=expected_totals.json "$1" | cut -f1; }
rate() {  # rate NAME ROOT: mean bytes/s of a cold ingest over ROUNDS
  local name=$1 root=$2 size; size=$(bytes "$root")
  rm -f "$BENCH_DIR/$name.us"
  for _ in $(seq "$ROUNDS"); do
    rm -f "$BENCH_DIR/t.db"*
    timed "$BENCH_DIR/$name.us" "$SK" --db "$BENCH_DIR/t.db" ingest --root "$root" --quiet
  done
  awk -v s="$size" '{t+=$1} END {printf "%.0f", s / (t / NR / 1e6)}' "$BENCH_DIR/$name.us"
}
base=$(rate claude "$claude/projects")
printf "%-10s %10s MiB/s  ratio\n" reader ""
printf "%-10s %10.1f MiB/s  1.00 (baseline)\n" claude-code "$(echo "$base / 1048576" | bc -l)"
for f in $READERS; do
  r=$(rate $f "$BENCH_DIR/$f/${FOLDER[$f]}")
  printf "%-10s %10.1f MiB/s  %.2f\n" $f "$(echo "$r / 1048576" | bc -l)" "$(echo "$r / $base" | bc -l)"
done
# All fourteen agents in one home: nothing changed.
home=$BENCH_DIR/home
if [ ! -d "$home" ]; then
  mkdir -p "$home/.claude" "$home/.codex" "$home/.gemini" "$home/.pi/agent" "$home/.qwen" "$home/.copilot" "$home/.local/share"
  cp -r "$claude/projects" "$home/.claude/projects"
  cp -r fixtures/codex-0.171/sessions "$home/.codex/sessions"
  cp -r fixtures/gemini-0.61/tmp "$home/.gemini/tmp"
  cp -r "$BENCH_DIR/pi/sessions" "$home/.pi/agent/sessions"
  cp -r "$BENCH_DIR/qwen/projects" "$home/.qwen/projects"
  cp -r "$BENCH_DIR/copilot/session-state" "$home/.copilot/session-state"
  mkdir -p "$home/.local/share/opencode" && cp "$BENCH_DIR/opencode/opencode.db" "$home/.local/share/opencode/"
  mkdir -p "$home/.kimi" "$home/.factory" && cp -r "$BENCH_DIR/kimi/sessions" "$home/.kimi/sessions"
  cp "$BENCH_DIR/kimi/kimi.json" "$home/.kimi/" && cp -r "$BENCH_DIR/droid/sessions" "$home/.factory/sessions"
  g=fixtures/golden
  mkdir -p "$home/.cline/data" "$home/.local/share/kilo" "$home/.vibe/logs/session"
  cp -r "$g/cline/corpus/sessions" "$home/.cline/data/sessions"
  cp "$g/kilo/corpus/kilo/kilo.db" "$home/.local/share/kilo/"
  cp -r "$g/hermes/corpus/.hermes" "$home/.hermes"
  cp -r "$g/openclaw/corpus/.openclaw" "$home/.openclaw"
  cp -r "$g/vibe/corpus/unified" "$home/.vibe/logs/session/unified"
fi
rm -f "$BENCH_DIR/home.db"* "$BENCH_DIR/idle.us"
env -i PATH="$PATH" HOME="$home" "$SK" --db "$BENCH_DIR/home.db" ingest --quiet >/dev/null
for _ in $(seq 20); do
  timed "$BENCH_DIR/idle.us" env -i PATH="$PATH" HOME="$home" "$SK" --db "$BENCH_DIR/home.db" ingest --quiet
done
echo "ingest, nothing changed, fourteen agents ($(env -i PATH="$PATH" HOME="$home" "$SK" --db "$BENCH_DIR/home.db" sessions --format jsonl | wc -l) sessions): p50 $(pct "$BENCH_DIR/idle.us" 50) ms, p99 $(pct "$BENCH_DIR/idle.us" 99) ms"
