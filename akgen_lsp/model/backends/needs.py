"""What a backend needs that this Python lacks, with the command that installs it (no import: find_spec only)."""

from __future__ import annotations

_TORCH_CPU = "torch --index-url https://download.pytorch.org/whl/cpu"


def backend_missing(kind: str) -> str | None:
    """What the backend `kind` needs and this Python lacks, as a sentence with the command that installs it (into
    the Python that runs akgen); None when it can load. Nothing is imported (find_spec only)."""
    import importlib.util
    import sys

    pip = f"{sys.executable} -m pip install"
    if kind == "llama_cpp" and importlib.util.find_spec("llama_cpp") is None:
        return (
            f"the llama_cpp backend needs llama-cpp-python, which is not installed: run `CMAKE_ARGS="
            f"-DGGML_NATIVE=OFF {pip} 'llama-cpp-python==0.3.36'` (a source build, about 3.5 minutes), or set "
            "model.backend to transformers or openai"
        )
    if kind == "transformers":
        lacking = [m for m in ("torch", "transformers") if importlib.util.find_spec(m) is None]
        if lacking:
            steps = (
                [f"`{pip} {_TORCH_CPU}` (the CPU build, about 190 MB)"] if "torch" in lacking else []
            ) + ([f"`{pip} 'transformers>=4.51'`"] if "transformers" in lacking else [])
            return (
                f"the transformers backend needs {' and '.join(lacking)}, not installed: run "
                f"{' then '.join(steps)}, or set model.backend to llama_cpp or openai"
            )
    return None
