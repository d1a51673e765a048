"""A check reads one `Settings`, whatever its caller holds: a job's plain JSON settings read back over the declared
defaults."""

from __future__ import annotations

import json

from akgen_lsp.check.settings import plain_settings, settings_of
from akgen_lsp.config import KEYS, defaults


def test_plain_settings_read_back_as_the_same_settings() -> None:
    mine = defaults().with_overrides({"toolchain": {"timeout_s": 12.5}, "arch": "Ascend910B3"}, "akgen.toml")
    back = settings_of(json.loads(json.dumps(plain_settings(mine))))
    assert back.as_dict() == mine.as_dict()


def test_what_is_missing_or_empty_is_the_declared_default() -> None:
    s = settings_of({"bench.mode": "", "arch": None, "no.such.key": 1, "toolchain.timeout_s": 5})
    assert s["bench.mode"] == KEYS["bench.mode"].default and s["arch"] == KEYS["arch"].default
    assert s["toolchain.timeout_s"] == 5.0
    assert settings_of(None).as_dict() == defaults().as_dict()
    given = defaults()
    assert settings_of(given) is given
