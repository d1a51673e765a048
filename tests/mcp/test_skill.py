"""The agent skill (skills/akgen-ascendc/SKILL.md) follows the agentskills.io layout and names only real tools."""

from __future__ import annotations

import re
from pathlib import Path

from mcp_helpers import REPO

from akgen_lsp.mcp.app import build_server

SKILL = REPO / "skills/akgen-ascendc/SKILL.md"


def frontmatter(text: str) -> dict[str, str]:
    """The top-level `key: value` lines of the YAML frontmatter (nested keys are skipped)."""
    assert text.startswith("---\n"), "SKILL.md starts with a --- frontmatter block"
    head = text[4:text.index("\n---\n", 4)]
    return {m.group(1): m.group(2).strip() for m in re.finditer(r"^([a-z_-]+):[ ]*(.*)$", head, re.M)}


def test_the_skill_frontmatter_is_valid() -> None:
    meta = frontmatter(SKILL.read_text(encoding="utf-8"))
    # agentskills.io: name 1-64 lowercase letters, digits and hyphens, the folder's name; description 1-1024
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", meta["name"]) and len(meta["name"]) <= 64
    assert meta["name"] == SKILL.parent.name
    assert 0 < len(meta["description"]) <= 1024
    assert set(meta) <= {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}


async def test_the_skill_names_only_tools_the_server_has() -> None:
    text = SKILL.read_text(encoding="utf-8")
    tools = {t.name for t in await build_server([Path.cwd()], warm=False).list_tools()}
    table = set(re.findall(r"^\| `(\w+)`(?: / `(\w+)`)? \|", text, re.M))
    named = {n for row in table for n in row if n}
    assert named == tools
    called = set(re.findall(r"`(\w+) \{\"", text))
    assert called and called <= tools
