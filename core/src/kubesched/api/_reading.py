"""Reading input files within bounds: regular files only, and no more than a set size.

A FIFO, a terminal or a device such as `/dev/zero` would block a read or
never end it; a file of gigabytes would exhaust memory long before it was
parsed. Both are refused before a byte is read, with one line. The limit is
`DEFAULT_MAX_INPUT_BYTES`, overridden by the environment variable
`KUBESCHED_MAX_INPUT_BYTES` (a byte count); standard input is read up to the
same limit.
"""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path
from typing import BinaryIO

MAX_INPUT_VARIABLE = "KUBESCHED_MAX_INPUT_BYTES"
"""The environment variable that sets the largest input kubesched reads, in bytes."""
DEFAULT_MAX_INPUT_BYTES = 2 * 1024**3
"""The largest input read by default: 2 GiB (a 5,000-node cluster's dump is about 100 MB)."""

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class ReadError(Exception):
    """An input that was not read: `message` says why, in a few words."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def max_input_bytes() -> int:
    """The largest input to read, from `KUBESCHED_MAX_INPUT_BYTES` or the default."""
    given = os.environ.get(MAX_INPUT_VARIABLE, "").strip()
    if not given:
        return DEFAULT_MAX_INPUT_BYTES
    try:
        value = int(given)
    except ValueError:
        raise ReadError(f"{MAX_INPUT_VARIABLE}={given[:40]!r} is not a byte count") from None
    if value < 0:
        raise ReadError(f"{MAX_INPUT_VARIABLE}={value} is not a byte count")
    return value


def _size_text(size: int) -> str:
    for unit, scale in (("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReadError(f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_file(path: str | Path, limit: int | None = None) -> str:
    """A regular file's UTF-8 text, refused before reading when it is not a regular file or
    is larger than `limit` (default: `max_input_bytes()`)."""
    return _decode(_read_bytes(path, limit))


_JSON_OBJECT = re.compile(rb"[ \t\n\r\f\v]*\{")


def read_text_or_json(path: str | Path) -> str | bytes:
    """`read_file`'s text, but the bytes themselves when they are ASCII (so UTF-8 text
    alike) and open with `{`: a JSON reader reads them as they are, and memory never
    holds the file twice (its bytes and their text)."""
    data = _read_bytes(path, None)
    if data.isascii() and _JSON_OBJECT.match(data):
        return data
    return _decode(data)


def open_regular(path: str | Path, limit: int | None = None) -> BinaryIO:
    """A regular file opened for reading its bytes, refused as `read_file` says."""
    limit = max_input_bytes() if limit is None else limit
    try:
        handle = open(path, "rb", opener=_nonblocking)  # noqa: SIM115 - the caller closes it
    except OSError as exc:
        raise ReadError(exc.strerror or str(exc)) from None
    try:
        info = os.fstat(handle.fileno())
        for test, what in _KINDS:
            if test(info.st_mode):
                raise ReadError(f"not a regular file: it is {what}")
        if info.st_size > limit:
            raise ReadError(size_message(info.st_size, limit))
    except OSError as exc:
        handle.close()
        raise ReadError(exc.strerror or str(exc)) from None
    except BaseException:
        handle.close()
        raise
    return handle


def _read_bytes(path: str | Path, limit: int | None) -> bytes:
    """A regular file's bytes, refused as `read_file` says."""
    limit = max_input_bytes() if limit is None else limit
    with open_regular(path, limit) as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise ReadError(exc.strerror or str(exc)) from None
    if len(data) > limit:
        raise ReadError(size_message(None, limit))
    return data


def _nonblocking(path: str, flags: int) -> int:
    """Open without blocking, so that opening a FIFO with no writer returns at once."""
    return os.open(path, flags | getattr(os, "O_NONBLOCK", 0))


def size_message(size: int | None, limit: int) -> str:
    """Why an input of `size` bytes (None: unknown, but beyond) is not read."""
    if size is None:
        return f"larger than the limit of {limit} bytes; set {MAX_INPUT_VARIABLE} to read more"
    return (
        f"{_size_text(size)} is larger than the limit of {limit} bytes; set "
        f"{MAX_INPUT_VARIABLE} to read more"
    )


def read_stdin() -> str:
    """Standard input as UTF-8 text, whatever the locale's encoding, up to the limit."""
    limit = max_input_bytes()
    buffer = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # replaced by a text stream
        text = str(sys.stdin.read(limit + 1))
        if len(text) > limit:
            raise ReadError(size_message(None, limit))
        return text
    try:
        data = buffer.read(limit + 1)
    except OSError as exc:
        raise ReadError(exc.strerror or str(exc)) from None
    if len(data) > limit:
        raise ReadError(size_message(None, limit))
    return _decode(bytes(data))
