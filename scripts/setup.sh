#!/usr/bin/env bash
# Set up .venv with akgen-lsp. Safe to run again.
#   bash scripts/setup.sh          the tool itself: `akgen check`, `akgen serve`, `akgen sim`, `akgen bench`
#   bash scripts/setup.sh --dev    also the test tools, Ray, and the model backends the tests exercise (llama-cpp-python is
#                                  built from source, ~3.5 min the first time; torch CPU + transformers, ~0.9 GB)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
DEV=0
[ "${1:-}" = "--dev" ] && DEV=1
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
. .venv/bin/activate
python -m pip install -q --upgrade pip
if [ "$DEV" = 1 ]; then
  # llama.cpp built for any x86-64 CPU, not only this one, before the dev extra so pip does not build it natively.
  python -c 'import llama_cpp' 2>/dev/null || \
    CMAKE_ARGS="-DGGML_NATIVE=OFF" python -m pip install -q 'llama-cpp-python[server]==0.3.36'
  python -m pip install -q -e '.[dev,ray]'
  # The CPU build of torch, pinned before transformers so pip never picks a multi-GB CUDA build.
  python -m pip install -q 'torch==2.13.0'
  python -m pip install -q 'transformers>=4.51'
  # code-server, playwright-core and Neovim 0.12 for the editor end-to-end tests; those tests fail, saying what to
  # run, when this could not install them (it needs node/npm; chromium and neovim 0.7 come from apt, see .ci/run)
  # (AKGEN_SETUP_NO_E2E=1: the caller installs them itself, as .ci/run does in parallel)
  [ "${AKGEN_SETUP_NO_E2E:-0}" = 1 ] || bash scripts/install-e2e.sh || \
    echo "setup: the editor end-to-end tools are not installed (see above)" >&2
else
  python -m pip install -q -e .
fi
# Kernels are compiled and run only in bubblewrap's sandbox (docs/sim.md, "Security model").
if ! command -v bwrap >/dev/null 2>&1; then
  echo "note: bubblewrap (bwrap) is not installed: akgen refuses to compile or run kernels until it is" \
       "(Debian/Ubuntu: apt-get install bubblewrap), unless you set sim.sandbox = \"off\"" >&2
fi
