"""A candidate's record keeps its findings themselves in the process that filled it (no JSON round trip there)."""

from __future__ import annotations

import json
import time

from akgen_lsp.bench.pipeline.record import Record, Timings, finish_record, record_findings
from akgen_lsp.findings import Finding, Span


def test_the_process_that_filled_a_record_gets_the_same_findings_back() -> None:
    f = Finding("CXX", "no member named 'Dequeue'", Span("k.cpp", 3, 5, 3, 5), source="akgen-build")
    rec = Record({"task": "t", "passed_cases": 0, "cases": 0, "findings": []})
    finish_record(rec, [f], "compile_error", Timings(), time.perf_counter())
    assert record_findings(rec)[0] is f
    assert rec["findings"][0]["message"] == "no member named 'Dequeue'"  # the JSON is there for results.jsonl


def test_a_record_read_back_from_json_or_changed_since_reads_its_json() -> None:
    f = Finding("CXX", "no member named 'Dequeue'", Span("k.cpp", 3, 5, 3, 5), source="akgen-build")
    rec = Record({"task": "t", "passed_cases": 0, "cases": 0, "findings": []})
    finish_record(rec, [f], "compile_error", Timings(), time.perf_counter())
    (again,) = record_findings(json.loads(json.dumps(rec)))
    assert again is not f and again.message == f.message and again.span == f.span
    rec["findings"] = []  # a caller that replaces the list is believed, not the findings kept
    assert record_findings(rec) == []
