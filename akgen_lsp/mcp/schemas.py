"""The JSON schemas of the MCP tools' results (pydantic models: the SDK publishes them as each tool's outputSchema
and checks every structured result against them)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class EditModel(_Open):
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    new_text: str


class FixModel(_Open):
    title: str
    safe: bool = Field(description="True: the fix is certain (akgen check --fix applies it)")
    edits: list[EditModel]


class FindingModel(_Open):
    """One finding, as `akgen check --format json` prints it (1-based lines and columns)."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str = Field(description="error, warning, info or hint")
    code: str = Field(description="the rule or check: AKG120, SIM-QUE-DOUBLE-FREE, CXX, ... (explain it)")
    source: str
    message: str
    fixes: list[FixModel] = []
    error_class: str | None = None
    data: dict[str, Any] | None = None


class LintResult(BaseModel):
    path: str
    findings: list[FindingModel]
    counts: dict[str, int] = Field(description="findings per severity")
    safe_fixes: int


class CheckResultModel(BaseModel):
    path: str
    task: str | None = Field(description="the task the kernel was checked against; None: it has none")
    status: str | None = Field(description="pass, wrong_answer, compile_error, runtime_error, timeout, ...")
    passes: bool
    verdict: str = Field(description="one line: the cases that pass and the estimate")
    cases: int | None = None
    passed_cases: int | None = None
    estimate_us: float | None = Field(
        None, description="the simulator's time estimate (an estimate, not a measurement)"
    )
    estimate_label: str | None = None
    arch: str | None = None
    bound: str | None = None
    findings: list[FindingModel]
    trace: str | None = Field(
        None, description="the Chrome trace of the first case (chrome://tracing, Perfetto)"
    )
    seconds: float
    figures: dict[str, Any] = Field(description="everything the check reported")


class ExplainResult(BaseModel):
    query: str
    kind: str = Field(
        description="rule, api, invented_api, npu_error_code, finding_code, error_class, arch, unknown"
    )
    found: bool
    text: str
    data: dict[str, Any]
    suggestions: list[str] = Field(description="close names when nothing matched (did you mean)")


class OutcomeModel(_Open):
    status: str
    summary: str
    passed_cases: int
    cases: int
    estimate_us: float | None = None
    errors: list[dict[str, Any]] = []


class FixResult(BaseModel):
    path: str
    task: str | None
    before: OutcomeModel
    after: OutcomeModel
    fixes: list[dict[str, Any]] = Field(description="the deterministic fixes applied, each verified")
    model: dict[str, Any] | None = Field(description="the model's verified repair (None: no model used)")
    notes: list[str]
    passes: bool = Field(description="the repaired text passes every case")
    diff: str = Field(description="a unified diff of the verified repair ('' when there is none)")
    applied: bool = Field(description="the repair was written to the file (apply=true)")
    stored: int = Field(description="repairs added to the store of repairs when applied")


class ReportResult(BaseModel):
    reports: list[dict[str, Any]] = Field(description="one per error: 'report' (JSON) and 'markdown'")


class RunResult(BaseModel):
    status: str
    ok: bool
    findings: list[FindingModel]
    result: dict[str, Any] = Field(
        description="the full result (`akgen sim run --json`, `run-program --json`)"
    )
    seconds: float


class BenchResult(BaseModel):
    summary: dict[str, Any] = Field(description="`akgen bench run --json`'s summary")
    out: str = Field(description="the output folder: results.jsonl, summary.json, report.html")
    seconds: float
