"""What one operator's kernel unit test did (op_test.py) and the findings the editor and agents show for it."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.findings import Finding, Severity, Span


@dataclass
class CaseResult:
    name: str
    passed: bool
    message: str = ""


@dataclass
class OpTestResult:
    """What one operator's kernel UT did. `stage`: how far it got ("no-ut", "configure", "build", "run", "done");
    `ran`: the test binary ran to completion (gtest wrote its report); `golden`: "match" / "mismatch" (the data
    scripts' compare_data.py), "not-compared" (a tests/assets/golden.py, but no script compared), "none" (neither)."""

    op: str
    op_dir: str
    soc: str
    stage: str = "configure"
    has_ut: bool = True
    built: bool = False
    ran: bool = False
    cases: list[CaseResult] = field(default_factory=list)
    golden: str = "none"
    golden_detail: str = ""
    reason: str = ""
    findings: list[Finding] = field(default_factory=list)
    log: str = ""
    seconds: float = 0.0

    @property
    def cases_total(self) -> int:
        return len(self.cases)

    @property
    def cases_passed(self) -> int:
        return sum(c.passed for c in self.cases)

    @property
    def ok(self) -> bool:
        """Built, ran, every case passed, no error finding and no golden mismatch."""
        errors = any(f.severity == Severity.ERROR for f in self.findings)
        return (
            self.ran
            and self.cases_total > 0
            and self.cases_passed == self.cases_total
            and not errors
            and self.golden != "mismatch"
        )

    def summary(self) -> str:
        if not self.has_ut:
            return f"{self.op}: {self.reason}"
        if not self.ran:
            return f"{self.op}: {self.stage} failed: {self.reason}"
        gold = {
            "match": "golden data match",
            "mismatch": "golden data MISMATCH: " + self.golden_detail,
            "not-compared": "golden.py present, not compared: " + self.golden_detail,
            "none": "no golden data",
        }[self.golden]
        return f"{self.op}: {self.cases_passed}/{self.cases_total} cases pass; {gold}" + (
            f"; {self.reason}" if self.reason else ""
        )

    def to_json(self) -> dict[str, Any]:
        from akgen_lsp.findings import finding_to_json

        out = asdict(self)
        out["findings"] = [finding_to_json(f) for f in findings_of(self)]  # as the editor shows them
        out.update(cases_total=self.cases_total, cases_passed=self.cases_passed, ok=self.ok)
        out.pop("log")
        return out


def findings_of(result: OpTestResult) -> list[Finding]:
    """The result as findings for the editor and agents: the run's findings, one per failing case (at its test),
    one at the kernel entry when the UT's compare script found the outputs differ from the golden data (the cases
    themselves ignore it), and one there when the built UT did not run to completion."""
    out = list(result.findings)
    ut = Path(result.op_dir) / "tests" / "ut" / "op_kernel"
    for c in result.cases:
        if not c.passed:
            out.append(
                Finding(
                    "SIM-UT-CASE",
                    f"kernel unit test {c.name} failed: {c.message}",
                    Span.point(str(_case_file(ut, c.name)), 1),
                    severity=Severity.ERROR,
                    source="akgen-run",
                    error_class="runtime",
                )
            )
    kernel = Path(result.op_dir) / "op_kernel" / f"{result.op}.cpp"
    if result.golden == "mismatch":
        out.append(
            Finding(
                "OP-UT-GOLDEN",
                f"the kernel's output differs from the golden data: "
                f"{result.golden_detail}; the UT's cases pass because they ignore the compare script's "
                "exit status",
                Span.point(str(kernel), entry_line(kernel)),
                severity=Severity.ERROR,
                source="akgen-run",
                error_class="numeric",
            )
        )
    if result.built and not result.ran:
        out.append(
            Finding(
                "OP-UT-RUN",
                f"the kernel UT did not run to completion: {result.reason}",
                Span.point(str(kernel), entry_line(kernel)),
                severity=Severity.ERROR,
                source="akgen-run",
                error_class="runtime",
            )
        )
    return out


_ENTRY = re.compile(r'(?:extern\s*"C"\s*)?__global__\s+__aicore__\s+void\s+\w+\s*\(')


def entry_line(path: Path) -> int:
    """The 1-based line of the first kernel entry (`__global__ __aicore__ void name(`) of `path`, else 1."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 1
    for i, line in enumerate(text.splitlines(), 1):
        if _ENTRY.search(line):
            return i
    return 1


def _case_file(ut: Path, name: str) -> Path:
    tests = sorted(ut.glob("test_*.cpp"))
    test = name.split(".", 1)[-1]
    for t in tests:
        if re.search(rf"\b{re.escape(test)}\b", t.read_text(encoding="utf-8", errors="replace")):
            return t
    return tests[0] if tests else ut / "CMakeLists.txt"
