"""Per-document work: debounce, cancellation of superseded work, and one worker thread for CPU-bound jobs.

Each job has a key (document URI, job name). Scheduling a job cancels the previous job with the same key, so a burst
of edits costs one lint, and a new completion request cancels the previous one for the same document. CPU-bound
work (parsing and linting) runs in a single worker thread: the event loop keeps answering, and tree-sitter's parser
is never used from two threads at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


class Scheduler:
    def __init__(self) -> None:
        self._tasks: dict[tuple[str, str], asyncio.Task[Any]] = {}
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="akgen-worker")

    def schedule(
        self, uri: str, name: str, job: Callable[[], Awaitable[Any]], delay_s: float = 0.0
    ) -> asyncio.Task[Any]:
        """Run `job` after `delay_s`, replacing (cancelling) the pending or running job with the same key."""
        key = (uri, name)
        self.cancel(uri, name)

        async def run() -> Any:
            if delay_s > 0:
                await asyncio.sleep(delay_s)
            return await job()

        task = asyncio.ensure_future(run())
        self._tasks[key] = task
        task.add_done_callback(lambda t: self._done(key, t))
        return task

    def track(self, uri: str, name: str) -> None:
        """Make the running task the current one for the key, cancelling the one it supersedes."""
        task = asyncio.current_task()
        key = (uri, name)
        previous = self._tasks.get(key)
        if previous is not None and previous is not task and not previous.done():
            previous.cancel()
        if task is not None:
            self._tasks[key] = task
            task.add_done_callback(lambda t: self._done(key, t))

    def _done(self, key: tuple[str, str], task: asyncio.Task[Any]) -> None:
        if self._tasks.get(key) is task:
            del self._tasks[key]
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.error("job %s for %s failed", key[1], key[0], exc_info=exc)

    def cancel(self, uri: str, name: str | None = None) -> None:
        for key in [k for k in self._tasks if k[0] == uri and (name is None or k[1] == name)]:
            task = self._tasks.pop(key)
            if not task.done():
                task.cancel()

    def pending(self, uri: str, name: str) -> bool:
        task = self._tasks.get((uri, name))
        return task is not None and not task.done()

    async def run_in_worker(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a CPU-bound function in the worker thread (one at a time, in order)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, *args)

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for task in tasks:
            task.cancel()
        # gather with return_exceptions collects the children's cancellations; our own still propagates
        await asyncio.gather(*tasks, return_exceptions=True)
        self._executor.shutdown(wait=False, cancel_futures=True)
