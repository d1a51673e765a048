"""The cost model's chip level and its inputs: arch profile -> launcher parameters, per-block timelines -> estimate.

Per core (in the launcher): one timeline per pipe; vector ops cost ``startup + slope x repeats`` cycles (two-source
ops by their UB bank groups), DMA ``latency + bytes / bandwidth``, and a GM transfer by its GM side (launcher/
charge.inc: the instruction's fixed cost, unaligned bursts, the core's share of the L2 and of HBM, same-address
waits); data dependencies through buffers (which is what TQue EnQue/DeQue and SetFlag/WaitFlag express) order the
pipes, so double buffering shows up by itself.

Chip level (here): blocks are placed on cores in waves (block b on core b mod cores; a core runs its blocks one
after another); the kernel takes as long as the busiest core, but never less than its HBM traffic (the launcher's
L2 misses and write-backs) over what HBM streams (``hbm_gbps`` x ``[cost.dma] hbm_efficiency``). It is an estimate
and always labelled as one.

Profile tables are read from ``load_arch(name).cost`` when present (``cost.vector.<op> = {startup = .., slope = ..}``
or ``[startup, slope]``, ``default`` for ops without an entry; width columns ``startup_b16``/``slope_b32``/
``slope_int``... become rows of their own that the launcher picks by the operand's element type; ``cost.dma.latency_cycles.gm_to_ub`` (or
``cost.dma_latency_cycles``); ``cost.issue_cycles``; ``cost.scalar.get_value_cycles``, the cycles of a LocalTensor
GetValue/SetValue) and ``bandwidth_gibps`` (``gm_to_ub``, ``gm_to_l1``,
``ub_to_gm``, ``ub_to_ub``, ``l0c_to_gm``, ``l1_to_l0a``, ``l1_to_l0b``; the short names ``gm_ub``... too); the UB
limit is ``memory.ub_usable`` when given. Missing tables fall back to the built-in defaults below (shared reference
§7) with a warning in the result.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from akgen_lsp.ascendc.arch import ArchError, ArchProfile, load_arch

# Built-in defaults: cycles (startup, slope per repeat) for the fp32/fp16-agnostic vector ops.
DEFAULT_VECTOR_COST: dict[str, tuple[float, float]] = {
    "add": (6.0, 2.07),
    "sub": (6.0, 2.07),
    "mul": (6.9, 2.1),
    "max": (4.0, 2.0),
    "min": (4.0, 2.0),
    "and": (4.0, 2.0),
    "or": (4.0, 2.0),
    "div": (13.0, 4.0),
    "adds": (5.0, 1.0),
    "muls": (5.0, 1.0),
    "maxs": (4.0, 1.0),
    "mins": (4.0, 1.0),
    "abs": (4.0, 1.0),
    "relu": (4.0, 1.0),
    "neg": (4.0, 1.0),
    "not": (4.0, 1.0),
    "exp": (12.0, 2.0),
    "ln": (14.0, 2.0),
    "sqrt": (13.0, 2.0),
    "rsqrt": (4.8, 1.06),
    "reciprocal": (13.0, 4.0),
    "duplicate": (1.0, 1.0),
    "cast": (5.0, 2.0),
    "select": (5.0, 2.0),
    "compare": (5.0, 2.0),
    "whole_reduce": (23.0, 7.0),
    "block_reduce": (15.0, 7.0),
    "reduce": (23.0, 7.0),
}
DEFAULT_BANDWIDTH_GIBPS: dict[str, float] = {
    "gm_ub": 101.0,
    "gm_l1": 135.0,
    "ub_gm": 188.0,
    "ub_ub": 1024.0,
    "l0c_gm": 70.0,
    "l1_l0a": 441.0,
    "l1_l0b": 220.0,
}
DEFAULT_DMA_LATENCY_CYCLES = 300.0
DEFAULT_ISSUE_CYCLES = 2.0
DEFAULT_UB_SCALAR_CYCLES = 1.0
PIPES = ("S", "V", "MTE1", "MTE2", "MTE3", "M", "FIX")


def _pair(v: Any) -> tuple[float, float] | None:
    if isinstance(v, Sequence) and not isinstance(v, str) and len(v) == 2:
        return float(v[0]), float(v[1])
    if isinstance(v, Mapping) and "startup" in v and "slope" in v:
        return float(v["startup"]), float(v["slope"])
    return None


# Width-specific columns of a [cost.vector] row -> the launcher's "<op>_b16" / "<op>_b32" / "<op>_int" rows (the
# launcher's cost_key picks one by the operand's element type and falls back to the plain row).
_WIDTHS = (("b16", 2, False), ("b32", 4, False), ("int", 4, True))


def _width_rows(profile: ArchProfile, op: str, row: Any) -> dict[str, tuple[float, float]]:
    if not isinstance(row, Mapping):
        return {}
    return {
        f"{op}_{suffix}": profile.vector_cost(op, width, integer)
        for suffix, width, integer in _WIDTHS
        if f"startup_{suffix}" in row or f"slope_{suffix}" in row
    }


def profile_for(arch: str) -> tuple[ArchProfile | None, list[str]]:
    try:
        return load_arch(arch), []
    except ArchError as exc:
        return None, [f"{exc}; the estimate uses Ascend910B2 defaults"]


# The catalog names bandwidth paths gm_to_ub, ...; the launcher's spec uses gm_ub, ...
_BW_ALIASES = {
    "gm_to_ub": "gm_ub",
    "gm_to_l1": "gm_l1",
    "ub_to_gm": "ub_gm",
    "ub_to_ub": "ub_ub",
    "l0c_to_gm": "l0c_gm",
    "l1_to_l0a": "l1_l0a",
    "l1_to_l0b": "l1_l0b",
}


def launcher_params(profile: ArchProfile | None) -> tuple[list[str], list[str]]:
    """Spec lines for the launcher (memory sizes, bandwidths, vector costs) and warnings about missing tables."""
    warnings: list[str] = []
    lines: list[str] = []
    cost: Mapping[str, Any] = profile.cost if profile else {}
    if profile is not None:
        lines.append(f"arch {profile.name}")
        mem = profile.memory
        ub = mem.get("ub_usable", mem.get("ub"))
        if ub is not None:
            lines.append(f"ub_bytes {int(ub)}")
        for key, name in (
            ("l1", "l1_bytes"),
            ("l0a", "l0a_bytes"),
            ("l0b", "l0b_bytes"),
            ("l0c", "l0c_bytes"),
        ):
            if key in mem:
                lines.append(f"{name} {int(mem[key])}")
        lines.append(f"clock_ghz {profile.clock_ghz}")
        if "buffers_per_position" in profile.limits:
            lines.append(f"buffers_per_position {int(profile.limits['buffers_per_position'])}")
        for dtype in profile.extra.get("unsupported_dtypes", []):
            lines.append(f"unsupported_dtype {dtype}")
    vec = cost.get("vector") if isinstance(cost, Mapping) else None
    table = dict(DEFAULT_VECTOR_COST)
    if isinstance(vec, Mapping) and vec:
        for op, v in vec.items():
            pair = _pair(v)
            if pair:
                table[str(op)] = pair
            if profile is not None:
                table.update(_width_rows(profile, str(op), v))
    else:
        warnings.append("the arch profile has no [cost.vector] table; vector op costs use built-in defaults")
    for op, (a, b) in sorted(table.items()):
        lines.append(f"cost {op} {a} {b}")
    bw = dict(DEFAULT_BANDWIDTH_GIBPS)
    given = {_BW_ALIASES.get(k, k): v for k, v in (profile.bandwidth_gibps if profile else {}).items()}
    if any(k in bw for k in given):
        bw.update({k: float(v) for k, v in given.items() if k in bw})
    else:
        warnings.append("the arch profile has no [bandwidth_gibps] table; DMA costs use built-in defaults")
    for k, v in sorted(bw.items()):
        lines.append(f"bw {k} {v}")
    latency: Any = DEFAULT_DMA_LATENCY_CYCLES
    if isinstance(cost, Mapping):
        dma = cost.get("dma")
        if isinstance(dma, Mapping) and isinstance(dma.get("latency_cycles"), Mapping):
            latency = dma["latency_cycles"].get("gm_to_ub", DEFAULT_DMA_LATENCY_CYCLES)
        else:
            latency = cost.get("dma_latency_cycles", DEFAULT_DMA_LATENCY_CYCLES)
    issue = (
        cost.get("issue_cycles", DEFAULT_ISSUE_CYCLES) if isinstance(cost, Mapping) else DEFAULT_ISSUE_CYCLES
    )
    # a LocalTensor GetValue/SetValue (a scalar load or store of local memory): the launcher's "ub_scalar" row
    scalar = cost.get("scalar") if isinstance(cost, Mapping) else None
    ub_scalar = (
        scalar.get("get_value_cycles", DEFAULT_UB_SCALAR_CYCLES)
        if isinstance(scalar, Mapping)
        else DEFAULT_UB_SCALAR_CYCLES
    )
    lines.append(f"cost ub_scalar {float(ub_scalar)} 0.0")
    lines.append(f"dma_latency_cycles {float(latency)}")
    lines.append(f"issue_cycles {float(issue)}")
    lines.extend(gm_side_params(profile))
    return lines, warnings


# [cost.dma] keys of the GM side of a DMA (launcher/charge.inc charge_gm_dma) -> the launcher's spec keys
_GM_SIDE = {
    "hbm_efficiency": "hbm_efficiency",
    "l2_gbps": "l2_gbps",
    "l2_line_bytes": "l2_line_bytes",
    "instr_cycles": "dma_instr_cycles",
    "unaligned_burst_bytes": "unaligned_burst_bytes",
    "core_hbm_read_gbps": "core_hbm_read_gbps",
    "core_write_gbps": "core_write_gbps",
    "uncached_burst_cycles": "uncached_burst_cycles",
    "same_address": "same_address",
}


def gm_side_params(profile: ArchProfile | None) -> list[str]:
    """Spec lines of the GM-side model: cores, HBM, L2 and the [cost.dma] terms; none without a profile (the
    launcher then charges GM transfers at the path bandwidth alone)."""
    if profile is None or profile.hbm_gbps <= 0:
        return []
    lines = [
        f"aiv_cores {int(profile.aiv_cores)}",
        f"aic_cores {int(profile.aic_cores)}",
        f"hbm_gbps {float(profile.hbm_gbps)}",
    ]
    if "l2" in profile.memory:
        lines.append(f"l2_bytes {int(profile.memory['l2'])}")
    if "ub_bank_groups" in profile.memory:
        lines.append(f"ub_bank_groups {int(profile.memory['ub_bank_groups'])}")
    dma = profile.cost.get("dma") if isinstance(profile.cost, Mapping) else None
    if isinstance(dma, Mapping):
        for key, spec in _GM_SIDE.items():
            if key in dma:
                lines.append(f"{spec} {float(dma[key])}")
    return lines


def hbm_efficiency(profile: ArchProfile | None) -> float:
    dma = profile.cost.get("dma") if profile is not None and isinstance(profile.cost, Mapping) else None
    return float(dma.get("hbm_efficiency", 1.0)) if isinstance(dma, Mapping) else 1.0


def fold_split_launch(blocks: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """A split launch (mixed AIC/AIV kernel) reports one summary per core, tagged with its AI Core (`group`): the
    cores of an AI Core run side by side, so the AI Core's time is the longest of them and its work their sum."""
    if not any("group" in b for b in blocks):
        return list(blocks)
    groups: dict[int, dict[str, Any]] = {}
    for b in blocks:
        g = groups.setdefault(
            int(b.get("group", b.get("block", 0))),
            {"cycles": 0.0, "busy": dict.fromkeys(PIPES, 0.0), "gm_read": 0, "gm_write": 0, "gm_hbm": 0.0},
        )
        g["cycles"] = max(g["cycles"], float(b.get("cycles", 0.0)))
        for p in PIPES:
            g["busy"][p] += float(b.get("busy", {}).get(p, 0.0))
        g["gm_read"] += int(b.get("gm_read", 0))
        g["gm_write"] += int(b.get("gm_write", 0))
        g["gm_hbm"] += _hbm_bytes(b)
    return [groups[k] for k in sorted(groups)]


