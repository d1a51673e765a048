"""The house's shape, read from the code's own imports (every import statement of every module of akgen_lsp, those
inside functions and under ``if TYPE_CHECKING:`` included): imports run one way down the layers of
docs/architecture.md (never sideways between two packages of one layer), no two modules import each other in a
loop, and pygls/lsprotocol stay in the server, typer and rich in the command line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "akgen_lsp"

# the layers of docs/architecture.md, bottom first: a package imports only packages of a lower layer, so two packages
# of one layer (bench and model) never import each other
LAYERS = {
    "safety": -2, "trust": -1,  # the trust model's guards and policy (docs/security.md), below the settings
    "error_classes": 0, "config": 0,
    "findings": 1,
    "ascendc": 2, "sandbox": 2, "logs": 2,  # logs: compiler output and build logs read (docs/architecture.md)
    "sim": 3,
    "bench": 4, "model": 4,
    "check": 5, "errors": 5,  # check: one kernel checked (the worker, its process, the result)
    "repair": 6,
    "generate": 7,  # the closed loop: verifies its rounds as the repair flow does
    "server": 8, "mcp": 8,  # the two adapters: LSP, and MCP for coding agents (mcp reaches check/ through
    # mcp/checking.py only); neither imports the other
    "cli": 9,
    "__main__": 10,  # `python -m akgen_lsp`: the command line
}
# third-party packages only the named top-level packages may import
ADAPTER_ONLY = {"pygls": {"server"}, "lsprotocol": {"server"}, "typer": {"cli"}, "rich": {"cli"}, "mcp": {"mcp"},
                "uvicorn": {"mcp"}}


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> tuple[set[str], set[str]]:
    """(modules of akgen_lsp that `name` imports, top-level third-party names it imports)."""
    ours: set[str] = set()
    theirs: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [(base, a.name) for a in node.names]
        else:
            continue
        for module, member in targets:
            if not module.startswith("akgen_lsp"):
                theirs.add(module.split(".")[0])
                continue
            # `from akgen_lsp.bench import anticheat` imports the module akgen_lsp.bench.anticheat
            sub = f"{module}.{member}" if member else None
            if sub in MODULES:
                ours.add(sub)
            elif module in MODULES:
                ours.add(module)
    return ours - {name}, theirs


IMPORTS = {name: _imports(name, path) for name, path in MODULES.items()}


def _package(module: str) -> str:
    """The top-level package (or module) of akgen_lsp that `module` belongs to: ``bench`` for akgen_lsp.bench.tasks."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _layer(module: str) -> int | None:
    return LAYERS.get(_package(module))


def test_every_top_level_package_has_a_layer() -> None:
    tops = {m.split(".")[1] for m in MODULES if "." in m}
    assert tops <= set(LAYERS), f"add {sorted(tops - set(LAYERS))} to LAYERS (and to docs/architecture.md)"


def _against_the_layers(imports: dict[str, tuple[set[str], set[str]]]) -> list[str]:
    out = []
    for m, (ours, _) in imports.items():
        for t in sorted(ours):
            lm, lt = _layer(m), _layer(t)
            if _package(m) != _package(t) and lm is not None and lt is not None and lt >= lm:
                out.append(f"{m} (layer {lm}) imports {t} (layer {lt})")
    return out


def test_imports_run_down_the_layers() -> None:
    wrong = _against_the_layers(IMPORTS)
    assert not wrong, "\n".join(wrong)


def test_the_layer_check_finds_an_import_up_or_sideways() -> None:
    made_up = {"akgen_lsp.bench.tasks": ({"akgen_lsp.model.service", "akgen_lsp.sim.runner"}, set()),
               "akgen_lsp.sim.runner": ({"akgen_lsp.bench.tasks"}, set())}
    assert _against_the_layers(made_up) == [
        "akgen_lsp.bench.tasks (layer 4) imports akgen_lsp.model.service (layer 4)",
        "akgen_lsp.sim.runner (layer 3) imports akgen_lsp.bench.tasks (layer 4)",
    ]


@pytest.mark.parametrize("library", sorted(ADAPTER_ONLY))
def test_adapter_libraries_stay_in_their_adapter(library: str) -> None:
    allowed = ADAPTER_ONLY[library]
    wrong = sorted(m for m, (_, theirs) in IMPORTS.items() if library in theirs and m.split(".")[1] not in allowed)
    assert not wrong, f"{library} is imported outside {sorted(allowed)}: {wrong}"


def _circles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in MODULES:
        if start in index:
            continue
        work = [(start, iter(sorted(IMPORTS[start][0])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(IMPORTS[nxt][0]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    component.append(m)
                    if m == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return out


def test_no_import_circles() -> None:
    found = _circles()
    assert not found, "modules that import each other in a loop: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_circle_finder_finds_a_circle() -> None:
    """The check above can fail: a circle made up for the test is found."""
    saved = dict(IMPORTS)
    try:
        IMPORTS["akgen_lsp.findings"] = (IMPORTS["akgen_lsp.findings"][0] | {"akgen_lsp.config"}, set())
        IMPORTS["akgen_lsp.config"] = (IMPORTS["akgen_lsp.config"][0] | {"akgen_lsp.findings"}, set())
        assert ["akgen_lsp.config", "akgen_lsp.findings"] in _circles()
    finally:
        IMPORTS.clear()
        IMPORTS.update(saved)
