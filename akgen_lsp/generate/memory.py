"""The experience memory: verified repairs (an error's signature -> the change that removed it) and improvements
(the bound of a correct kernel -> the change that made it faster) kept in the local store of repairs
(`errors.store.RepairStore`, provenance ``generate``), and the nearest few retrieved into later prompts: the
diagnostic report of a failure lists the similar repairs (`build_report(..., store=)`), a performance round the
improvements of the same bound."""

from __future__ import annotations

import logging

from akgen_lsp.errors.store import Repair, RepairStore, RepairStoreError
from akgen_lsp.findings import Finding
from akgen_lsp.repair.remember import store_repair

log = logging.getLogger(__name__)
PROVENANCE = "generate"


def perf_signature(bound: str | None) -> str:
    return f"performance: bound by {bound or 'unknown'}"


class ExperienceMemory:
    """What the loop learned, in a repair store; `k` entries are retrieved into a prompt."""

    def __init__(self, store: RepairStore, k: int = 2, model: str | None = None) -> None:
        self.store = store
        self.k = k
        self.model = model
        self.added = 0

    def _add(self, signature: str, before: str, after: str, **kw: str | None) -> int | None:
        if before == after:
            return None
        try:
            rid = self.store.add(signature, before, after, model=self.model, provenance=PROVENANCE, **kw)
        except RepairStoreError as exc:  # a repair that is not remembered is no reason to stop the loop
            log.warning("%s", exc)
            return None
        self.added += rid is not None
        return rid

    def remember_repair(
        self, target: Finding, before: str, after: str, *, task: str, path: str
    ) -> int | None:
        """A change that removed `target` (verified on the simulator by the caller)."""
        rid = store_repair(
            self.store, target, before, after, path=path, task=task, model=self.model, provenance=PROVENANCE
        )
        self.added += rid is not None
        return rid

    def remember_improvement(
        self,
        bound: str | None,
        before: str,
        after: str,
        *,
        est_before: float,
        est_after: float,
        task: str,
        path: str,
    ) -> int | None:
        """A change that kept every case passing and lowered the estimate."""
        message = f"estimate {est_before:.2f} us -> {est_after:.2f} us (bound by {bound or 'unknown'})"
        return self._add(
            perf_signature(bound),
            before,
            after,
            error_class="performance",
            message=message,
            task=task,
            path=path,
        )

    def improvements(self, bound: str | None) -> list[Repair]:
        try:
            return self.store.similar(perf_signature(bound), k=self.k, error_class="performance")
        except Exception as exc:  # a store that cannot be read: the prompt goes without it
            log.warning("cannot read the repair store: %s", exc)
            return []
