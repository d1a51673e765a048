"""Tasks in NPUKernelBench's own layout: discovery and `test_cases.csv` parsing.

A task is a folder ``tasks/<level>/<Category>/<Op>/`` holding ``api_desc.md``, ``question/``, ``answer/N/{op_kernel,
op_host}`` and ``validation/{module.py, prepare_inputs.py, test_cases.csv}``. Our bundled suite adds, where it has
one, ``validation/reference_np.py`` (a numpy reference that needs no torch).

`test_cases.csv` is ``;``-separated with a ``case_id`` column; the other columns are shapes (``[48, 128, 512]``),
dtypes, numbers, booleans and free text. Like NPUKernelBench (pandas ``read_csv`` + ``preprocess_dataframe``) a
column whose cells are all integers holds ints, all numbers floats, all ``true``/``false`` bools; anything else stays
text, so that ``prepare_inputs.get_inputs(case)`` sees the same values it sees under the original harness.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

LEVELS = ("level1", "level2", "level3")


class TaskError(ValueError):
    """A task folder or test-case file that cannot be used; the message says which file and what to fix."""


class Case(dict):  # type: ignore[type-arg]
    """One `test_cases.csv` row: a dict that also answers the pandas-Series calls prepare_inputs uses
    (``row['x']``, ``row.get('x')``, ``row.x``)."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    @property
    def case_id(self) -> int:
        return int(self.get("case_id", 0))


