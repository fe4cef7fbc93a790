#!/usr/bin/env bash
# Seeds each fuzz target's corpus (fuzz/corpus/<target>/, not checked in)
# from the repository's fixtures and, when it is beside the repository, the
# captured corpus of real clients (../shared/corpus/captured).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
shared="${SESSIONKIT_SHARED:-$repo/../shared}"
out="$here/corpus"
mkdir -p "$out"/{transcript,hook_payload,redact,import}

# The checked-in seeds (fuzz/seeds/<target>/, which the unit tests run
# through each target on stable) start every corpus.
for t in transcript hook_payload redact import; do cp "$here/seeds/$t/"* "$out/$t/"; done

# Transcripts: every fixture file under 64 KiB as one input, plus its
# first 40 lines (small inputs mutate faster).
n=0
while IFS= read -r -d '' f; do
  n=$((n + 1))
  if [ "$(stat -c %s "$f")" -le 65536 ]; then cp "$f" "$out/transcript/fixture-$n"; fi
  head -n 40 "$f" > "$out/transcript/head-$n"
done < <(find "$repo/fixtures" "$shared/corpus/captured" -name '*.jsonl' -print0 2>/dev/null)

# Hook payloads: the captured ones, and the test fixtures' hook JSON.
if [ -d "$shared/corpus/captured/hook-payloads" ]; then
  cp "$shared"/corpus/captured/hook-payloads/*.json "$out/hook_payload/"
else
  echo "seed.sh: $shared/corpus/captured is absent: hook_payload starts from fixtures only" >&2
fi
printf '{"session_id":"s","hook_event_name":"Stop","cwd":"/tmp"}' > "$out/hook_payload/stop"

# Redaction: the payloads and text with secrets of each kind it knows.
cp "$out"/hook_payload/* "$out/redact/"
printf 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\npassword: hunter2hunter2\nhttps://user:pa55word@example.com/x\nghp_abcdefghijklmnopqrstuvwxyz0123456789\n' > "$out/redact/secrets"
printf -- '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\n' > "$out/redact/pem"

# Import: an export written by the built binary from a few memories.
db="$(mktemp -d)/seed.db"
bin="$repo/target/debug/sessionkit"
if [ -x "$bin" ]; then
  SESSIONKIT_DB="$db" "$bin" remember --kind decision --topic db --content "Use PostgreSQL" --project p >/dev/null
  id=$(SESSIONKIT_DB="$db" "$bin" remember --kind commitment --topic ship --content "Ship v2" --project p --due 2026-02-06)
  SESSIONKIT_DB="$db" "$bin" resolve "$id" >/dev/null
  SESSIONKIT_DB="$db" "$bin" export > "$out/import/export.jsonl"
else
  echo "seed.sh: build sessionkit first (cargo build) to seed the import target" >&2
fi
rm -rf "$(dirname "$db")"
for t in transcript hook_payload redact import; do
  echo "seed.sh: $t: $(ls "$out/$t" | wc -l) inputs"
done
