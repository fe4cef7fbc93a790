# Timing helpers shared by the benchmark scripts (source it).

# timed FILE CMD...: run CMD once (output discarded, failure ignored) and
# append its wall time in microseconds to FILE. The clock is bash's own
# EPOCHREALTIME (no process): reading it with `date` cost two extra process
# starts, about 2 ms, on every measurement before 2026-12-02 evening.
timed() {
  local out=$1; shift
  local a b; a=${EPOCHREALTIME/./}; "$@" >/dev/null 2>&1 || true; b=${EPOCHREALTIME/./}
  echo $(( b - a )) >>"$out"
}

# timed_in FILE INPUT CMD...: `timed`, with INPUT on CMD's stdin (a hook's
# payload).
timed_in() {
  local out=$1 input=$2; shift 2
  local a b; a=${EPOCHREALTIME/./}; printf '%s' "$input" | "$@" >/dev/null 2>&1 || true; b=${EPOCHREALTIME/./}
  echo $(( b - a )) >>"$out"
}

# pct FILE P: the P-th percentile of FILE's microseconds, in milliseconds.
pct() { sort -n "$1" | awk -v p="$2" '{v[NR]=$1} END {i=int(NR*p/100); if (i<1) i=1; printf "%.2f", v[i]/1000}'; }

# bench_corpus: the 1 GiB bench corpus (40 sessions of 26 MiB, seed 1) in
# $BENCH_DIR/corpus_1g, made by $GEN the first time; prints its folder.
bench_corpus() {
  local big=$BENCH_DIR/corpus_1g
  if [ ! -f "$big/expected_totals.json" ]; then
    rm -rf "$big"
    python3 "$GEN" --out "$big" --sessions 40 --mib-per-session 26 --seed 1 >/dev/null
  fi
  echo "$big"
}
