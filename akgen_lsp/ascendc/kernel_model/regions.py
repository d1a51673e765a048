"""Byte ranges the preprocessor decides: code compiled only for CPU debugging (``#ifdef ASCENDC_CPU_DEBUG``) and the
branches of conditional groups (code a build may leave out)."""

from __future__ import annotations

import re

_DIRECTIVE_RE = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b([^\n]*)", re.M)
# a necessary condition that starts with a literal (fast to search for); most kernels have no conditional at all
_DIRECTIVE_HINT_RE = re.compile(rb"#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b")
_CPU_MACROS = (b"ASCENDC_CPU_DEBUG", b"__CCE_KT_TEST__")


def _directives(orig: bytes) -> list[re.Match[bytes]]:
    return list(_DIRECTIVE_RE.finditer(orig)) if b"#" in orig and _DIRECTIVE_HINT_RE.search(orig) else []


def _cpu_only_regions(directives: list[re.Match[bytes]]) -> list[tuple[int, int]]:
    """Byte ranges compiled only for CPU debugging: ``#ifdef ASCENDC_CPU_DEBUG`` (or ``#if defined(...)``) branches and
    the ``#else`` of an ``#ifndef ASCENDC_CPU_DEBUG``."""
    out: list[tuple[int, int]] = []
    stack: list[
        tuple[bool | None, int]
    ] = []  # (this branch is CPU-only: True/False/None unrelated, branch start)
    for m in directives:
        kind, cond = m.group(1), m.group(2)
        if kind in (b"if", b"ifdef", b"ifndef"):
            cpu: bool | None = None
            if any(c in cond for c in _CPU_MACROS) and b"||" not in cond:
                cpu = kind == b"ifdef" or (kind == b"if" and b"!" not in cond)
                if not cpu and b"&&" in cond:
                    cpu = None  # not (A and B): its #else is not only the CPU build
            stack.append((cpu, m.end()))
        elif kind in (b"elif", b"else") and stack:
            cpu, start = stack.pop()
            if cpu:
                out.append((start, m.start()))
            stack.append(((not cpu) if (cpu is not None and kind == b"else") else None, m.end()))
        elif kind == b"endif" and stack:
            cpu, start = stack.pop()
            if cpu:
                out.append((start, m.start()))
    return out


def _preprocessor_branches(orig: bytes, directives: list[re.Match[bytes]]) -> list[tuple[int, int]]:
    """Byte ranges of the branches of ``#if``/``#ifdef``/``#ifndef`` groups (include guards excepted): code that a
    build may leave out, so nothing in it is certain to run."""
    out: list[tuple[int, int]] = []
    stack: list[tuple[int, bool]] = []  # (branch start, is an include guard)
    for m in directives:
        kind, cond = m.group(1), m.group(2).strip()
        if kind in (b"if", b"ifdef", b"ifndef"):
            guard = (
                kind == b"ifndef"
                and re.match(
                    rb"\s*#\s*define\s+" + re.escape(cond) + rb"\b", orig[m.end() + 1 : m.end() + 200]
                )
                is not None
            )
            stack.append((m.end(), guard))
        elif kind in (b"elif", b"else") and stack:
            start, guard = stack.pop()
            out.append((start, m.start()))
            stack.append((m.end(), False))
        elif kind == b"endif" and stack:
            start, guard = stack.pop()
            if not guard:
                out.append((start, m.start()))
    return out
