#!/usr/bin/env bash
# Installs the MCP clients the `mcp` tests drive `sessionkit mcp` with, into
# PREFIX (default ~/.cache/sessionkit-mcp): the official Python SDK (`mcp`
# from PyPI, in a virtual environment) and the MCP Inspector's CLI mode
# (`@modelcontextprotocol/inspector` from npm). Idempotent; the tests find
# them through MCP_PREFIX=PREFIX and skip, saying so, without them.
set -euo pipefail
prefix=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/sessionkit-mcp}
mkdir -p "$prefix"
if ! "$prefix/venv/bin/python" -c 'import mcp' 2>/dev/null; then
  python3 -m venv "$prefix/venv"
  "$prefix/venv/bin/pip" install --quiet 'mcp==2.3.0'
fi
if [ ! -x "$prefix/inspector/node_modules/.bin/mcp-inspector" ]; then
  npm i --silent --prefix "$prefix/inspector" '@modelcontextprotocol/inspector@0.15.0'
fi
echo "install.sh: done: export MCP_PREFIX=$prefix"
