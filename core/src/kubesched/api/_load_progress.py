"""How far `load_manifests` has got through its input, for a progress display.

The loader tells a `LoadTracker` when it starts a file (its size), how many objects each
document holds once parsed, and each object it has read; the tracker hands a
`LoadProgress` to the watcher's callback. The share of the input done weighs each file by
its size and, within a file, counts its objects read of those its documents hold: parsing a
large file shows no progress until its objects are known, then moves steadily.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from attrs import define, frozen


@frozen
class LoadProgress:
    """A snapshot: bytes of input (`total` 0 when unknown, as for standard input), the
    bytes' share done, objects read, and the seconds since loading began."""

    total_bytes: int
    done_bytes: int
    objects: int
    elapsed: float

    @property
    def seconds_left(self) -> float | None:
        """Time left at the pace so far; None until there is a pace to go by."""
        if not self.total_bytes or not self.done_bytes or self.elapsed <= 0:
            return None
        return self.elapsed * (self.total_bytes - self.done_bytes) / self.done_bytes


Watcher = Callable[[LoadProgress], None]
"""Called with the progress as it changes (often: a display should rate-limit itself)."""


def input_size(source: str | Path, suffixes: tuple[str, ...]) -> int:
    """Bytes of the files a source stands for (a file, or a directory's manifests); 0 for
    standard input or a path that is not there."""
    path = Path(source)
    try:
        if path.is_dir():
            return sum(p.stat().st_size for p in path.rglob("*") if p.suffix in suffixes)
        return path.stat().st_size if path.is_file() else 0
    except OSError:
        return 0


@define
class LoadTracker:
    """Counts a load's files and objects and reports them to `watcher`."""

    watcher: Watcher
    total_bytes: int
    _start: float = 0.0
    _files_done: int = 0
    _file_size: int = 0
    _file_expected: int = 0
    _file_read: int = 0
    _objects: int = 0

    def __attrs_post_init__(self) -> None:
        self._start = time.monotonic()

    def start_file(self, size: int) -> None:
        """A file of `size` bytes is being parsed."""
        self._files_done += self._file_size
        self._file_size, self._file_expected, self._file_read = size, 0, 0
        self._report()

    def expect(self, count: int) -> None:
        """A document of the current file holds `count` objects."""
        self._file_expected += count
        self._report()

    def object_read(self) -> None:
        """One more object read."""
        self._objects += 1
        self._file_read += 1
        self._report()

    def _report(self) -> None:
        share = self._file_read / self._file_expected if self._file_expected else 0.0
        done = self._files_done + int(self._file_size * share)
        elapsed = time.monotonic() - self._start
        self.watcher(LoadProgress(self.total_bytes, done, self._objects, elapsed))
