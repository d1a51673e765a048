"""The task's prompt in NPUKernelBench's format: its `api_desc.md`, the PyTorch reference (`validation/module.py`),
the test case (static shape: the one case this instance is; dynamic shape: every case), the templates (the question's
kernel, and its op_host in dynamic mode), an optional example, the hardware block, the rules and the answer layout
(`<kernel_impl>` for a kernel-only answer, the three file sections for kernel + host) that `bench.extract` reads."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.ascendc.arch import ArchProfile
from akgen_lsp.bench.tasks import Case, Task, TaskError
from akgen_lsp.model.prompts import DYNAMIC_RULES, KERNEL_RULES, answer_layout, kernel_messages

MAX_REFERENCE_CHARS = 6000  # a reference module longer than this is cut (the prompt says so)
MAX_CASES = 24


def _read(path: Path, what: str, limit: int | None = None) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise TaskError(f"cannot read the task's {what} ({path}): {exc.strerror or exc}") from None
    if limit is not None and len(text) > limit:
        text = text[:limit] + f"\n# ... (cut at {limit} characters)\n"
    return text


def case_row(task: Task, case: Case) -> str:
    """The test case as NPUKernelBench's CSV has it: the header, then the row."""
    header = (task.validation / "test_cases.csv").read_text(encoding="utf-8").splitlines()[0]
    cols = [c.strip() for c in header.split(";")]
    return header + "\n" + ";".join(str(case.get(c, "")) for c in cols)


def instance_case(task: Task, case_id: int | None) -> Case | None:
    """The case a static-shape instance is (the task's first case when None); raises TaskError for an unknown id."""
    cases = task.cases()
    if not cases:
        raise TaskError(f"task {task.id} has no test cases (validation/test_cases.csv is empty)")
    if case_id is None:
        return cases[0]
    for c in cases:
        if c.case_id == case_id:
            return c
    ids = ", ".join(str(c.case_id) for c in cases[:12])
    raise TaskError(f"task {task.id} has no case {case_id}; its cases are {ids}")


def task_messages(
    task: Task, arch: ArchProfile, mode: str = "static", case: Case | None = None, example: str = ""
) -> list[dict[str, str]]:
    """[system, user]: the generation request of one instance (see the module docstring). Raises TaskError when the
    task lacks what the prompt needs (api_desc.md)."""
    if not task.api_desc.is_file():
        raise TaskError(
            f"task {task.id} has no api_desc.md, which the prompt is built from; add it or pick another task"
        )
    api = _read(task.api_desc, "api_desc.md")
    module = task.validation / "module.py"
    reference = _read(module, "reference model", MAX_REFERENCE_CHARS) if module.is_file() else ""
    question = _read(task.question_kernel, "kernel template") if task.question_kernel.is_file() else ""
    if mode == "dynamic":
        cases = task.cases()[:MAX_CASES]
        header = (task.validation / "test_cases.csv").read_text(encoding="utf-8").splitlines()[0]
        rows = "\n".join(case_row(task, c).splitlines()[1] for c in cases)
        test_case = f"Every case below must pass with the same files (dynamic shape):\n{header}\n{rows}"
        host = _read(task.question_host, "host template") if task.question_host.is_file() else ""
        rules = tuple(r.replace("<op>", task.op) for r in DYNAMIC_RULES)
    else:
        chosen = case if case is not None else instance_case(task, None)
        assert chosen is not None
        test_case = (
            f"This instance is case {chosen.case_id} (static shape): the kernel runs on this case only, so "
            f"hard-code its shape and tiling.\n{case_row(task, chosen)}"
        )
        host = ""
        rules = tuple(r.replace("<op>", task.op) for r in KERNEL_RULES)
    return list(
        kernel_messages(
            api,
            test_case,
            arch,
            question=question,
            example=example,
            reference=reference,
            host=host,
            rules=rules,
            layout=answer_layout(task.op, mode),
        )
    )
