"""Debounce, cancellation of superseded work, the worker thread, and inline-completion cancellation."""

from __future__ import annotations

import asyncio
import importlib.machinery
import sys
import threading
import types as pytypes
from dataclasses import dataclass
from typing import ClassVar

import pytest

from akgen_lsp.config import defaults
from akgen_lsp.server.features import inline
from akgen_lsp.server.scheduler import Scheduler


async def test_a_burst_runs_the_job_once():
    scheduler = Scheduler()
    runs: list[int] = []

    def job(n: int):
        async def run() -> None:
            runs.append(n)

        return run

    for n in range(5):
        scheduler.schedule("doc", "lint", job(n), delay_s=0.02)
    await asyncio.sleep(0.1)
    assert runs == [4]
    await scheduler.close()


async def test_track_cancels_the_previous_request_of_the_document():
    scheduler = Scheduler()
    started = asyncio.Event()

    async def request(uri: str) -> str:
        scheduler.track(uri, "inline")
        started.set()
        await asyncio.sleep(5)
        return "done"

    first = asyncio.ensure_future(request("a"))
    await started.wait()
    other = asyncio.ensure_future(request("b"))  # another document: not cancelled
    second = asyncio.ensure_future(request("a"))
    await asyncio.sleep(0.01)
    assert first.cancelled()
    assert not second.done() and not other.done()
    await scheduler.close()
    assert second.cancelled() and other.cancelled()


async def test_worker_runs_off_the_event_loop():
    scheduler = Scheduler()
    main = threading.get_ident()
    ident = await scheduler.run_in_worker(threading.get_ident)
    assert ident != main
    await scheduler.close()


@dataclass
class FakeResult:
    text: str
    start_line: int
    start_character: int
    end_line: int
    end_character: int
    source: str = "model"


class FakeService:
    instances: ClassVar[list[FakeService]] = []

    def __init__(self, settings, workspace=None) -> None:
        self.closed = False
        self.calls = 0
        FakeService.instances.append(self)

    async def complete(self, text: str, path: str, line: int, character: int):
        self.calls += 1
        if text == "slow":
            await asyncio.sleep(5)
        return FakeResult("Add(z, x, y, n);", line, character, line, character)

    async def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_service(monkeypatch: pytest.MonkeyPatch):
    name = "akgen_test_fake_service"
    module = pytypes.ModuleType(name)
    module.__spec__ = importlib.machinery.ModuleSpec(name, None)
    module.CompletionService = FakeService
    monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setattr(inline, "SERVICE_MODULE", name)
    FakeService.instances.clear()
    return FakeService


async def test_inline_completions_use_one_service_per_configuration(fake_service):
    completions = inline.InlineCompletions()
    settings = defaults()
    result = await completions.complete("text", "k.cpp", 3, 4, settings)
    assert result.text == "Add(z, x, y, n);"
    await completions.complete("text", "k.cpp", 3, 5, settings)
    assert len(fake_service.instances) == 1 and fake_service.instances[0].calls == 2
    changed = settings.with_overrides({"model.max_tokens": 32}, "test")
    await completions.complete("text", "k.cpp", 3, 5, changed)
    assert len(fake_service.instances) == 2 and fake_service.instances[0].closed
    off = settings.with_overrides({"completion.enable": False}, "test")
    assert await completions.complete("text", "k.cpp", 3, 5, off) is None
    await completions.close()
    assert fake_service.instances[1].closed


async def test_inline_completion_is_cancellable(fake_service):
    completions = inline.InlineCompletions()
    task = asyncio.ensure_future(completions.complete("slow", "k.cpp", 0, 0, defaults()))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await completions.close()


async def test_no_service_module_means_no_items(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(inline, "SERVICE_MODULE", "akgen_no_such_module_here")
    completions = inline.InlineCompletions()
    assert await completions.complete("text", "k.cpp", 0, 0, defaults()) is None
