"""Every path an agent gives is confined to the client's roots: the rule itself, then through a real session (a client
with MCP roots, and one without, where the server's --root applies)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mcp_helpers import mcp_session

from akgen_lsp.mcp.roots import OutsideRoots, Roots, path_of_uri


def test_paths_inside_a_root_resolve_and_the_others_are_refused(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "k").mkdir(parents=True)
    (root / "k/a.cpp").write_text("", encoding="utf-8")
    (tmp_path / "secret.cpp").write_text("", encoding="utf-8")
    os.symlink(tmp_path / "secret.cpp", root / "k/link.cpp")
    roots = Roots.from_uris([root.as_uri(), "https://example.org/repo"])
    assert roots.folders == (root.resolve(),)
    assert roots.confine("k/a.cpp") == (root / "k/a.cpp").resolve()
    assert roots.confine(str(root / "k/../k/a.cpp")) == (root / "k/a.cpp").resolve()
    for outside in ("../secret.cpp", str(tmp_path / "secret.cpp"), "k/link.cpp", "/etc/passwd", str(tmp_path)):
        with pytest.raises(OutsideRoots, match="outside the client's roots"):
            roots.confine(outside)
    with pytest.raises(OutsideRoots, match="no root to resolve it against"):
        Roots.from_uris([]).confine("k/a.cpp")
    assert path_of_uri("file:///a%20b/c") == Path("/a b/c") and path_of_uri("http://x/y") is None


async def test_tools_refuse_paths_outside_the_client_roots(samples_copy: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.cpp"
    outside.write_text((samples_copy / "kernels/add_custom.cpp").read_text(encoding="utf-8"), encoding="utf-8")
    os.symlink(outside, samples_copy / "escape.cpp")
    calls = [("lint", {"path": str(outside)}), ("lint", {"path": "../outside.cpp"}), ("lint", {"path": "escape.cpp"}),
             ("check", {"path": str(outside)}), ("fix", {"path": "escape.cpp", "apply": True}),
             ("report", {"log": str(outside)}), ("sim_run", {"manifest": str(outside)}),
             ("run_program", {"program": "kernels/add_custom.cpp", "include_dirs": [str(tmp_path)]}),
             ("bench", {"tasks": ["AddMath"], "out": str(tmp_path / "out")})]
    async with mcp_session(samples_copy, [samples_copy], "--no-warm") as s:
        for name, args in calls:
            res = await s.call_tool(name, args)
            assert res.is_error, (name, args)
            assert "outside the client's roots" in res.content[0].text, res.content[0].text
    assert not (tmp_path / "out").exists()


async def test_a_client_without_roots_gets_the_server_roots(samples_copy: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.cpp"
    outside.write_text("", encoding="utf-8")
    async with mcp_session(tmp_path, None, "--no-warm", "--root", str(samples_copy)) as s:
        inside = await s.call_tool("lint", {"path": "broken/akg120_dequeued_not_freed.cpp"})
        assert not inside.is_error and inside.structured_content["findings"]
        res = await s.call_tool("lint", {"path": str(outside)})
        assert res.is_error and "outside the server's roots (akgen mcp --root)" in res.content[0].text
