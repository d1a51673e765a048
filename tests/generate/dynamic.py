"""The forced answers of the dynamic-shape tests (kernel + host tiling, every case): AbsMath's three files as the
answer's sections, and the task folder they are checked against (a copy of the bundled AbsMath with three of its
cases, float16 and float32: each answer is built once and run on all of them, a third of the task's time)."""

from __future__ import annotations

import shutil
from pathlib import Path

from akgen_lsp.bench.runner import default_suite
from akgen_lsp.generate.attempt import answer_text

FOLDER = Path(__file__).with_name("fixtures") / "abs_dynamic"
KERNEL = (FOLDER / "abs_math.cpp").read_text(encoding="utf-8")
HOST = (FOLDER / "abs_math.host.cpp").read_text(encoding="utf-8")
# the tiling header is the bundled answer's (the fixture host and kernel use its three fields)
TILING = (default_suite() / "tasks" / "level1" / "Math" / "AbsMath" / "answer" / "0" / "op_host" /
          "abs_math_tiling.h").read_text(encoding="utf-8")
# the host tiling calls a setter the tiling header does not declare (does not compile)
HOST_NO_COMPILE = HOST.replace("tiling.set_tileLength(", "tiling.set_tileLen(")
# the kernel computes -x (runs, wrong numbers)
KERNEL_WRONG = KERNEL.replace("Abs(y, x, n);", "Muls(y, x, (T)-1.0, n);")
# correct and slow: the host puts every element on one core
HOST_ONE_CORE = HOST.replace("platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv()", "1")
CASES = "case_id;shape;dtype\n1;[1000];float16\n2;[3, 7, 33];float16\n9;[1000];float32\n"
# the dynamic prompt (api_desc, reference, both templates, the cases: 3.8k tokens), the newest feedback and an
# answer of three files (3.3k tokens): the answer the feedback is about is left out of the next prompt (its failing
# file is in the report), which keeps each prompt near 7k tokens
N_CTX = 12288
MAX_TOKENS = 3800


def files(host: str = HOST, kernel: str = KERNEL, tiling: str = TILING) -> str:
    """The three file sections, as the prompt's layout asks for them."""
    return answer_text("abs_math", "dynamic", kernel, {"abs_math.cpp": host, "abs_math_tiling.h": tiling})


def answer(host: str = HOST, kernel: str = KERNEL, why: str = "Here are the three files.") -> str:
    return f"{why}\n\n{files(host, kernel)}\n"


def abs_task(root: Path) -> Path:
    """AbsMath copied to ``root/level1/Math/AbsMath`` with three cases; its question folder has no tiling header."""
    task = root / "level1" / "Math" / "AbsMath"
    shutil.copytree(default_suite() / "tasks" / "level1" / "Math" / "AbsMath", task)
    (task / "validation" / "test_cases.csv").write_text(CASES, encoding="utf-8")
    return task