def _hbm_bytes(b: Mapping[str, Any]) -> float:
    """A block's HBM traffic: the launcher's GM-side model (L2 misses, write-backs) when it ran, else its GM bytes."""
    if "gm_hbm" in b:
        return float(b["gm_hbm"])
    return float(int(b.get("gm_read", 0)) + int(b.get("gm_write", 0)))


def estimate(blocks: Sequence[Mapping[str, Any]], profile: ArchProfile | None) -> dict[str, Any]:
    """Chip-level estimate from the launcher's per-block summaries."""
    blocks = fold_split_launch(blocks)
    clock = profile.clock_ghz if profile else 1.85
    uses_cube = any(float(b.get("busy", {}).get("M", 0)) > 0 for b in blocks)
    cores = (profile.aic_cores if uses_cube else profile.aiv_cores) if profile else (24 if uses_cube else 48)
    cores = max(int(cores), 1)
    hbm_gbps = profile.hbm_gbps if profile else 1600.0
    per_core = [0.0] * cores
    busy = dict.fromkeys(PIPES, 0.0)
    gm_bytes = 0
    hbm_bytes = 0.0
    for i, b in enumerate(blocks):
        per_core[i % cores] += float(b.get("cycles", 0.0))
        for p in PIPES:
            busy[p] += float(b.get("busy", {}).get(p, 0.0))
        gm_bytes += int(b.get("gm_read", 0)) + int(b.get("gm_write", 0))
        hbm_bytes += _hbm_bytes(b)
    n = len(blocks)
    waves = (n + cores - 1) // cores if n else 0
    core_us = max(per_core) / (clock * 1e3) if per_core else 0.0
    hbm_gbps *= hbm_efficiency(profile)  # the share of the peak that streaming reaches ([cost.dma])
    hbm_us = hbm_bytes / (hbm_gbps * 1e9) * 1e6 if hbm_gbps > 0 else 0.0
    us = max(core_us, hbm_us)
    busiest = max(range(cores), key=lambda c: per_core[c]) if per_core else 0
    crit = [b for i, b in enumerate(blocks) if i % cores == busiest]
    crit_busy = {p: sum(float(b.get("busy", {}).get(p, 0.0)) for b in crit) for p in PIPES}
    if hbm_us >= core_us and hbm_us > 0:
        bound = "HBM"
    else:
        bound = max(crit_busy, key=lambda p: crit_busy[p]) if any(crit_busy.values()) else "none"
    used = min(n, cores) or 1
    pipes = {
        p: {
            "busy_us": round(busy[p] / (clock * 1e3), 4),
            "utilization": round(busy[p] / (clock * 1e3) / (us * used), 4) if us > 0 else 0.0,
        }
        for p in PIPES
        if busy[p] > 0
    }
    return {
        "label": "estimate",
        "us": round(us, 4),
        "arch": profile.name if profile else "Ascend910B2",
        "bound": bound,
        "cores": cores,
        "core_kind": "AIC" if uses_cube else "AIV",
        "blocks": n,
        "waves": waves,
        "core_us": round(core_us, 4),
        "hbm_us": round(hbm_us, 4),
        "gm_bytes": gm_bytes,
        "hbm_bytes": int(hbm_bytes),
        "pipes": pipes,
    }


