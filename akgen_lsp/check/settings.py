"""The settings a check reads: one `config.Settings`, whatever the caller holds.

A check job gets its settings over the worker's pipe as JSON values (`plain_settings`); `settings_of` turns them (or
a caller's `Settings`, or nothing) back into a `Settings` over the defaults declared in `config._KEYS`, so the check
reads ``settings["toolchain.timeout_s"]`` and no default is restated here or at the call.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from akgen_lsp.config import KEYS, Settings, defaults


def plain_settings(settings: Settings) -> dict[str, Any]:
    """The settings as JSON values (what a check job gets over the worker's pipe)."""
    return {
        k: v
        for k, v in settings.as_dict().items()
        if isinstance(v, (str, int, float, bool, list, type(None)))
    }


def settings_of(settings: Settings | Mapping[str, Any] | None) -> Settings:
    """`settings` as a `Settings`: as it is; a mapping of dotted keys (a job's plain settings) over the defaults, a
    value of None or "" and a key this version does not know left at the default; None: the defaults."""
    if isinstance(settings, Settings):
        return settings
    base = defaults()
    if not settings:
        return base
    given = {k: v for k, v in settings.items() if k in KEYS and v is not None and v != ""}
    return base.with_overrides(given, "the check's caller") if given else base
