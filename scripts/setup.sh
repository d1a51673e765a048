#!/usr/bin/env bash
# Set up .venv with akgen-lsp. Safe to run again.
#   bash scripts/setup.sh          the tool itself: `akgen check`, `akgen serve`, `akgen sim`, `akgen bench`; saving a
#                                  kernel with a task checks it (references run with NumPy, no torch needed)
#   bash scripts/setup.sh --torch  also the CPU build of torch (about 190 MB), for a task whose reference only torch runs
#   bash scripts/setup.sh --dev    also the test tools, Ray, and the model backends the tests exercise (llama-cpp-python is
#                                  built from source, ~3.5 min the first time; torch CPU + transformers, ~0.9 GB), the
#                                  system packages the tests need (as root with apt-get; otherwise it names them) and
#                                  the real editors of the end-to-end tests (scripts/install-e2e.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
DEV=0
TORCH=0
for arg in "$@"; do
  case "$arg" in
    --dev) DEV=1; TORCH=1 ;;
    --torch) TORCH=1 ;;
    *) echo "setup: unknown option $arg (use --dev or --torch)" >&2; exit 2 ;;
  esac
done
# The CPU build of torch: PyPI's Linux wheel is the CUDA one (several GB); the CPU index's is about 190 MB.
TORCH_INDEX=${AKGEN_TORCH_INDEX:-https://download.pytorch.org/whl/cpu}

# System packages, found by the command they provide (a package already there is never asked for again):
# bubblewrap for the sandbox every check runs kernels in; for --dev also what the tests drive or build with. (By
# command: NodeSource's nodejs ships npm, and asking apt for Debian's npm beside it fails as "held broken packages".)
sys_need=()
pairs=(bwrap:bubblewrap g++:g++)
[ "$DEV" = 1 ] && pairs+=(nvim:neovim chromium:chromium rg:ripgrep node:nodejs npm:npm make:build-essential
                          cmake:cmake)
for pair in "${pairs[@]}"; do
  command -v "${pair%%:*}" >/dev/null 2>&1 || sys_need+=("${pair#*:}")
done
if [ "$DEV" = 1 ]; then
  # code-server's kerberos module builds against these headers; libseccomp2 is on every Debian
  [ -e /usr/include/krb5.h ] || [ -e /usr/include/gssapi/gssapi.h ] || sys_need+=(libkrb5-dev)
  # the operator repositories' kernel UTs (akgen sim op-test): GTest, and nlohmann JSON for their tiling harness
  [ -e /usr/include/gtest/gtest.h ] || sys_need+=(libgtest-dev)
  [ -e /usr/include/nlohmann/json.hpp ] || sys_need+=(nlohmann-json3-dev)
fi
if [ ${#sys_need[@]} -gt 0 ]; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "setup: installing ${sys_need[*]} with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${sys_need[@]}" >/dev/null
  else
    echo "setup: missing system packages: ${sys_need[*]}; install them with" \
         "\`sudo apt-get install ${sys_need[*]}\` (Debian/Ubuntu names; run this again after)" >&2
    [ "$DEV" = 1 ] && echo "setup: the tests that need them fail, each naming what is missing" >&2
  fi
fi

uv_list=() uv_read=0
uv_install() {  # uv pip install "$@" into .venv, with pip's index settings (uv is installed first when missing)
  [ -x .venv/bin/uv ] || .venv/bin/python -m pip install -q uv || return 1
  if [ "$uv_read" = 0 ]; then
    # pip's settings, read once, by the venv's pip or the system's while the venv has none yet
    local args
    args=$(.venv/bin/python scripts/pip_to_uv.py 2>/dev/null || "$PY" scripts/pip_to_uv.py) || return 1
    [ -z "$args" ] || mapfile -t uv_list <<<"$args"
    uv_read=1
  fi
  .venv/bin/uv pip install -q --python .venv/bin/python ${uv_list[@]+"${uv_list[@]}"} "$@"
}

if [ ! -x .venv/bin/python ]; then
  # A venv without pip (0.2 s); the system's pip (22.3 or newer: --python) puts uv in it, and uv puts pip: 19 s
  # against 51 s for ensurepip's pip then that pip installing uv (load 15). Otherwise the venv's own pip (ensurepip).
  if [ "${AKGEN_SETUP_PIP:-0}" != 1 ] && "$PY" -m venv --without-pip .venv &&
     "$PY" -m pip --python .venv/bin/python install -q uv 2>/dev/null && uv_install pip; then :
  else
    rm -rf .venv
    "$PY" -m venv .venv
  fi
fi
. .venv/bin/activate
# The venv's own pip (Python 3.11's is 23.0) installs all of this: only one older than 22 (no PEP 660 editable
# installs before 21.3) is upgraded, which saves a download and a reinstall of pip (about 9 s here).
python -c 'import sys, importlib.metadata as m; sys.exit(int(m.version("pip").split(".")[0]) < 22)' || \
  python -m pip install -q --upgrade pip

install_torch() {
  python -c 'import torch' 2>/dev/null && return 0
  echo "setup: installing the CPU build of torch (a download of about 190 MB, 0.7 GB installed) from $TORCH_INDEX"
  python -m pip install -q 'torch==2.13.0+cpu' --extra-index-url "$TORCH_INDEX"
}

if [ "$DEV" = 1 ]; then
  # llama.cpp built for any x86-64 CPU, not only this one, before the dev extra so pip does not build it natively.
  python -c 'import llama_cpp' 2>/dev/null || \
    CMAKE_ARGS="-DGGML_NATIVE=OFF" python -m pip install -q 'llama-cpp-python[server]==0.3.36'
  python -m pip install -q -e '.[dev,ray]'
  # The CPU build of torch, pinned before transformers so pip never picks a multi-GB CUDA build.
  install_torch
  python -m pip install -q 'transformers>=4.51'
  # code-server, playwright-core and Neovim 0.12 for the editor end-to-end tests; those tests fail, saying what to
  # run, when this could not install them (it needs node/npm, installed above as root)
  # (AKGEN_SETUP_NO_E2E=1: the caller installs them itself, as .ci/run does in parallel)
  [ "${AKGEN_SETUP_NO_E2E:-0}" = 1 ] || bash scripts/install-e2e.sh || \
    echo "setup: the editor end-to-end tools are not installed (see above)" >&2
else
  # uv (from PyPI) downloads and installs the ~50 packages in parallel: 22 s with its own install against pip's 69 s
  # (empty caches, load 9). It gets pip's index settings (scripts/pip_to_uv.py: a mirror in pip.conf reaches it
  # too); pip installs when uv cannot. AKGEN_SETUP_PIP=1: pip only.
  if [ "${AKGEN_SETUP_PIP:-0}" != 1 ] && uv_install -e .; then :
  else
    [ "${AKGEN_SETUP_PIP:-0}" = 1 ] || echo "setup: uv could not install akgen-lsp (see above); pip installs it" >&2
    python -m pip install -q -e .
  fi
  if [ "$TORCH" = 1 ]; then install_torch; fi
fi
# Kernels are compiled and run only in bubblewrap's sandbox (docs/sim.md, "Security model").
if ! command -v bwrap >/dev/null 2>&1; then
  echo "note: bubblewrap (bwrap) is not installed: akgen refuses to compile or run kernels until it is" \
       "(Debian/Ubuntu: apt-get install bubblewrap), unless you set sim.sandbox = \"off\"" >&2
fi
# What check on save needs, each missing piece one line with its fix (the same report as the editors' health checks).
.venv/bin/akgen info samples/ | grep '^NOT' >&2 || true