def chrome_trace(
    traces: Mapping[int, Sequence[Sequence[Any]]],
    blocks: Sequence[Mapping[str, Any]],
    profile: ArchProfile | None,
    source: str = "",
) -> str:
    """Chrome-trace JSON text (Perfetto): one process per core, one thread per pipe; times in microseconds. Written
    line by line, not built as objects for json.dumps: every save writes one (3000 events for the add sample), and the
    objects and their encoding cost as much as the run's own events did to read."""
    clock = profile.clock_ghz if profile else 1.85
    uses_cube = any(float(b.get("busy", {}).get("M", 0)) > 0 for b in blocks)
    cores = max(int((profile.aic_cores if uses_cube else profile.aiv_cores) if profile else 48), 1)
    offset: dict[int, float] = {}
    core_clock = [0.0] * cores
    for i, b in enumerate(blocks):
        c = i % cores
        offset[int(b.get("block", i))] = core_clock[c]
        core_clock[c] += float(b.get("cycles", 0.0))
    per_us = clock * 1e3
    file = json.dumps(source)
    quoted: dict[str, str] = {}
    lines: list[str] = []
    named: set[tuple[int, int]] = set()
    for block, evs in sorted(traces.items()):
        core = block % cores
        base = offset.get(block, 0.0)
        for ev in evs:
            pipe, start, dur, name, line = int(ev[0]), float(ev[1]), float(ev[2]), str(ev[3]), int(ev[4])
            if not (
                math.isfinite(start) and math.isfinite(dur)
            ):  # the box wrote the events: no NaN in the JSON
                continue
            if (core, pipe) not in named:
                named.add((core, pipe))
                label = PIPES[pipe] if 0 <= pipe < len(PIPES) else str(pipe)
                lines.append(
                    f'{{"ph":"M","name":"thread_name","pid":{core},"tid":{pipe},'
                    f'"args":{{"name":{json.dumps(label)}}}}}'
                )
            q = quoted.get(name)
            if q is None:
                q = quoted[name] = json.dumps(name)
            lines.append(
                f'{{"ph":"X","name":{q},"pid":{core},"tid":{pipe},"ts":{(base + start) / per_us:.6f},'
                f'"dur":{dur / per_us:.6f},"args":{{"block":{block},"line":{line},"file":{file}}}}}'
            )
    for c in range(min(cores, len(blocks))):
        lines.append(f'{{"ph":"M","name":"process_name","pid":{c},"args":{{"name":"core {c} (estimate)"}}}}')
    return (
        '{"traceEvents":[\n' + ",\n".join(lines) + '\n],"displayTimeUnit":"ns",'
        '"otherData":{"note":"akgen sim cost-model estimate, not a measurement"}}\n'
    )
