#!/usr/bin/env bash
# install-more.sh PREFIX — npm-install the pinned agent CLIs the end-to-end
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
#
# Only the npm registry is contacted.
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
