"""The Python of a kernel unit test's data scripts in the box (op_test.py): which interpreter (one with NumPy), the
folders it needs to run, and the `python3` / `python` shims on the box's PATH that record each script's exit status
(and replay a script's recorded run through ut_pyrun.py)."""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

SCRIPT_LOG = "akgen_ut_scripts.log"


def _is_this(exe: str) -> bool:
    """Whether `exe` is the interpreter running akgen (the same path, so the same prefix and site-packages)."""
    return os.path.abspath(exe) == os.path.abspath(sys.executable)


@functools.lru_cache(maxsize=1)
def box_python() -> Path | None:
    """An interpreter with numpy for the tests' data scripts: $AKGEN_UT_PYTHON (one with the repository's test
    requirements, such as ml_dtypes), else this one, else python3 on PATH (None: none has numpy)."""
    for exe in (os.environ.get("AKGEN_UT_PYTHON"), sys.executable, shutil.which("python3")):
        if not exe:
            continue
        if _is_this(exe):  # this interpreter: asked here, not by starting one (a save's check pays no start)
            ok = importlib.util.find_spec("numpy") is not None
        else:
            try:
                ok = (
                    subprocess.run([exe, "-c", "import numpy"], capture_output=True, timeout=60).returncode
                    == 0
                )
            except (OSError, subprocess.SubprocessError):
                ok = False
        if ok:
            return Path(exe)
    return None


@functools.lru_cache(maxsize=4)
def python_roots(exe: Path) -> list[Path]:
    """The folders an interpreter needs to run (its prefix, its base prefix, the folder of the real binary)."""
    code = "import sys; print(sys.prefix); print(sys.base_prefix); print(sys.executable)"
    if _is_this(str(exe)):
        out = [sys.prefix, sys.base_prefix, sys.executable]
    else:
        try:
            out = subprocess.run(
                [str(exe), "-c", code], capture_output=True, text=True, timeout=60
            ).stdout.split()
        except (OSError, subprocess.SubprocessError):
            out = []
    roots = [Path(p) for p in out[:2]] + [Path(os.path.realpath(exe)).parent.parent]
    return [r for r in roots if str(r) not in ("/", "/usr")]


# A line of a compare script's output that says the comparison failed: many of the repositories' compare_data.py
# print "FAILED!" (or "compare result: False") and exit 0 all the same.
FAILED_LINE = r"FAILED!|^[[:space:]]*(COMPARE DATA )?FAILED\b|[Cc]ompare result:[[:space:]]*False"


def write_shims(folder: Path, exe: Path, log: Path, reuse: bool = False) -> None:
    """`python3` / `python` for the box's PATH: run `exe` and append the exit status, the folder, the arguments,
    the last line of what the script wrote on stderr (an exception's) and the first line of its output that says a
    comparison failed (FAILED_LINE) to `log`, tab-separated. `reuse`: through ut_pyrun.py, which replays a
    script's recorded run when nothing it read changed ($AKGEN_UT_SCRIPT_CACHE)."""
    folder.mkdir(parents=True, exist_ok=True)
    # -S: a replay needs no site-packages (the venv's .pth files cost a start ~0.1 s); ut_pyrun.py adds them
    # (site.main) before it runs a script
    runner = f' -S "{Path(__file__).with_name("ut_pyrun.py")}"' if reuse else ""
    text = (
        "#!/bin/sh\n# akgen op-test: the Python of a kernel unit test's data scripts\n"
        'err="${TMPDIR:-/tmp}/akgen-py.$$"\nout="${TMPDIR:-/tmp}/akgen-pyo.$$"\n'
        f'"{exe}"{runner} "$@" > "$out" 2> "$err"\nrc=$?\ncat "$out"\ncat "$err" >&2\n'
        'last=$(tail -n 1 "$err" | tr "\\t" " ")\n'
        f'said=$(grep -E -m 1 \'{FAILED_LINE}\' "$out" | tr "\\t" " ")\n'
        f'rm -f "$err" "$out"\nprintf \'%s\\t%s\\t%s\\t%s\\t%s\\n\' "$rc" "$(pwd)" "$*" "$last" "$said" >> "{log}"\n'
        "exit $rc\n"
    )
    for name in ("python3", "python"):
        if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != text:
            (folder / name).write_text(text, encoding="utf-8")
            (folder / name).chmod(0o755)
