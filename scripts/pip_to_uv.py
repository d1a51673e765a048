"""pip's index settings as `uv pip install` arguments, one a line (scripts/setup.sh installs with uv, which reads no
pip configuration: a mirror set in pip.conf or PIP_INDEX_URL must reach uv too).

    python scripts/pip_to_uv.py        # reads `python -m pip config list` (files and PIP_* variables)

Carried: index-url, extra-index-url (with uv's `--index-strategy unsafe-best-match`, pip's rule of the best version
over all indexes), find-links, constraint, trusted-host. A local folder or file:// index that does not exist is left
out, as pip ignores it with a warning. Precedence as pip's: PIP_* variables, then the [install] section of pip's
files, then [global] (pip merges its files).
"""

from __future__ import annotations

import os
import subprocess
import sys
from urllib.parse import urlparse

FLAGS = {"index-url": "--index-url", "extra-index-url": "--extra-index-url", "find-links": "--find-links",
         "constraint": "--constraint", "trusted-host": "--allow-insecure-host"}
MULTI = {"extra-index-url", "find-links", "constraint", "trusted-host"}
# `pip config list` prints pip's merged files as `section.key='value'` and PIP_* variables as `:env:.key`: the
# variables win, then [install] (the command's section), then [global]
RANK = {":env:": 2, "install": 1, "global": 0}


def _exists(location: str) -> bool:
    if "://" not in location:
        return os.path.exists(location)
    parsed = urlparse(location)
    return parsed.scheme != "file" or os.path.exists(parsed.path)


def uv_args(config_list: str) -> list[str]:
    """The uv arguments for the output of `pip config list`."""
    best: dict[str, tuple[int, str]] = {}
    for line in config_list.splitlines():
        name, sep, value = line.partition("=")
        section, _, key = name.rpartition(".")
        if not sep or key not in FLAGS or section not in RANK:
            continue
        if key not in best or RANK[section] >= best[key][0]:
            best[key] = (RANK[section], value.strip().strip("'\""))
    args: list[str] = []
    for key, (_, value) in best.items():
        values = value.split() if key in MULTI else [value]
        for v in values:
            if key in ("index-url", "extra-index-url", "find-links", "constraint") and not _exists(v):
                continue
            args += [FLAGS[key], v]
    if "--extra-index-url" in args:
        args += ["--index-strategy", "unsafe-best-match"]
    return args


def main() -> int:
    listed = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True)
    if listed.returncode != 0:
        print(f"pip_to_uv.py: `pip config list` failed: {listed.stderr.strip()}", file=sys.stderr)
        return 1
    args = uv_args(listed.stdout)
    if args:
        print("\n".join(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