def parse_shape(text: str | int | Any) -> tuple[int, ...]:
    """``"[48, 128, 512]"`` -> (48, 128, 512); ``"[]"`` -> (); a bare integer -> (n,)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return (text,)
    if isinstance(text, (list, tuple)):
        return tuple(int(d) for d in text)
    try:
        value = ast.literal_eval(str(text).strip())
    except (ValueError, SyntaxError):
        raise TaskError(f"{text!r} is not a shape; write it like [48, 128, 512]") from None
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, (list, tuple)) and all(
        isinstance(d, int) and not isinstance(d, bool) for d in value
    ):
        return tuple(value)
    raise TaskError(f"{text!r} is not a shape of integers; write it like [48, 128, 512]")


_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$|^[+-]?(inf|nan)$", re.IGNORECASE)
_BOOLS = {"true": True, "false": False}


def _column_type(cells: list[str]) -> str:
    present = [c for c in cells if c != ""]
    if not present:
        return "str"
    if all(_INT.match(c) for c in present):
        return "int" if len(present) == len(cells) else "float"
    if all(_FLOAT.match(c) for c in present):
        return "float"
    if all(c.lower() in _BOOLS for c in present):
        return "bool"
    return "str"


def _convert(cell: str, kind: str) -> Any:
    if cell == "":
        return float("nan") if kind in ("int", "float") else None
    if kind == "int":
        return int(cell)
    if kind == "float":
        return float(cell)
    if kind == "bool":
        return _BOOLS[cell.lower()]
    return cell


def parse_test_cases(text: str, where: str = "test_cases.csv") -> list[Case]:
    """Parse the ``;``-separated test cases. Raises `TaskError` naming the file and line on a malformed row."""
    lines = [ln.rstrip("\r") for ln in text.splitlines()]
    lines = [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise TaskError(f"{where}: empty; it needs a header such as case_id;shape;dtype and one row per case")
    header = [h.strip() for h in lines[0].split(";")]
    if not header or any(not h for h in header):
        raise TaskError(f"{where}: the header line has an empty column name")
    rows: list[list[str]] = []
    for n, ln in enumerate(lines[1:], start=2):
        cells = [c.strip() for c in ln.split(";")]
        if len(cells) != len(header):
            raise TaskError(f"{where}:{n}: {len(cells)} cells for {len(header)} columns ({';'.join(header)})")
        rows.append(cells)
    kinds = [_column_type([r[i] for r in rows]) for i in range(len(header))]
    cases = [Case({h: _convert(r[i], kinds[i]) for i, h in enumerate(header)}) for r in rows]
    if "case_id" not in header:
        for i, c in enumerate(cases):
            c["case_id"] = i
    return cases


_DTYPE_ALIASES = {
    "float16": "float16",
    "half": "float16",
    "fp16": "float16",
    "bfloat16": "bfloat16",
    "bf16": "bfloat16",
    "float": "float32",
    "float32": "float32",
    "fp32": "float32",
    "float64": "float64",
    "double": "float64",
    "int8": "int8",
    "uint8": "uint8",
    "int16": "int16",
    "int32": "int32",
    "int": "int32",
    "int64": "int64",
    "bool": "bool",
    "complex64": "complex64",
}


def normalize_dtype(name: str) -> str | None:
    """A CSV dtype spelling (``float``, ``float32``, ``half``, ``bf16``) -> the numpy-style name; None if unknown."""
    return _DTYPE_ALIASES.get(str(name).strip().lower())


def case_dtypes(case: Mapping[str, Any]) -> dict[str, str]:
    """The dtype columns of a case: ``dtype`` and every ``*_dtype`` / ``*dtype`` column with a dtype value."""
    out: dict[str, str] = {}
    for k, v in case.items():
        if "dtype" in k.lower() and isinstance(v, str) and normalize_dtype(v):
            out[k] = normalize_dtype(v) or v
    return out


@dataclass(frozen=True)
class Answer:
    """One ``answer/N`` folder: the kernel source, the host sources and the tiling header."""

    index: int
    root: Path
    kernel: Path | None
    host: Path | None
    tiling_header: Path | None

    @property
    def kernel_dir(self) -> Path:
        return self.root / "op_kernel"


@dataclass(frozen=True)
class Task:
    root: Path
    level: str
    category: str
    name: str
    op: str  # snake_case op name: the kernel entry and the file names
    answers: tuple[Answer, ...] = field(default_factory=tuple)

    @property
    def id(self) -> str:
        return f"{self.level}/{self.category}/{self.name}"

    @property
    def level_number(self) -> int:
        m = re.search(r"(\d+)", self.level)
        return int(m.group(1)) if m else 0

    @property
    def validation(self) -> Path:
        return self.root / "validation"

    @property
    def api_desc(self) -> Path:
        return self.root / "api_desc.md"

    @property
    def question_kernel(self) -> Path:
        return self.root / "question" / "op_kernel" / f"{self.op}.cpp"

    @property
    def question_host(self) -> Path:
        return self.root / "question" / "op_host" / f"{self.op}.cpp"

    def cases(self) -> list[Case]:
        path = self.validation / "test_cases.csv"
        if not path.is_file():
            raise TaskError(f"{path}: missing; every task needs validation/test_cases.csv")
        return parse_test_cases(path.read_text(encoding="utf-8", errors="replace"), str(path))


def camel_to_snake(name: str) -> str:
    """``AbsMath`` -> ``abs_math``, ``GeluV2`` -> ``gelu_v2`` (NPUKernelBench's own rule)."""
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def _op_name(root: Path, name: str) -> str:
    for sub in ("question/op_kernel", "answer/0/op_kernel"):
        d = root / sub
        if d.is_dir():
            cpps = sorted(p.stem for p in d.glob("*.cpp"))
            if len(cpps) == 1:
                return cpps[0]
            snake = camel_to_snake(name)
            if snake in cpps:
                return snake
    return camel_to_snake(name)


def _answers(root: Path, op: str) -> tuple[Answer, ...]:
    out: list[Answer] = []
    adir = root / "answer"
    if not adir.is_dir():
        return ()
    for d in sorted(
        (p for p in adir.iterdir() if p.is_dir() and p.name.isdigit()), key=lambda p: int(p.name)
    ):
        kernel = d / "op_kernel" / f"{op}.cpp"
        if not kernel.is_file():
            cpps = sorted((d / "op_kernel").glob("*.cpp")) if (d / "op_kernel").is_dir() else []
            kernel = cpps[0] if len(cpps) == 1 else kernel
        host = d / "op_host" / f"{op}.cpp"
        tiling = (
            next(iter(sorted((d / "op_host").glob("*tiling*.h"))), None) if (d / "op_host").is_dir() else None
        )
        out.append(
            Answer(
                int(d.name), d, kernel if kernel.is_file() else None, host if host.is_file() else None, tiling
            )
        )
    return tuple(out)


def load_task(root: Path) -> Task:
    root = Path(root).resolve()
    if not (root / "validation").is_dir():
        raise TaskError(
            f"{root}: not a task folder (no validation/); expected tasks/<level>/<Category>/<Op>/"
        )
    name = root.name
    category = root.parent.name
    level = root.parent.parent.name
    op = _op_name(root, name)
    return Task(root=root, level=level, category=category, name=name, op=op, answers=_answers(root, op))


def tasks_dir(suite: Path) -> Path:
    """The folder holding level1/level2/level3: the suite itself or its ``tasks/``."""
    suite = Path(suite)
    if (suite / "tasks").is_dir():
        return suite / "tasks"
    return suite


def discover_tasks(
    suite: Path, level: int | None = None, names: Mapping[str, Any] | list[str] | None = None
) -> list[Task]:
    """Every task under the suite (``<suite>/tasks/level*/<Cat>/<Op>`` or ``<suite>/level*/...``), sorted by id.
    `names` filters by op folder name, snake name or id (case-insensitive)."""
    base = tasks_dir(suite)
    if not base.is_dir():
        raise TaskError(
            f"{suite}: no such folder; give a checkout of NPUKernelBench or a suite folder with "
            "tasks/level1 ..."
        )
    wanted = {str(n).lower() for n in names} if names else None
    out: list[Task] = []
    for task_root in _task_roots_at(base):
        t = load_task(task_root)
        if level is not None and t.level_number != level:
            continue
        if wanted and not ({t.name.lower(), t.op.lower(), t.id.lower()} & wanted):
            continue
        out.append(t)
    return sorted(out, key=lambda t: t.id)


def _task_roots_at(base: Path) -> Iterator[Path]:
    """The task folders at `base`: a suite's tasks folder, or one level folder, one category folder or one task."""
    if (base / "validation").is_dir():
        yield base
    elif base.name.startswith("level"):
        yield from _iter_task_roots(base.parent, only=base.name)
    elif base.parent.name.startswith("level"):
        yield from (
            op for op in sorted(p for p in base.iterdir() if p.is_dir()) if (op / "validation").is_dir()
        )
    else:
        yield from _iter_task_roots(base)


def no_tasks_message(suite: Path, level: int | None = None, names: Sequence[str] = ()) -> str:
    """What a command that found no task to work on says: where it looked and for what."""
    filters = []
    if level is not None:
        filters.append(f"level {level}")
    if names:
        filters.append(f"named {', '.join(names)}")
    which = f" ({'; '.join(filters)})" if filters else ""
    return (
        f"no task{which} in {suite}: looked for task folders (an <Op> folder with validation/) at "
        f"tasks/level*/<Category>/<Op> below it, or at it as a level, category or task folder; "
        f"`akgen bench list --suite {suite}` lists the tasks there"
    )


def _iter_task_roots(base: Path, only: str | None = None) -> Iterator[Path]:
    for lvl in sorted(
        p
        for p in base.iterdir()
        if p.is_dir() and p.name.startswith("level") and (only is None or p.name == only)
    ):
        for cat in sorted(p for p in lvl.iterdir() if p.is_dir()):
            for op in sorted(p for p in cat.iterdir() if p.is_dir()):
                if (op / "validation").is_dir():
                    yield op


def find_task_for_path(path: Path) -> tuple[Task, int | None] | None:
    """The task a kernel file belongs to by the NPUKernelBench layout around it
    (``.../<Op>/answer/N/op_kernel/<op>.cpp`` or ``.../<Op>/question/op_kernel/<op>.cpp``); with the answer index."""
    p = Path(path).resolve()
    parts = p.parts
    for i in range(len(parts) - 1, 0, -1):
        if parts[i] in ("answer", "question"):
            root = Path(*parts[:i])
            if (root / "validation").is_dir():
                idx = None
                if parts[i] == "answer" and i + 1 < len(parts) and parts[i + 1].isdigit():
                    idx = int(parts[i + 1])
                return load_task(root), idx
    return None
