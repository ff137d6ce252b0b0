"""Content digests: what identifies a config and an input in a sweep's table.

A config is hashed as its parsed document in canonical JSON, so comments and
layout do not change it; an input as the bytes of its files (a directory: every
file under it, by relative path, in sorted order).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

DIGEST_LENGTH = 16
"""Hex characters kept of a SHA-256 digest (64 bits): short in a table, no collisions in
any grid a person writes."""


def canonical_json(document: Any) -> str:
    """`document` as JSON with sorted keys and no spaces: one text per value."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def document_digest(document: Any) -> str:
    """The digest of a JSON-able value, independent of key order."""
    return hashlib.sha256(canonical_json(document).encode()).hexdigest()[:DIGEST_LENGTH]


def path_digest(path: str | Path, *extra: Any) -> str:
    """The digest of a file's bytes, or of every file under a directory (relative path and
    bytes, sorted by path), and of `extra` values (say, a trace format's options)."""
    sha = hashlib.sha256()
    root = Path(path)
    files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
    for file in files:
        name = file.relative_to(root).as_posix() if root.is_dir() else ""
        sha.update(name.encode() + b"\0")
        sha.update(file.read_bytes())
        sha.update(b"\0")
    for value in extra:
        sha.update(canonical_json(value).encode())
    return sha.hexdigest()[:DIGEST_LENGTH]
