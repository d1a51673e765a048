"""NPU runtime errors in the logs CANN writes -> error blocks.

A failed kernel on an NPU shows up as an ACL or aclnn return code where the host checked it
(``aclrtSynchronizeStream(stream) failed: 507015``, ``ACL stream synchronize failed, error code:507035``,
``aclnnAdd failed ... 561002``) and, from CANN's error manager, an ``EZ9999: Inner Error!`` report: the device, the
core, the error code, a ``TraceBack`` and an ``errorStr`` that says what the hardware saw (``The DDR address of the
MTE instruction is out of range``, ``Illegal instruction, which is usually caused by unaligned UUB addresses``).
One failure is one block: the return-code line and the report that follows it. The codes and their meanings are
data (`npu_codes.toml`, each with its public source); the block's message names the code, its meaning and the
errorStr, and its class is the code's, refined by what the errorStr says (errors/classify.py).
"""

from __future__ import annotations

import functools
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from akgen_lsp.logs.blocks import ErrorBlock, LineParser, Note
from akgen_lsp.logs.signature import signature

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CODES_FILE = Path(__file__).resolve().with_name("npu_codes.toml")


@dataclass(frozen=True)
class NpuCode:
    code: int
    name: str
    meaning: str
    error_class: str
    source: str


@functools.lru_cache(maxsize=1)
def npu_codes() -> dict[int, NpuCode]:
    with CODES_FILE.open("rb") as fh:
        raw = tomllib.load(fh)
    return {
        int(c["code"]): NpuCode(
            int(c["code"]), str(c["name"]), str(c["meaning"]), str(c["class"]), str(c.get("source", ""))
        )
        for c in raw.get("code", ())
    }


_RET = re.compile(
    r"(?:failed|error code|errcode|error|ret(?:urn)?(?: ?code)?|status)\s*[:=(]?\s*(?:is\s*)?"
    r"(?P<code>[1-5]\d{5})\b",
    re.I,
)
_CALL = re.compile(r"\b(?P<call>acl\w+|aclnn\w+|rt\w+)\s*\(")
_EZ = re.compile(r"\b(?P<ez>E[A-Z][0-9A-Z]\d{3})\b(?:\[PID[^\]]*\][^:]*:|:)\s*(?P<msg>.*)$")
_ERROR_STR = re.compile(r"errorStr:\s*(?P<s>[^.\[]+(?:\.[^.\[]+)?)")
_EXCEPTION = re.compile(
    r"there is an? (?:exception of )?(?P<kind>[\w ]*?(?:aicore|aivec|vector core|fftsplus)[\w ]*?"
    r"(?:error exception|exception|error))\b",
    re.I,
)
_CORE = re.compile(r"core id is (?P<core>\d+)")
_RETCODE = re.compile(r"retCode=(?P<rc>0x[0-9a-f]+), \[(?P<what>[^\]]+)\]")
_SOURCE_AT = re.compile(r"\((?P<file>[^():\s]+\.(?:cpp|cc|py|asc|h)):(?P<line>\d+)\)")


class NpuParser(LineParser):
    """Line at a time; a block is open from a return-code or EZ line to the end of its report."""

    def __init__(self) -> None:
        super().__init__()
        self._details: list[str] = []

    def feed(self, text: str, line_no: int) -> bool:
        codes = npu_codes()
        ret = _RET.search(text)
        if ret is not None and int(ret.group("code")) in codes:
            code = codes[int(ret.group("code"))]
            if self.current is not None and self.current.extra.get("npu_code") == code.code:
                self._add(text)  # the same failure reported again further up the stack
                return True
            self._finish()
            call = _CALL.search(text)
            at = _SOURCE_AT.search(text)
            self.current = ErrorBlock(
                tool="npu-runtime",
                message="",
                code=f"NPU-{code.code}",
                raw=text,
                file=at.group("file") if at else None,
                line=int(at.group("line")) if at else None,
                error_class=code.error_class,
                origin={"log_line": line_no},
            )
            self.current.extra.update(
                npu_code=code.code, npu_name=code.name, npu_meaning=code.meaning, npu_source=code.source
            )
            if call:
                self.current.context.append(f"returned by {call.group('call')}")
            return True
        ez = _EZ.search(text)
        if ez is not None and (ez.group("ez").startswith("EZ") or "Inner Error" in text):
            if self.current is None:
                self.current = ErrorBlock(
                    tool="npu-runtime",
                    message="",
                    code=f"NPU-{ez.group('ez')}",
                    raw=text,
                    origin={"log_line": line_no},
                )
            else:
                self.current.raw += "\n" + text
            self._detail(text)
            return True
        if self.current is not None and (
            text.startswith((" ", "\t"))
            or "TraceBack" in text
            or (text.lstrip().startswith("[") and "INFO]" in text[:40])
        ):
            self._add(text)
            return True
        if self.current is not None:
            self._finish()
        return False

    def _add(self, text: str) -> None:
        assert self.current is not None
        if len(self.current.raw) < 3500:
            self.current.raw += "\n" + text
        self._detail(text)

    def _detail(self, text: str) -> None:
        cur = self.current
        assert cur is not None
        if (s := _ERROR_STR.search(text)) is not None and "error_str" not in cur.extra:
            cur.extra["error_str"] = s.group("s").strip()
        if (e := _EXCEPTION.search(text)) is not None and "exception" not in cur.extra:
            cur.extra["exception"] = e.group("kind").strip()
        if (c := _CORE.search(text)) is not None and "core" not in cur.extra:
            cur.extra["core"] = int(c.group("core"))
        if (r := _RETCODE.search(text)) is not None:
            cur.notes.append(Note(f"kernel task error retCode={r.group('rc')} [{r.group('what')}]"))

    def _finish(self) -> None:
        cur = self.current
        if cur is None:
            return
        parts = []
        if "npu_code" in cur.extra:
            parts.append(f"{cur.extra['npu_code']} {cur.extra['npu_name']}: {cur.extra['npu_meaning']}")
        else:
            parts.append(
                f"{cur.code.removeprefix('NPU-') if cur.code else 'NPU'}: Inner Error reported by the NPU "
                "runtime"
            )
        if "exception" in cur.extra:
            core = f" on core {cur.extra['core']}" if "core" in cur.extra else ""
            parts.append(f"{cur.extra['exception']}{core}")
        if "error_str" in cur.extra:
            parts.append(cur.extra["error_str"])
        cur.message = "; ".join(parts)
        cur.signature = signature(cur.message)
        self._done.append(cur)
        self.current = None
