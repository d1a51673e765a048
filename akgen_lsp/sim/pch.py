"""The objects every kernel build shares, built once per compiler and header version: the precompiled header and
the launcher object (and the program runtime's), each joined with the vector element loops compiled at -O2."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from akgen_lsp.sim import cache_prune
from akgen_lsp.sim.build_cache import atomic_dir, cache_dir, headers_hash, publish, reusable, seal
from akgen_lsp.sim.compiler import (
    BASE_FLAGS,
    INCLUDE_DIR,
    LAUNCHER_SRC,
    ToolchainError,
    compiler_id,
    run_compiler,
)

VEC_LOOPS_SRC = LAUNCHER_SRC.parent / "vec_loops.cpp"
# the common template instantiations every kernel build declares extern (include/akgen_sim/common_inst.h)
COMMON_INST_SRC = LAUNCHER_SRC.parent / "common_inst.cpp"


def ensure_pch(cxx: str, timeout: float = 300.0) -> Path:
    """The precompiled header for BASE_FLAGS; built once per compiler and header version."""
    key = hashlib.sha256(f"{compiler_id(cxx)}|{BASE_FLAGS}|{headers_hash()}".encode()).hexdigest()[:24]
    final = cache_dir() / "pch" / key
    header = final / "akgen_pch.h"
    if (final / "akgen_pch.h.gch").is_file():
        cache_prune.touch(final)
        return header
    tmp = atomic_dir(final)
    (tmp / "akgen_pch.h").write_text(f'#include "{INCLUDE_DIR / "akgen_sim" / "pch.h"}"\n', encoding="utf-8")
    res = run_compiler(
        [
            cxx,
            *BASE_FLAGS,
            "-I",
            str(INCLUDE_DIR),
            "-x",
            "c++-header",
            str(tmp / "akgen_pch.h"),
            "-o",
            str(tmp / "akgen_pch.h.gch"),
        ],
        timeout,
        tmp,
    )
    if res.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ToolchainError(f"building the precompiled header failed:\n{res.stderr[-2000:]}")
    publish(tmp, final)
    return header


def ensure_object(
    cxx: str, source: Path, folder: str, what: str, timeout: float = 300.0, extra: tuple[Path, ...] = ()
) -> Path:
    """The object of one of our own launcher sources (`source`: the kernel launcher, the program runtime), compiled
    once per compiler and header version into `<cache>/sim/<folder>/<key>/<stem>.o`, its hash checked on reuse."""
    key = hashlib.sha256(f"{compiler_id(cxx)}|{BASE_FLAGS}|{headers_hash()}|{folder}".encode()).hexdigest()[
        :24
    ]
    final = cache_dir() / folder / key
    name = source.stem + ".o"
    if reusable(final, name, meta_name="meta.json") is not None:
        return final / name
    shutil.rmtree(final, ignore_errors=True)  # an entry without its seal is not reused (nor kept in the way)
    tmp = atomic_dir(final)
    includes = ["-I", str(INCLUDE_DIR), "-I", str(LAUNCHER_SRC.parent)]
    parts = ["main.o", "vec_loops.o", *(f"extra{i}.o" for i in range(len(extra)))]
    for cmd in (
        [cxx, *BASE_FLAGS, *includes, "-c", str(source), "-o", str(tmp / "main.o")],
        # the element loops: -O2 after BASE_FLAGS' -Og (launcher/vec_loops.cpp says why the results stay)
        [cxx, *BASE_FLAGS, "-O2", *includes, "-c", str(VEC_LOOPS_SRC), "-o", str(tmp / "vec_loops.o")],
        *(
            [cxx, *BASE_FLAGS, *includes, "-c", str(src), "-o", str(tmp / f"extra{i}.o")]
            for i, src in enumerate(extra)
        ),
        [cxx, "-r", "-nostdlib", *(str(tmp / p) for p in parts), "-o", str(tmp / name)],
    ):
        res = run_compiler(cmd, timeout, tmp)
        if res.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise ToolchainError(f"building {what} failed:\n{res.stderr[-2000:]}")
    for part in parts:
        (tmp / part).unlink()
    (tmp / "meta.json").write_text(json.dumps({"ok": True}), encoding="utf-8")
    seal(tmp, name)
    publish(tmp, final)
    return final / name


def ensure_launcher(cxx: str, timeout: float = 300.0) -> Path:
    return ensure_object(cxx, LAUNCHER_SRC, "launcher", "the simulator launcher", timeout, (COMMON_INST_SRC,))
