"""The inline-completion pipeline, stage by stage; each stage is a plain function or a small class tested alone.

    split -> cache -> debounce -> mode (syntax tree) -> budget + retrieval -> prompt -> stream with stop rules
          -> extract (chat) -> post-filters -> range -> cache fill (typed-ahead entries)

The post-filters are in filters.py. `CompletionService` (service.py) strings them together with a backend; nothing here knows which backend it is.
Positions are 0-based lines and characters counted in code points.
"""

from __future__ import annotations

import re
import statistics
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from cachetools import TTLCache

from akgen_lsp.ascendc.catalog import Catalog, Entry
from akgen_lsp.model.filters import AroundCursor

# ----------------------------------------------------------------------------------------------- result


@dataclass
class InlineResult:
    """One inline completion: the text and the range it replaces (on one line), where it came from and how long each
    stage took (milliseconds)."""

    text: str
    start_line: int
    start_character: int
    end_line: int
    end_character: int
    source: str  # model | catalog | cache
    timings: dict[str, float] = field(default_factory=dict)
    # the same text as an LSP snippet (a call's parameters as tab stops), where it is one: what accepting inserts
    snippet: str | None = None


# ----------------------------------------------------------------------------------------------- split


@dataclass(frozen=True)
class Cursor(AroundCursor):
    prefix: str
    suffix: str
    line: int
    character: int

    @property
    def offset(self) -> int:
        return len(self.prefix)


def split_at(text: str, line: int, character: int) -> Cursor:
    """Split `text` at a 0-based (line, character); positions past the end are clamped."""
    start = row = 0
    for _ in range(max(0, line)):
        nl = text.find("\n", start)
        if nl < 0:
            break
        start = nl + 1
        row += 1
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    col = min(max(0, character), end - start)
    if end > start and text[end - 1] == "\r" and col > end - start - 1:
        col = end - start - 1
    cut = start + col
    return Cursor(text[:cut], text[cut:], row, col)


# ----------------------------------------------------------------------------------------------- debounce


