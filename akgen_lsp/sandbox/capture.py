"""Bounded capture of a child's output: the first and the last `limit` bytes are kept, what lies between is counted,
so a program that prints gigabytes costs its parent two buffers."""

from __future__ import annotations


class CappedOutput:
    def __init__(self, limit: int) -> None:
        self.limit = max(0, limit)
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        room = self.limit - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            if len(self.tail) > 2 * self.limit:  # trim in batches: a byte-by-byte trim would be quadratic
                del self.tail[: len(self.tail) - self.limit]

    @property
    def dropped(self) -> int:
        return max(0, self.total - len(self.head) - min(len(self.tail), self.limit))

    def text(self) -> str:
        tail = bytes(self.tail[-self.limit :]) if self.limit else b""
        if not self.dropped:
            return (bytes(self.head) + tail).decode("utf-8", errors="replace")
        note = (
            f"\n[akgen: {self.dropped} bytes of output dropped here; the first and the last {self.limit} bytes "
            "are kept]\n"
        )
        return (
            bytes(self.head).decode("utf-8", errors="replace") + note + tail.decode("utf-8", errors="replace")
        )
