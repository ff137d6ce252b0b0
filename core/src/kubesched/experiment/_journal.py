"""A sweep's journal: one JSON line per finished cell, appended as it finishes.

Each row is written with a single `write` on a file opened for appending, then
flushed to disk, so an interruption loses at most the cells still running. A line
cut short by a crash is dropped when the journal is opened again; a key seen twice
keeps its first row, so a row is never duplicated.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from kubesched.errors import InputError
from kubesched.experiment._cells import cell_key


def row_key(row: dict[str, Any]) -> str:
    return cell_key(row["config_hash"], row["input_hash"], row["seed"])


class Journal:
    """The rows finished so far, in `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def exists(self) -> bool:
        return self.path.exists() and self.path.stat().st_size > 0

    def rows(self) -> dict[str, dict[str, Any]]:
        """Key -> row of every complete line; a torn last line is cut off the file."""
        if not self.path.exists():
            return {}
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            with self.path.open("r+b") as file:
                file.truncate(end)
        found: dict[str, dict[str, Any]] = {}
        for number, line in enumerate(data[:end].splitlines(), 1):
            try:
                row = json.loads(line)
                key = row_key(row)
            except (ValueError, KeyError, TypeError):
                message = f"line {number} is not a row of a sweep"
                raise InputError(message, file=str(self.path)) from None
            found.setdefault(key, row)
        return found

    def append(self, row: dict[str, Any]) -> None:
        """Add one row, durably, in one write."""
        line = (json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            written = os.write(fd, line)
            if written != len(line):  # pragma: no cover - a full disk
                raise OSError(f"{self.path}: short write")
            os.fsync(fd)
        finally:
            os.close(fd)