class Debouncer:
    """An adaptive delay per document, after Tabby: follow the typing rhythm, minus what the model takes anyway.

    With the recent intervals between requests of a document, the delay is 1.2 x their median, clamped to
    [base / 2, 4 x base], minus half the average model latency, and never below base / 4. A base of 0 disables it.
    """

    def __init__(self, base_ms: float, history: int = 8) -> None:
        self.base_ms = float(base_ms)
        self._last: dict[str, float] = {}
        self._intervals: dict[str, deque[float]] = {}
        self._latency_ms: float | None = None

    def observe_request(self, doc: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        last = self._last.get(doc)
        self._last[doc] = now
        if last is not None:
            gap = (now - last) * 1000.0
            if gap < 5000:  # a pause is not a rhythm
                self._intervals.setdefault(doc, deque(maxlen=8)).append(gap)

    def observe_latency(self, ms: float) -> None:
        self._latency_ms = ms if self._latency_ms is None else 0.8 * self._latency_ms + 0.2 * ms

    def delay_ms(self, doc: str) -> float:
        if self.base_ms <= 0:
            return 0.0
        gaps = self._intervals.get(doc)
        target = self.base_ms
        if gaps and len(gaps) >= 2:
            target = min(max(1.2 * statistics.median(gaps), self.base_ms / 2), 4 * self.base_ms)
        if self._latency_ms is not None:
            target -= self._latency_ms / 2
        return max(target, self.base_ms / 4)


# ----------------------------------------------------------------------------------------------- cache


class CompletionCache:
    """LRU + TTL cache of completions keyed by the text around the cursor (the windows the prompt sees).

    `put` also stores typed-ahead entries: for each position inside the answer, the prefix the user reaches by typing
    the answer so far maps to the rest of it, so typing along a suggestion costs no model call. Keys are hashes of the
    windows (with the lengths), so an entry costs a few dozen bytes whatever the document's size.
    """

    def __init__(
        self,
        maxsize: int = 256,
        ttl_s: float = 300.0,
        prefix_chars: int = 4096,
        suffix_chars: int = 1024,
        forward_chars: int = 256,
        timer: Callable[[], float] = time.monotonic,
    ) -> None:
        self.prefix_chars = prefix_chars
        self.suffix_chars = suffix_chars
        self.forward_chars = forward_chars
        self._answers: TTLCache[tuple[int, int, int], str] = TTLCache(
            maxsize=max(1, maxsize), ttl=ttl_s, timer=timer
        )
        self._forward: TTLCache[tuple[int, int, int], tuple[str, int]] = TTLCache(
            maxsize=max(1, maxsize) * 16, ttl=ttl_s, timer=timer
        )
        self.hits = 0
        self.misses = 0

    def _key(self, prefix: str, suffix: str) -> tuple[int, int, int]:
        p = prefix[-self.prefix_chars :]
        s = suffix[: self.suffix_chars]
        return (hash(p), hash(s), len(p) * 100003 + len(s))

    def get(self, prefix: str, suffix: str) -> str | None:
        key = self._key(prefix, suffix)
        hit = self._answers.get(key)
        if hit is None:
            fwd = self._forward.get(key)
            if fwd is not None:
                hit = fwd[0][fwd[1] :]
        if hit is None:
            self.misses += 1
        else:
            self.hits += 1
        return hit

    def put(self, prefix: str, suffix: str, text: str) -> None:
        self._answers[self._key(prefix, suffix)] = text
        # typed-ahead: after typing text[:i], the rest text[i:] is still the suggestion
        for i in range(1, min(len(text), self.forward_chars)):
            self._forward[self._key(prefix + text[:i], suffix)] = (text, i)

    def clear(self) -> None:
        self._answers.clear()
        self._forward.clear()

    def __len__(self) -> int:
        return len(self._answers)


# ----------------------------------------------------------------------------------------------- mode

_IDENT_CHAR = re.compile(r"\w")
_CLOSERS_ONLY = re.compile(r"^[\s)\]};,\"']*$")


MODE_LINES_BEFORE = 80
MODE_LINES_AFTER = 20


def decide_mode(text: str, cursor: Cursor, path: str = "<memory>") -> str:
    """``none``, ``single`` or ``multi`` from the syntax tree at the cursor (llm-ls's rule).

    None in the middle of a word or with code after the cursor on the line (other than closers); single line in a
    comment, a string, or mid-expression; multi-line on a blank line inside a block or at an empty block body.
    Only the lines around the cursor are parsed (80 before, 20 after).
    """
    lp, ls = cursor.line_prefix, cursor.line_suffix
    if lp and ls and _IDENT_CHAR.match(lp[-1]) and _IDENT_CHAR.match(ls[0]):
        return "none"
    if ls.strip() and not _CLOSERS_ONLY.match(ls):
        return "none"
    from akgen_lsp.ascendc.syntax import parse

    prefix = cursor.prefix
    opened = prefix.rfind("/*")
    if opened > prefix.rfind("*/") and "//" not in prefix[prefix.rfind("\n", 0, opened) + 1 : opened]:
        return "single"  # inside a block comment (it may start before the parsed window)
    # Parse a window of lines around the cursor: the decision is local, and the cost stays flat on long files.
    lo = cursor.offset
    for _ in range(MODE_LINES_BEFORE):
        lo = text.rfind("\n", 0, lo)
        if lo <= 0:
            lo = 0
            break
    else:
        lo += 1
    hi = cursor.offset
    for _ in range(MODE_LINES_AFTER):
        nxt = text.find("\n", hi + 1)
        if nxt < 0:
            hi = len(text)
            break
        hi = nxt
    window = text[lo:hi]
    row = window.count("\n", 0, cursor.offset - lo)
    pf = parse(window, path)
    byte_col = len(lp.encode("utf-8", errors="surrogatepass"))
    before = (row, max(0, byte_col - 1))  # the character before the cursor: a comment ends at the line end
    for point in {(row, byte_col), before}:
        probe = pf.root.descendant_for_point_range(point, point)
        while probe is not None:
            if probe.type in (
                "comment",
                "string_literal",
                "raw_string_literal",
                "char_literal",
                "system_lib_string",
                "preproc_include",
                "preproc_def",
                "preproc_function_def",
            ):
                return "single"
            probe = probe.parent
    if not lp.strip():
        return "multi"
    if lp.rstrip().endswith("{") and not ls.strip():
        return "multi"
    return "single"


# ----------------------------------------------------------------------------------------------- stop rules

TOP_LEVEL_STARTS: tuple[str, ...] = (
    "#include",
    "#define",
    "#if",
    "#pragma",
    "namespace ",
    "template",
    "extern ",
    "class ",
    "struct ",
    "using ",
    "static ",
    "typedef ",
    "int main",
    "__global__",
    "constexpr ",
)


class StopRules:
    """Where to cut a streamed completion: a newline (single-line mode), a top-level declaration starting at column
    0, the first non-blank line of the text below the cursor, or a closing brace the completion did not open.

    `feed(chunk)` scans only the new characters (a lexer state for strings and comments, the brace depth, the line
    being written), so checking after every token costs O(token), not O(text); `check(text)` runs a fresh scan.
    """

    def __init__(self, mode: str, suffix: str, line_prefix: str = "") -> None:
        self.mode = mode
        below = [ln.strip() for ln in suffix.split("\n")[1:6] if ln.strip()]
        self.next_line = below[0] if below else ""
        self.line_prefix = line_prefix
        self.text = ""
        self._pos = 0
        self._depth = 0
        self._state = ""  # "" code | "//" | "/*" | '"' | "'"
        self._escape = False
        self._line_start = 0
        self._cut: int | None = None

    def stop_strings(self) -> tuple[str, ...]:
        """Stops a backend can apply itself (cheapest: the server stops generating)."""
        if self.mode == "single":
            return ("\n",)
        return tuple("\n" + k for k in TOP_LEVEL_STARTS[:2])

    def check(self, text: str) -> int | None:
        """The index to cut `text` at, or None to go on (a fresh scan of the whole text)."""
        fresh = StopRules.__new__(StopRules)
        fresh.__dict__.update(self.__dict__)
        fresh.text, fresh._pos, fresh._depth, fresh._state, fresh._escape = "", 0, 0, "", False
        fresh._line_start, fresh._cut = 0, None
        return fresh.feed(text)

    def _line_ends(self, end: int) -> int | None:
        """Judge the line text[_line_start:end] once it is complete; the first line continues the cursor's line."""
        start = self._line_start
        if start == 0:
            return None
        line = self.text[start:end]
        stripped = line.strip()
        if self.next_line and len(self.next_line) > 1 and stripped == self.next_line:
            return start
        if line[:1].strip() and (
            any(line.startswith(k) for k in TOP_LEVEL_STARTS)
            or (re.match(r"[A-Za-z_][\w:<>,\s*&]*\s+\w+\s*\(", line) and not line.startswith("}"))
        ):
            return start
        return None

    def feed(self, chunk: str) -> int | None:
        """Add streamed text; the index (in all text fed so far) to cut at, or None to go on."""
        if self._cut is not None:
            return self._cut
        self.text += chunk
        text = self.text
        if self.mode == "single":
            nl = text.find("\n", self._pos)
            self._pos = len(text)
            if nl >= 0:
                self._cut = nl
            return self._cut
        i, n = self._pos, len(text)
        while i < n:
            c = text[i]
            st = self._state
            if st == "//":
                if c == "\n":
                    self._state = ""
                    continue  # the newline is handled as code below
            elif st == "/*":
                if c == "/" and i > 0 and text[i - 1] == "*":
                    self._state = ""
            elif st in ('"', "'"):
                if self._escape:
                    self._escape = False
                elif c == "\\":
                    self._escape = True
                elif c == st or c == "\n":
                    self._state = ""
            elif c == "/" and i + 1 < n and text[i + 1] in "/*":
                self._state = "/" + text[i + 1]
                i += 1
            elif c == "/" and i + 1 == n:
                break  # a comment may start with the next chunk: look again then
            elif c in "\"'":
                self._state = c
            elif c == "{":
                self._depth += 1
            elif c == "}":
                self._depth -= 1
                if self._depth < 0:
                    at = self._line_start if not text[self._line_start : i].strip() else i
                    self._cut = at
                    return at
            if c == "\n":
                cut = self._line_ends(i)
                if cut is not None:
                    self._cut = cut
                    return cut
                self._line_start = i + 1
            i += 1
        self._pos = i
        return None


# ----------------------------------------------------------------------------------------------- range


def replace_range(text: str, cursor: Cursor) -> tuple[int, int, int, int]:
    """(start_line, start_character, end_line, end_character): an insertion at the cursor, or up to the end of the
    line when the rest of the line is only closers that the suggestion's first line ends with."""
    rest = cursor.line_suffix.rstrip("\r")
    first = text.split("\n", 1)[0]
    end = cursor.character
    if rest.strip() and _CLOSERS_ONLY.match(rest) and first.rstrip().endswith(rest.strip()):
        end = cursor.character + len(rest)
    return cursor.line, cursor.character, cursor.line, end


# ----------------------------------------------------------------------------------------------- catalog fallback

_TYPED = re.compile(
    r"(?:(?P<qual>[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*)::|(?P<member>[.>]))?(?P<word>[A-Za-z_]\w*)$"
)
_SNIPPET_FIELD = re.compile(r"\$\{\d+:([^}]*)\}|\$\d+")


def _call_args(entry: Entry, snippet: bool = False) -> str:
    """The call of `entry` with its parameters: their names (plain), or tab stops named after them (a snippet:
    ``Add(${1:dst}, ${2:src0}, ${3:src1}, ${4:count})$0``) that the editor visits on accepting."""
    if entry.snippet:
        return entry.snippet if snippet else _SNIPPET_FIELD.sub(lambda m: m.group(1) or "", entry.snippet)
    if entry.kind in ("function", "method", "macro") and entry.overloads:
        ov = min(entry.overloads, key=lambda o: (len(o.params), o.signature))
        names = [p.name or p.type for p in ov.params]
        if snippet:
            fields = [f"${{{i}:{_snippet_text(n)}}}" for i, n in enumerate(names, start=1)]
            return entry.short + "(" + ", ".join(fields) + ")$0"
        return entry.short + "(" + ", ".join(names) + ")"
    return entry.short


def _snippet_text(text: str) -> str:
    return re.sub(r"([$}\\])", r"\\\1", text)


def catalog_completion(catalog: Catalog, cursor: Cursor, cann_version: str | None = None) -> str | None:
    """Complete the API name being typed from the catalog: the rest of the best matching name, with the parameter
    names of its shortest overload (or its snippet) when it is a call. None when nothing is being typed or nothing
    matches."""
    found = catalog_completions(catalog, cursor, cann_version)
    return found[0] if found else None


def catalog_completions(
    catalog: Catalog, cursor: Cursor, cann_version: str | None = None
) -> tuple[str, str] | None:
    """`catalog_completion`'s text and the same completion as a snippet (the parameters as tab stops), or None."""
    lp = cursor.line_prefix
    m = _TYPED.search(lp)
    if not m:
        return None
    word = m.group("word")
    qual = m.group("qual") or ""
    member = bool(m.group("member"))
    if len(word) < 2 and not qual:
        return None
    pool: list[Entry] = []
    for e in catalog:
        if not e.short.startswith(word) or (
            e.short == word and e.kind not in ("function", "method", "macro")
        ):
            continue
        if cann_version and not e.exists_in(cann_version):
            continue
        if member and e.kind != "method":
            continue
        if qual and not (
            e.parent == qual or e.parent.endswith("::" + qual) or e.parent.split("::")[-1] == qual
        ):
            continue
        if not qual and not member and e.kind == "method":
            continue
        pool.append(e)
    if not pool:
        return None
    kind_rank = {"function": 0, "class": 1, "method": 0, "macro": 2, "type": 3, "enum": 3}
    pool.sort(key=lambda e: (e.short != word, kind_rank.get(e.kind, 4), len(e.short), e.name))
    best = pool[0]
    call = not cursor.line_suffix.lstrip().startswith("(")
    full = _call_args(best) if call else best.short
    if not full.startswith(word) or len(full) <= len(word):
        return None
    snippet = _call_args(best, snippet=True) if call else _snippet_text(best.short)
    return full[len(word) :], snippet[len(word) :]
