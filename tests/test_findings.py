from __future__ import annotations

import json

from akgen_lsp.findings import (
    Edit,
    Finding,
    Fix,
    Severity,
    Span,
    apply_edits,
    finding_from_json,
    finding_to_json,
    findings_to_json,
    findings_to_sarif,
    render_text,
    sort_findings,
)

SRC = "int a;\n  AscendC::Softmax(x);\n"


def make() -> Finding:
    span = Span("k.cpp", 2, 12, 2, 19)
    fix = Fix("Rename to SoftMax", (Edit(span, "SoftMax"),), safe=True)
    return Finding("AKG101", "no member named 'Softmax' in namespace 'AscendC'", span, fixes=(fix,),
                   error_class="api_mismatch")


def test_text_has_compiler_shape_and_caret() -> None:
    text = render_text(make(), SRC)
    lines = text.splitlines()
    assert lines[0] == "k.cpp:2:12: error[AKG101]: no member named 'Softmax' in namespace 'AscendC'"
    assert lines[1].strip() == "AscendC::Softmax(x);"
    caret = lines[2]
    assert caret.index("^") == lines[1].index("Softmax")
    assert caret.count("^") == len("Softmax")
    assert "fix (safe): Rename to SoftMax" in lines[3]


def test_json_shape_round_trips() -> None:
    obj = finding_to_json(make())
    assert set(obj) >= {"path", "line", "column", "end_line", "end_column", "severity", "code", "source", "message",
                        "fixes"}
    assert obj["severity"] == "error"
    assert obj["fixes"][0]["edits"][0] == {
        "path": "k.cpp", "line": 2, "column": 12, "end_line": 2, "end_column": 19, "new_text": "SoftMax"}
    assert finding_from_json(json.loads(json.dumps(obj))) == make()
    assert json.loads(findings_to_json([make()]))[0]["code"] == "AKG101"


def test_sarif_is_2_1_0_with_rule_index_and_fix() -> None:
    log = findings_to_sarif([make()], {"AKG101": "unknown API"})
    assert log["version"] == "2.1.0"
    run = log["runs"][0]
    assert run["tool"]["driver"]["rules"][0]["id"] == "AKG101"
    res = run["results"][0]
    assert res["ruleIndex"] == 0 and res["level"] == "error"
    assert res["locations"][0]["physicalLocation"]["region"]["startColumn"] == 12
    assert res["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] == "SoftMax"


def test_apply_edits_uses_character_columns() -> None:
    text = "// é\nAscendC::Softmax(x);\n"
    out = apply_edits(text, [Edit(Span("k", 2, 10, 2, 17), "SoftMax"), Edit(Span("k", 1, 4, 1, 5), "e")])
    assert out == "// e\nAscendC::SoftMax(x);\n"


def test_sort_by_place_then_severity() -> None:
    a = Finding("B", "m", Span("f", 3, 1, 3, 2))
    b = Finding("A", "m", Span("f", 1, 5, 1, 6), severity=Severity.WARNING)
    c = Finding("C", "m", Span("f", 1, 5, 1, 6))
    assert [f.code for f in sort_findings([a, b, c])] == ["C", "A", "B"]


def test_sarif_carries_the_cwe_of_memory_safety_findings() -> None:
    oob = Finding("SIM-GM-OOB-WRITE", "writes past the buffer", Span("k.cpp", 3, 5, 3, 5), data={"cwe": 787})
    race = Finding("SIM-GM-OVERLAP", "two blocks write the same bytes", Span("k.cpp", 9, 1, 9, 1), data={"cwe": 362})
    plain = Finding("SIM-DTYPE", "bad dtype", Span("k.cpp", 4, 1, 4, 1))
    run = findings_to_sarif([oob, race, plain])["runs"][0]
    tax = run["taxonomies"][0]
    assert tax["name"] == "CWE" and tax["organization"] == "MITRE"
    assert [t["id"] for t in tax["taxa"]] == ["362", "787"]
    assert tax["taxa"][1]["name"] == "Out-of-bounds Write"
    assert run["tool"]["driver"]["supportedTaxonomies"] == [{"name": "CWE", "index": 0}]
    by_rule = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert "external/cwe/cwe-787" in by_rule["SIM-GM-OOB-WRITE"]["properties"]["tags"]
    assert by_rule["SIM-GM-OOB-WRITE"]["relationships"][0]["target"]["id"] == "787"
    assert "properties" not in by_rule["SIM-DTYPE"]
    results = {r["ruleId"]: r for r in run["results"]}
    assert results["SIM-GM-OOB-WRITE"]["taxa"] == [{"id": "787", "index": 1,
                                                    "toolComponent": {"name": "CWE", "index": 0}}]
    assert "taxa" not in results["SIM-DTYPE"]
    assert "taxonomies" not in findings_to_sarif([plain])["runs"][0]
