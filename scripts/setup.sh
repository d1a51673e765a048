#!/usr/bin/env bash
# Set up a virtual environment in .venv with akgen-lsp and its development tools. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
. .venv/bin/activate
python -m pip install -q --upgrade pip
# Model backends (akgen_lsp/model, tests/model): llama.cpp built for any x86-64 CPU, not only this one (~3.5 min
# the first time), before the dev extra so pip does not build it with native flags.
CMAKE_ARGS="-DGGML_NATIVE=OFF" python -m pip install -q 'llama-cpp-python[server]==0.3.36'
python -m pip install -q -e '.[dev]'
# The transformers backend's tests: the CPU build of torch, pinned before transformers so pip never picks a multi-GB
# CUDA build (~25 s from the local wheel, ~0.8 GB on disk).
python -m pip install -q 'torch==2.13.0'
python -m pip install -q 'transformers>=4.51'
