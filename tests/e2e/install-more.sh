#!/usr/bin/env bash
# install-more.sh PREFIX — install the pinned agent CLIs the end-to-end
# suite drives against the OpenAI-compatible fake server (idempotent):
#
#   PREFIX/pi/        @mariozechner/pi-coding-agent
#   PREFIX/opencode/  opencode-ai (the platform binary is run directly)
#   PREFIX/qwen/      @qwen-code/qwen-code
#   PREFIX/copilot/   @github/copilot
#   PREFIX/droid/     @factory/cli-linux-x64 (Factory Droid's binary, run
#                     directly; its launcher's own version has no binary)
#   PREFIX/kilo/      @kilocode/cli-linux-x64 (Kilo's binary, the same way)
#   PREFIX/cline/     cline
#   PREFIX/hermes/    hermes-agent (PyPI, a virtual environment)
#   PREFIX/kimi/      kimi-cli (PyPI, a virtual environment)
#
# Only the npm registry and PyPI are contacted.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: install-more.sh PREFIX" >&2; exit 2; }
mkdir -p "$1"
prefix=$(cd "$1" && pwd)
install() {  # install DIR PACKAGE VERSION [npm flags]
  local dir=$prefix/$1 pkg=$2 ver=$3; shift 3
  local pj=$dir/node_modules/$pkg/package.json
  if [ -f "$pj" ] && [ "$(node -p "require(process.argv[1]).version" "$pj")" = "$ver" ]; then
    return
  fi
  echo "install-more.sh: $pkg@$ver" >&2
  npm i --prefix "$dir" --no-audit --no-fund "$@" "$pkg@$ver" >&2
}
install pi @mariozechner/pi-coding-agent 0.73.1
install opencode opencode-ai 1.18.33 --ignore-scripts
install qwen @qwen-code/qwen-code 0.24.4
install copilot @github/copilot 1.0.102 --ignore-scripts
install droid @factory/cli-linux-x64 0.225.2 --ignore-scripts
install kilo @kilocode/cli-linux-x64 7.7.9 --ignore-scripts
install cline cline 3.0.65

# The clients from PyPI, each in a virtual environment of a Python its
# release supports (the first of CANDIDATES that runs and fits).
pyinstall() {  # pyinstall DIR PACKAGE VERSION MIN_MINOR MAX_MINOR
  local dir=$prefix/$1 pkg=$2 ver=$3 lo=$4 hi=$5 py=
  if [ -x "$dir/bin/python3" ] && [ "$("$dir/bin/pip" show "$pkg" 2>/dev/null | sed -n 's/^Version: //p')" = "$ver" ]; then
    return
  fi
  for c in python3 python3.13 python3.12 python3.11; do
    local minor
    minor=$("$c" -c 'import sys; print(sys.version_info[0] * 100 + sys.version_info[1])' 2>/dev/null) || continue
    if [ "$minor" -ge "$lo" ] && [ "$minor" -le "$hi" ]; then py=$c; break; fi
  done
  if [ -z "$py" ]; then
    echo "install-more.sh: $pkg needs Python 3.$((lo % 100))–3.$((hi % 100)); none found" >&2
    return 1
  fi
  echo "install-more.sh: $pkg==$ver with $py" >&2
  rm -rf "$dir"
  "$py" -m venv "$dir"
  "$dir/bin/pip" install -q --disable-pip-version-check "$pkg==$ver" >&2
}
status=0
pyinstall hermes hermes-agent 0.19.0 311 313 || status=1
if pyinstall kimi kimi-cli 1.52.0 312 313; then
  # Its last release's `kimi` only points at its successor (and, run bare,
  # would fetch an installer): the original command, through a wrapper.
  cat >"$prefix/kimi/bin/kimi-orig" <<PY
#!$prefix/kimi/bin/python3
import sys
from kimi_cli.__main__ import run_original_cli
sys.argv[0] = "kimi"
sys.exit(run_original_cli(sys.argv[1:]))
PY
  chmod +x "$prefix/kimi/bin/kimi-orig"
else
  status=1
fi
exit $status
