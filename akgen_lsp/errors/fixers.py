"""Fixers: whatever proposes corrected files for a broken kernel, behind one interface, with a registry.

    class Fixer(Protocol):
        name: str
        def candidates(self, broken: BrokenKernel, findings: Sequence[Finding], settings: Settings,
                       k: int) -> list[CandidateEdit]: ...

    register_fixer("deterministic", MyFixer)      # the "Fix this build error" work replaces the default here
    get_fixer("deterministic")

A fixer proposes; nothing it proposes is trusted: the repair benchmark (and the editor) compile and run every
candidate and count (or offer) only those that verify. Two fixers are registered:
- ``deterministic`` (`FindingFixer`): the fixes the findings already carry (the linter's renames and insertions, safe
  ones first) and the compiler's own suggestions (``; did you mean 'SoftMax'?`` at the error's column), each applied
  alone; the issue-13 fixes plug in by registering their own factory under this name;
- ``model`` (`ModelFixer`): the configured model backend (llama.cpp, transformers, an OpenAI-compatible server) asked
  with the repair prompt of `errors.samples` (the diagnostic report and the file), `k` samples, optionally
  constrained by a GBNF grammar; an answer is the whole file in a ```cpp block, or a unified diff of it in a
  ```diff block. One `ModelFixer` keeps the backend it loaded (one per routed model) and one event loop for all the
  kernels it is asked about, until `close()` (a run of the repair benchmark is one `with ModelFixer(...)`): a local
  model is loaded once per process, a served model's HTTP client and its connection are reused.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from akgen_lsp.config import Settings
from akgen_lsp.errors.report import build_report
from akgen_lsp.errors.samples import extract_code, repair_messages
from akgen_lsp.findings import Edit, Finding, Severity, Span, apply_edits
from akgen_lsp.logs.blocks import ErrorBlock
from akgen_lsp.model.backends import Backend, BackendError, GenParams, Prompt, make_backend
from akgen_lsp.model.prompts import render_chat
from akgen_lsp.model.registry import ModelSpec
from akgen_lsp.model.route import route_request
from akgen_lsp.model.service import resolve_model_path


@dataclass(frozen=True)
class BrokenKernel:
    """One kernel to repair: its text, where it lives, its task, and what is known about its error."""

    id: str
    task_id: str
    task_root: str
    path: str  # as the prompt names it (op_kernel/add_math.cpp)
    file: Path  # on disk
    text: str
    host_dir: Path | None
    error_class: str  # the known class (the injected mistake)
    primary: ErrorBlock | None = None
    original_lint: frozenset[tuple[str, str]] = frozenset()  # the correct kernel's own lint errors
    run_findings: tuple[dict[str, Any], ...] = ()  # the findings of its real run (JSON shape)


@dataclass(frozen=True)
class CandidateEdit:
    text: str  # the whole corrected file
    title: str
    fixer: str


class Fixer(Protocol):
    name: str

    def candidates(
        self, broken: BrokenKernel, findings: Sequence[Finding], settings: Settings, k: int
    ) -> list[CandidateEdit]: ...


_SUGGESTION = re.compile(r"['\u2018](\w+)['\u2019].*?did you mean ['\u2018](\w+)['\u2019]")


def fixit_edit(finding: Finding, text: str) -> Edit | None:
    """The compiler's "did you mean" as an edit: the wrong name at the finding's place, renamed."""
    m = _SUGGESTION.search(finding.message)
    if m is None:
        return None
    wrong, right = m.group(1), m.group(2)
    lines = text.splitlines()
    line = finding.span.line
    if not 1 <= line <= len(lines):
        return None
    src = lines[line - 1]
    starts = [
        i
        for i in range(len(src))
        if src.startswith(wrong, i)
        and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_"))
        and (i + len(wrong) == len(src) or not (src[i + len(wrong)].isalnum() or src[i + len(wrong)] == "_"))
    ]
    if not starts:
        return None
    col = min(starts, key=lambda i: abs(i + 1 - finding.span.column)) + 1
    return Edit(Span(finding.path, line, col, line, col + len(wrong)), right)


class FindingFixer:
    """The default ``deterministic`` fixer (see the module docstring)."""

    name = "deterministic"

    def candidates(
        self, broken: BrokenKernel, findings: Sequence[Finding], settings: Settings, k: int
    ) -> list[CandidateEdit]:
        errors = [f for f in findings if f.severity is Severity.ERROR]
        ordered = [(fx, f) for f in errors for fx in f.fixes if fx.safe] + [
            (fx, f) for f in errors for fx in f.fixes if not fx.safe
        ]
        out: list[CandidateEdit] = []
        seen = {broken.text}
        for fx, _f in ordered:
            new = apply_edits(broken.text, fx.edits)
            if new not in seen:
                seen.add(new)
                out.append(CandidateEdit(new, fx.title, self.name))
        for f in errors:
            edit = fixit_edit(f, broken.text)
            if edit is not None:
                new = apply_edits(broken.text, [edit])
                if new not in seen:
                    seen.add(new)
                    out.append(
                        CandidateEdit(
                            new, f"Rename to '{edit.new_text}' (the compiler's suggestion)", self.name
                        )
                    )
        return out[:k]


# the settings that make one backend (`make_backend`): kernels whose routed settings agree on them share it
_BACKEND_KEYS = (
    "model.backend",
    "model.path",
    "model.endpoint",
    "model.name",
    "model.n_ctx",
    "model.n_threads",
    "model.n_gpu_layers",
    "model.device",
    "model.api_key_env",
    "model.timeout_s",
)


class ModelFixer:
    """Asks the model that routing picks for a repair (`model.route.route_request`, kind ``repair``: the largest of
    ``model.route.models`` within ``model.route.repair_ms`` / ``repair_j``; the configured ``model.*`` when routing
    is off) for `k` corrected files. The backends stay loaded until `close()` (or the end of a ``with`` block)."""

    name = "model"

    def __init__(
        self,
        grammar: str | Callable[[BrokenKernel], str] | None = None,
        max_tokens: int | None = None,
        workspace: Path | None = None,
    ) -> None:
        self.grammar = grammar  # a GBNF grammar, or one per broken kernel
        self.max_tokens = max_tokens
        self.workspace = workspace  # where routing looks for models/ when no akgen.toml configured it
        self._backends: dict[tuple[str, ...], Backend] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    def __enter__(self) -> ModelFixer:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the backends (a served model's HTTP client; a local model stays loaded for the process, shared
        with every backend that asks for it) and the event loop."""
        loop, self._loop = self._loop, None
        if loop is None:
            return
        for backend in self._backends.values():
            with contextlib.suppress(Exception):
                loop.run_until_complete(backend.close())
        self._backends.clear()
        loop.close()

    async def _backend(self, settings: Settings, spec: ModelSpec) -> Backend:
        key = tuple(str(settings[k]) for k in _BACKEND_KEYS)
        backend = self._backends.get(key)
        if backend is None:
            backend = make_backend(settings, spec.context if spec.known else None)
            if backend is None:
                raise BackendError(
                    "the model fixer needs a model: set model.backend and model.path (or "
                    "model.endpoint); see models/README.md",
                    "config",
                )
            await backend.load()
            self._backends[key] = backend
        return backend

    def routed(self, settings: Settings) -> tuple[Settings, ModelSpec, str]:
        """The settings of the model a repair goes to, its registry entry and what routing chose ("" when off)."""
        workspace = self.workspace or Path.cwd()
        routed, registry, note = route_request(settings, "repair", workspace)
        routed = resolve_model_path(routed, workspace)
        return routed, registry.for_model(routed["model.name"], routed["model.path"]), note

    def candidates(
        self, broken: BrokenKernel, findings: Sequence[Finding], settings: Settings, k: int
    ) -> list[CandidateEdit]:
        item: Finding | ErrorBlock | None = broken.primary or next(
            (f for f in findings if f.severity is Severity.ERROR), None
        )
        if item is None:
            return []
        routed, spec, _note = self.routed(settings)
        report = build_report(item, broken.text, broken.path, settings, use_store=False)
        messages = repair_messages(report.markdown(), broken.text, broken.path)
        template = spec.chat_template if spec.known else "qwen3"
        prompt = Prompt(
            render_chat(messages, template=template, think=False),
            messages=tuple(messages),
            kind="chat",
            think=False,
        )
        grammar = self.grammar(broken) if callable(self.grammar) else self.grammar
        if self._loop is None:
            self._loop = asyncio.new_event_loop()
        return self._loop.run_until_complete(self._ask(prompt, routed, spec, k, broken.text, grammar))

    async def _ask(
        self,
        prompt: Prompt,
        settings: Settings,
        spec: ModelSpec,
        k: int,
        broken_text: str,
        grammar: str | None,
    ) -> list[CandidateEdit]:
        backend = await self._backend(settings, spec)
        out: list[CandidateEdit] = []
        for i in range(k):
            # by default about the file's length; a local model's at most half its context (model.n_ctx: the
            # rest is the prompt's); a served model's context is the server's
            default = max(1024, len(prompt.text) // 2)
            if settings["model.backend"] != "openai":
                default = min(default, max(256, int(settings["model.n_ctx"]) // 2))
            params = GenParams(
                max_tokens=self.max_tokens or default,
                temperature=float(settings["model.temperature"]),
                top_p=float(settings["model.top_p"]),
                seed=1234 + i,
                timeout_s=float(settings["model.timeout_s"]) * 8,
                grammar=grammar,
            )
            gen = backend.stream(prompt, params)
            try:
                answer = await asyncio.wait_for(gen.text(), params.timeout_s)
            finally:
                await gen.aclose()
            code = extract_code(answer, broken_text)
            if code is not None:
                out.append(CandidateEdit(code, f"model sample {i + 1}", self.name))
        return out


_REGISTRY: dict[str, Callable[[], Fixer]] = {"deterministic": FindingFixer, "model": ModelFixer}


def register_fixer(name: str, factory: Callable[[], Fixer]) -> None:
    """Register (or replace) the factory of a fixer: `akgen errors bench --fixer NAME` uses it."""
    _REGISTRY[name] = factory


def fixer_names() -> list[str]:
    return list(_REGISTRY)


def get_fixer(name: str) -> Fixer:
    try:
        return _REGISTRY[name]()
    except KeyError:
        raise ValueError(f"unknown fixer {name!r}; the fixers are {', '.join(_REGISTRY)}") from None
