"""SIGINT and SIGTERM: stop at once, say in one line how far the run got, exit 128 + signal.

`signals_stop()` installs handlers that raise `Interrupted` (a
KeyboardInterrupt, so plugin guards let it through) wherever the process is;
the entry point turns it into one line such as `interrupted (SIGINT) while
scheduling: 120 of 5,000 pods decided; nothing was written` and exits 130
(SIGINT) or 143 (SIGTERM). Commands report their stage with `stage()` and
`progress()`; output files are written whole or not at all (`write_atomically`),
so an interrupted run leaves none half-written.
"""

from __future__ import annotations

import os
import signal
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType


class Interrupted(KeyboardInterrupt):
    """The process got SIGINT or SIGTERM (`signum`)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        """128 + the signal's number, as a shell reports a process the signal ended."""
        return 128 + self.signum

    @property
    def signal_name(self) -> str:
        return signal.Signals(self.signum).name


class _Stage:
    """What the running command is doing, for the line an interruption prints."""

    def __init__(self) -> None:
        self.what = "starting"
        self.decided: int | None = None
        self.pending = 0

    def describe(self) -> str:
        if self.decided is None:
            return self.what
        return f"{self.what}: {self.decided:,} of {self.pending:,} pods decided"


_STAGE = _Stage()


def stage(what: str) -> None:
    """Note what the command does now (`reading cluster.yaml`, `scheduling`)."""
    _STAGE.what, _STAGE.decided = what, None


def progress(decided: int, pending: int) -> None:
    """Note how many of the pending pods have been decided."""
    _STAGE.decided, _STAGE.pending = decided, pending


def interrupted_message(exc: Interrupted) -> str:
    """The one line an interruption prints."""
    return f"interrupted ({exc.signal_name}) while {_STAGE.describe()}; no output was written"


def _raise(signum: int, frame: FrameType | None) -> None:
    raise Interrupted(signum)


@contextmanager
def signals_stop() -> Iterator[None]:
    """SIGINT and SIGTERM raise `Interrupted` in the main thread while the block runs."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    stage("starting")
    previous = {s: signal.signal(s, _raise) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def write_atomically(path: Path, data: bytes) -> None:
    """Write `data` to `path` whole or not at all: a regular file (or a new one) is written
    beside it and renamed over it; a device or a pipe is written directly."""
    if path.exists() and not path.is_file():
        try:
            path.write_bytes(data)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        return
    descriptor, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or ".")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
