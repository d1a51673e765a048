"""The hostile suite, manifests: a manifest file is confined to its folder (no absolute paths, no '..', no symlink
out of it), outputs go only inside the out folder, limits are capped by settings; each violation is a clear error
that names the field, reported as a SIM-MANIFEST finding before anything is compiled or run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from akgen_lsp.cli import app
from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.manifest import ManifestError, load_manifest

from .hostile import Layout, hostile

pytestmark = hostile


def write(layout: Layout, **change: Any) -> Path:
    src = layout.source()
    path = layout.manifest(src)
    data = json.loads(path.read_text())
    for key, value in change.items():
        if key.startswith("arg"):
            data["args"][int(key[3:])].update(value)
        else:
            data[key] = value
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def refused(path: Path, field: str, words: str) -> str:
    with pytest.raises(ManifestError) as info:
        load_manifest(path)
    message = str(info.value)
    assert message.startswith(field) and words in message, message
    return message


def test_absolute_source_is_refused(layout: Layout) -> None:
    refused(write(layout, sources=[str(layout.secret)]), "sources[0]", "absolute path")


def test_source_going_up_is_refused(layout: Layout) -> None:
    refused(write(layout, sources=["../secret.txt"]), "sources[0]", "'..'")


def test_symlink_out_of_the_folder_is_refused(layout: Layout) -> None:
    (layout.kernel / "k.cpp").symlink_to(layout.secret)
    refused(write(layout, sources=["k.cpp"]), "sources[0]", "outside the manifest's folder")


def test_include_dir_outside_is_refused(layout: Layout) -> None:
    refused(write(layout, include_dirs=["/root"]), "include_dirs[0]", "absolute path")


def test_input_outside_is_refused(layout: Layout) -> None:
    refused(write(layout, arg0={"input": "/etc/passwd"}), "args[0] (x).input", "absolute path")


def test_output_going_up_is_refused(layout: Layout) -> None:
    refused(write(layout, arg1={"output": "../../escape.npy"}), "args[1] (y).output", "'..'")


def test_absolute_output_is_refused(layout: Layout) -> None:
    refused(write(layout, arg1={"output": str(layout.escape)}), "args[1] (y).output", "absolute path")


def test_tiling_header_outside_is_refused(layout: Layout) -> None:
    path = write(layout)
    data = json.loads(path.read_text())
    data["args"].append({"name": "tiling", "tiling": {"header": "../secret.txt", "fields": {}}})
    path.write_text(json.dumps(data))
    refused(path, "args[3] (tiling).tiling.header", "'..'")


@pytest.mark.parametrize(("field", "value", "setting"), [
    ("timeout_s", 1e9, "sim.max_timeout_s"), ("cpu_s", 10**9, "sim.max_timeout_s"),
    ("memory_mb", 10**9, "sim.max_memory_mb")])
def test_limits_over_the_cap_are_refused(layout: Layout, field: str, value: float, setting: str) -> None:
    refused(write(layout, **{field: value}), f"manifest.{field}", setting)


def test_non_finite_timeout_is_refused(layout: Layout) -> None:
    path = write(layout)
    path.write_text(path.read_text().replace('"block_dim": 1', '"block_dim": 1, "timeout_s": Infinity'))
    refused(path, "manifest.timeout_s", "positive number")


def test_arch_path_is_refused(layout: Layout) -> None:
    refused(write(layout, arch="../../../../etc/passwd"), "manifest.arch", "not a known hardware profile")


def test_refusal_reaches_the_user_as_a_finding_and_nothing_runs(layout: Layout) -> None:
    res = run_manifest(write(layout, arg1={"output": "../../escape.npy"}), layout.kernel / "out")
    assert res.status == "runtime_error" and [f.code for f in res.findings] == ["SIM-MANIFEST"]
    assert not layout.escape.exists() and not (layout.root / "escape.npy").exists()
    result = CliRunner().invoke(app, ["sim", "run", str(write(layout, timeout_s=1e9))])
    assert result.exit_code == 1 and "manifest.timeout_s" in result.output and "sim.max_timeout_s" in result.output
