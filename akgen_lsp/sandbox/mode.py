"""Whether untrusted code is confined (`sim.sandbox`: "on", the default, or "off"), whether the machine can confine it,
and the sentence the server shows when it cannot or must not.

The mode comes from, in order: an explicit value, `use_mode` (a context the caller holds while it works with one
`Settings`), then the usual settings layers read from the current folder (`AKGEN_SIM_SANDBOX`, the nearest
`akgen.toml`). A settings file that cannot be read leaves the safe default, "on".
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import shutil
import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from akgen_lsp.config import Settings, SettingsError, load_settings

KEY = "sim.sandbox"
MODES = ("on", "off")

_mode: contextvars.ContextVar[str | None] = contextvars.ContextVar("akgen_sandbox_mode", default=None)


class SandboxUnavailable(RuntimeError):
    """Untrusted code was to run confined, but the machine cannot confine it; the message says how to fix that."""


def _from_settings(settings: Settings | Mapping[str, Any]) -> str:
    value = settings.get(KEY, "on")
    return value if value in MODES else "on"


def sandbox_mode(settings: Settings | Mapping[str, Any] | None = None) -> str:
    """ "on" or "off": from `settings` when given, else the innermost `use_mode`, else the settings of the current
    folder (environment and akgen.toml)."""
    if settings is not None:
        return _from_settings(settings)
    held = _mode.get()
    if held is not None:
        return held
    try:
        return _from_settings(load_settings(Path.cwd()))
    except (SettingsError, OSError):
        return "on"


@contextlib.contextmanager
def use_mode(mode: str | Settings | Mapping[str, Any]) -> Iterator[None]:
    """Run the code inside with this sandbox mode (a mode name, or the settings that hold one)."""
    value = mode if isinstance(mode, str) else _from_settings(mode)
    if value not in MODES:
        raise ValueError(f"sim.sandbox must be one of {', '.join(MODES)}, not {value!r}")
    token = _mode.set(value)
    try:
        yield
    finally:
        _mode.reset(token)


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


INSTALL_HINT = (
    "install bubblewrap (Debian/Ubuntu: `apt-get install bubblewrap`; Fedora: `dnf install bubblewrap`) "
    "and allow user namespaces (`sysctl -w kernel.unprivileged_userns_clone=1` where that sysctl exists, "
    "`sysctl -w user.max_user_namespaces=15000`; on Ubuntu 24.04 also "
    "`sysctl -w kernel.apparmor_restrict_unprivileged_userns=0`)"
)


@functools.lru_cache(maxsize=1)
def probe() -> str | None:
    """Why the sandbox cannot work on this machine (a sentence), or None when it can: bwrap is found, libseccomp's
    bindings load, and a trial box with every namespace starts."""
    bwrap = bwrap_path()
    if bwrap is None:
        return "bubblewrap (bwrap) is not installed"
    try:
        from akgen_lsp.sandbox.seccomp_filter import filter_bytes

        filter_bytes("kernel")
    except (ImportError, OSError, RuntimeError) as exc:
        return f"libseccomp's Python bindings (pyseccomp over libseccomp.so.2) do not load ({exc})"
    from akgen_lsp.sandbox.policy import ISOLATION, system_mounts

    true = shutil.which("true") or "/usr/bin/true"
    argv = [
        bwrap,
        *ISOLATION,
        *system_mounts("compiler"),
        "--proc",
        "/proc",
        "--",
        true,
    ]
    try:
        res = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bwrap does not run ({exc})"
    if res.returncode != 0:
        said = (res.stderr or res.stdout).strip().splitlines()
        return f"bwrap cannot create its namespaces here ({said[-1] if said else f'exit status {res.returncode}'})"
    return None


def prime() -> None:
    """Do a box's once-per-process work now (the probe's trial box, the seccomp programs, the system view), so that
    processes forked from this one (the check worker's jobs) start boxes at once."""
    if probe() is not None:
        return
    from akgen_lsp.sandbox.policy import PROFILES, system_mounts
    from akgen_lsp.sandbox.seccomp_filter import filter_bytes

    for profile in PROFILES:
        filter_bytes(profile)
        system_mounts(profile)


def require() -> None:
    """Raise SandboxUnavailable with a sentence saying how to fix it when the sandbox cannot work here."""
    why = probe()
    if why is not None:
        raise SandboxUnavailable(
            f"untrusted code (kernels, their host code, the compiler on their sources) runs only in the sandbox, "
            f"and it cannot start: {why}. To fix it, {INSTALL_HINT}; or, only if you trust every kernel you check, "
            f'set sim.sandbox = "off" (akgen.toml, or AKGEN_SIM_SANDBOX=off)'
        )


def sandbox_warning(settings: Settings | Mapping[str, Any] | None = None) -> str | None:
    """The warning a front end shows with every check: the sandbox is off, or it cannot start; None when it is on and
    works."""
    if sandbox_mode(settings) == "off":
        origin = settings.origin(KEY) if isinstance(settings, Settings) else "the settings"
        return (
            f'akgen: sim.sandbox is "off" ({origin}): kernels, their host code and the compiler run unconfined '
            'with your rights; set sim.sandbox = "on" (needs bubblewrap) to confine them.'
        )
    why = probe()
    if why is not None:
        return (
            f"akgen: kernels are not compiled or run because the sandbox cannot start: {why}; {INSTALL_HINT} "
            '(or set sim.sandbox = "off" if you trust every kernel you check).'
        )
    return None
