"""Accepted repairs go to the local store of repairs (`errors.store.RepairStore`): the diagnostic reports of later
errors with the same signature show them ("similar errors already fixed"), and `akgen errors synthesize` exports them
as training data, so the user's own accepted fixes become supervision."""

from __future__ import annotations

import logging
from pathlib import Path

from akgen_lsp.config import Settings
from akgen_lsp.errors.store import RepairStore, RepairStoreError, location_problem
from akgen_lsp.findings import Finding
from akgen_lsp.logs.findings import block_from_finding

log = logging.getLogger(__name__)


def store_path(settings: Settings | None) -> Path | None:
    """The file ``fix.store`` names (None: the default in the user cache folder), checked against the location
    rule (`errors.store.location_problem`); `RepairStoreError` names the allowed places when it is refused."""
    where = str(settings["fix.store"]) if settings is not None else ""
    if not where or settings is None:
        return None
    why = location_problem(Path(where), settings.origin("fix.store"), settings.project)
    if why:
        raise RepairStoreError(f"the repair store {where} is refused: {why}")
    return Path(where)


def store_for(settings: Settings | None) -> RepairStore:
    """The store of repairs the settings name (``fix.store``), else the one in the user cache folder."""
    return RepairStore(store_path(settings))


def store_repair(
    store: RepairStore,
    target: Finding,
    before: str,
    after: str,
    *,
    path: str,
    task: str | None,
    model: str | None,
    provenance: str,
) -> int | None:
    """Store the change that removed `target` under its block's signature; its id, or None when it was stored
    already, changes nothing, or the store cannot be written (logged: a repair that is not remembered is no reason
    to fail the fix or stop the loop)."""
    if before == after:
        return None
    block = block_from_finding(target)
    try:
        return store.add(
            block.signature,
            before,
            after,
            error_class=block.error_class or target.error_class,
            message=target.message,
            task=task,
            model=model,
            provenance=provenance,
            path=path,
        )
    except RepairStoreError as exc:
        log.warning("%s", exc)
        return None


def remember(
    target: Finding,
    before: str,
    after: str,
    *,
    path: str,
    task: str | None,
    model: str | None,
    provenance: str,
    settings: Settings | None = None,
) -> int | None:
    """Store the repair of `target` (`before` -> `after`) in the store the settings name; its id, or None (see
    `store_repair`; a store the location rule refuses is logged too)."""
    if before == after:
        return None
    try:
        store = store_for(settings)
    except RepairStoreError as exc:
        log.warning("%s", exc)
        return None
    return store_repair(
        store, target, before, after, path=path, task=task, model=model, provenance=provenance
    )
