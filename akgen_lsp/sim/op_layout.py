"""An operator folder of CANN's operator repositories (hicann/ops-math, ops-nn layout) and the SoCs its kernel unit
test registers cases for (op_test.py builds and runs it)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

DEFAULT_SOC = "Ascend910B1"
A2A3 = re.compile(r"^ascend910(b|_93)", re.IGNORECASE)
_ADD_CASE = re.compile(r"^\s*AddOps?TestCase\s*\(([^)]*)\)", re.MULTILINE)


class OpTestError(RuntimeError):
    """The folder is not an operator with a kernel unit test, or the toolkit cannot be made; the message says what
    to do."""


@dataclass(frozen=True)
class OpLayout:
    """An operator folder of an ops-math / ops-nn style repository."""

    op: str
    op_dir: Path
    repo_root: Path
    ut_dir: Path  # tests/ut/op_kernel of the operator
    golden: Path | None  # tests/assets/golden.py

    @property
    def kernel(self) -> Path:
        return self.op_dir / "op_kernel" / f"{self.op}.cpp"


def find_op(path: str | Path) -> OpLayout | None:
    """The operator that `path` (its folder, or a file in it: op_kernel/x.cpp, a header, a test) belongs to: the
    nearest folder above it with op_kernel/ and tests/ut/op_kernel/CMakeLists.txt. The repository root is the nearest
    folder above that with tests/ut/ or a .git, else two levels up (<repo>/<category>/<op>)."""
    p = Path(path).resolve()
    for d in [p, *p.parents] if p.is_dir() else list(p.parents):
        if (d / "op_kernel").is_dir() and (d / "tests" / "ut" / "op_kernel" / "CMakeLists.txt").is_file():
            root = next(
                (r for r in d.parents if (r / "tests" / "ut").is_dir() or (r / ".git").exists()),
                d.parent.parent,
            )
            golden = d / "tests" / "assets" / "golden.py"
            return OpLayout(
                d.name, d, root, d / "tests" / "ut" / "op_kernel", golden if golden.is_file() else None
            )
    return None


def ut_socs(layout: OpLayout) -> list[str]:
    """The SoCs the operator's kernel UT registers cases for (AddOpTestCase's SoC argument, all calls), as the
    repository's build reads them."""
    text = (layout.ut_dir / "CMakeLists.txt").read_text(encoding="utf-8", errors="replace")
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    socs: list[str] = []
    for m in _ADD_CASE.finditer(text):
        args = m.group(1)
        named = re.search(r"SOC_VERSION\s+\"?([^\"\s)]+)", args)
        quoted = re.findall(r'"([^"]*)"', args)
        # ops-nn's AddOpTestCase reads a first argument that starts with "ascend" as the SoC list (its op name may
        # be left out), so an operator named ascend_* registers its cases for a SoC of that name
        first = re.match(r'\s*"?([^"\s)]+)', args)
        value = (
            named.group(1)
            if named
            else first.group(1)
            if first and first.group(1).startswith("ascend")
            else quoted[0]
            if quoted
            else ""
        )
        socs += [s.strip() for s in value.split(";") if s.strip()]
    return list(dict.fromkeys(socs))


def has_a2a3_ut(layout: OpLayout) -> bool:
    return any(A2A3.match(s) for s in ut_socs(layout))
