"""Hardware profiles (Ascend 910B1..B4, 910_93, 310P, 950PR/950DT) as data: ``catalog/arch/<name>.toml``.

A profile file looks like::

    name = "Ascend910B2"
    soc = "Ascend910B2"
    npu_arch = "2201"            # the __NPU_ARCH__ family; catalog dtypes are keyed by it
    inherits = "_a2a3_common"    # optional: another file in the folder whose keys this one extends
    aic_cores = 24
    aiv_cores = 48
    clock_ghz = 1.85
    hbm_gbps = 1600.0
    [memory]                     # bytes
    ub = 196608
    l1 = 524288
    ...
    [cost]                       # the cost-model tables (see shared reference §7), read by the simulator

Unknown top-level keys are kept in `extra`.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ARCH_DIR = Path(__file__).with_name("catalog") / "arch"


class ArchError(ValueError):
    pass


@dataclass(frozen=True)
class ArchProfile:
    name: str
    soc: str
    npu_arch: str
    aic_cores: int
    aiv_cores: int
    clock_ghz: float
    hbm_gbps: float
    memory: Mapping[str, int]
    alignment: Mapping[str, int]
    limits: Mapping[str, int]
    bandwidth_gibps: Mapping[str, float]
    cost: Mapping[str, Any]
    doc: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ub_bytes(self) -> int:
        return int(self.memory["ub"])

    @property
    def ub_usable_bytes(self) -> int:
        """UB bytes kernels may hand to InitBuffer (248 KiB of 256 on 310P); falls back to the UB size."""
        return int(self.memory.get("ub_usable", self.memory["ub"]))

    def vector_cost(self, op: str, dtype_bytes: int = 2, integer: bool = False) -> tuple[float, float]:
        """(startup, slope) cycles of vector op `op` (a key of ``[cost.vector]``, e.g. "add", "exp") for one element width.

        Unknown ops get ``[cost.vector].default``. Width-specific keys (``startup_b16``/``slope_b32``, ...) win over the
        plain ``startup``/``slope``; integer types use ``startup_int``/``slope_int`` where the table has them.
        """
        table = self.cost.get("vector", {})
        row = table.get(op.lower()) or table.get("default") or {"startup": 6.0, "slope": 2.0}
        return _pick_cost(row, dtype_bytes, integer)

    def cast_cost(self, conversion: str) -> tuple[float, float]:
        """(startup, slope) cycles of a Cast such as "f16_to_f32" (``[cost.cast]``), or its default."""
        table = self.cost.get("cast", {})
        row = table.get(conversion.lower()) or table.get("default") or {"startup": 14.0, "slope": 2.0}
        return _pick_cost(row, 4, False)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "soc": self.soc,
            "npu_arch": self.npu_arch,
            "aic_cores": self.aic_cores,
            "aiv_cores": self.aiv_cores,
            "clock_ghz": self.clock_ghz,
            "hbm_gbps": self.hbm_gbps,
            "memory": dict(self.memory),
            "alignment": dict(self.alignment),
            "limits": dict(self.limits),
            "bandwidth_gibps": dict(self.bandwidth_gibps),
            "cost": dict(self.cost),
        }


def _pick_cost(row: Mapping[str, Any], dtype_bytes: int, integer: bool) -> tuple[float, float]:
    width = "b16" if dtype_bytes <= 2 else "b32"
    startup = row.get(f"startup_{width}", row.get("startup", 0.0))
    slope = row.get(f"slope_{width}", row.get("slope", 0.0))
    if integer:
        startup = row.get("startup_int", startup)
        slope = row.get("slope_int", slope)
    return float(startup), float(slope)


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), Mapping):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _read(folder: Path, stem: str, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    path = folder / f"{stem}.toml"
    if not path.is_file():
        raise ArchError(f"unknown arch {stem!r}; known: {', '.join(arch_names(folder))}")
    if stem in seen:
        raise ArchError(f"arch profiles inherit in a circle: {' -> '.join((*seen, stem))}")
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    parent = data.pop("inherits", None)
    if parent:
        data = _merge(_read(folder, parent, (*seen, stem)), data)
    return data


_KNOWN = {
    "name",
    "soc",
    "npu_arch",
    "aic_cores",
    "aiv_cores",
    "clock_ghz",
    "hbm_gbps",
    "memory",
    "alignment",
    "limits",
    "bandwidth_gibps",
    "cost",
    "doc",
}


def arch_names(folder: Path = ARCH_DIR) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.toml") if not p.stem.startswith("_"))


_ALIASES = {
    "910b1": "Ascend910B1",
    "910b2": "Ascend910B2",
    "910b3": "Ascend910B3",
    "910b4": "Ascend910B4",
    "910_93": "Ascend910_93",
    "910_9391": "Ascend910_93",
    "310p": "Ascend310P",
    "950": "Ascend950PR",
    "950pr": "Ascend950PR",
    "950dt": "Ascend950DT",
    "950pr_9599": "Ascend950PR",
    "dav-3510": "Ascend950PR",
    "dav_3510": "Ascend950PR",
    "3510": "Ascend950PR",
    "2201": "Ascend910B2",
    "dav-2201": "Ascend910B2",
    "dav-2002": "Ascend310P",
    "2002": "Ascend310P",
}


def canonical_arch(name: str) -> str:
    key = name.strip().lower().removeprefix("ascend")
    return _ALIASES.get(key, name)


@functools.lru_cache(maxsize=16)
def load_arch(name: str, folder: Path = ARCH_DIR) -> ArchProfile:
    data = _read(folder, canonical_arch(name))
    try:
        return ArchProfile(
            name=data["name"],
            soc=data.get("soc", data["name"]),
            npu_arch=str(data["npu_arch"]),
            aic_cores=int(data["aic_cores"]),
            aiv_cores=int(data["aiv_cores"]),
            clock_ghz=float(data["clock_ghz"]),
            hbm_gbps=float(data["hbm_gbps"]),
            memory={k: int(v) for k, v in data["memory"].items()},
            alignment={k: int(v) for k, v in data.get("alignment", {}).items()},
            limits={k: int(v) for k, v in data.get("limits", {}).items()},
            bandwidth_gibps={k: float(v) for k, v in data.get("bandwidth_gibps", {}).items()},
            cost=data.get("cost", {}),
            doc=data.get("doc", ""),
            extra={k: v for k, v in data.items() if k not in _KNOWN},
        )
    except KeyError as exc:
        raise ArchError(f"arch profile {name!r} lacks {exc.args[0]!r}") from None
