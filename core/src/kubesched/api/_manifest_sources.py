"""Where manifests come from (a file, a directory's files, standard input) and the
documents in their text: JSON or YAML, each parse problem an `InputError` naming the file,
the document and the field."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kubesched.api._json_list import json_list_document
from kubesched.api._json_stream import StreamedFile, stream_json_list
from kubesched.api._list_items import list_document
from kubesched.api._reading import ReadError, read_stdin, read_text_or_json
from kubesched.api._text import TextError, parse_json, parse_yaml
from kubesched.errors import InputError

STDIN = "-"
"""The source name that reads manifests from standard input."""
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
"""Files a directory source contributes."""


def _directory_files(path: Path) -> list[Path]:
    """The manifest files under a directory, in sorted order; a subdirectory that cannot be
    listed is an error, as an unreadable file is: nothing it holds goes unreported."""

    def refuse(exc: OSError) -> None:
        where = exc.filename or str(path)
        raise InputError(f"cannot read the directory: {exc.strerror or exc}", file=str(where))

    found = [
        Path(top) / name
        for top, _, names in os.walk(path, onerror=refuse)
        for name in names
        if Path(name).suffix in MANIFEST_SUFFIXES
    ]
    return sorted(p for p in found if p.is_file())


def sources(source: str | Path) -> Iterator[tuple[str, str | bytes | StreamedFile]]:
    """(name, text) of every manifest file the source stands for; a file's text is its
    bytes when they are ASCII JSON (`read_text_or_json`), which `documents` reads alike,
    and a `*.json` List laid out on lines is streamed from the disk (`StreamedFile`)."""
    if source == STDIN:
        try:
            yield "<stdin>", read_stdin()
        except ReadError as exc:
            raise InputError(f"cannot read: {exc.message}", file="<stdin>") from None
        return
    path = Path(source)
    if path.is_dir():
        files = _directory_files(path)
    elif path.exists():
        files = [path]
    else:
        raise InputError("no such file or directory", file=str(source))
    for file in files:
        try:
            streamed = stream_json_list(str(file), file) if file.suffix == ".json" else None
            yield str(file), streamed or read_text_or_json(file)
        except ReadError as exc:
            raise InputError(f"cannot read: {exc.message}", file=str(file)) from None


def documents(name: str, text: str | bytes | StreamedFile) -> Iterator[tuple[int, Any]]:
    """(index, parsed document) for every non-empty document in a file.

    `*.json` files are JSON; other text that opens with `{` is tried as JSON
    first (far faster than YAML for `kubectl get -o json` output) and read as
    YAML when it is not JSON. A duplicate field is an error, as upstream's
    strict decoding says. A JSON List, or a YAML List laid out as kubectl prints
    it, comes as one document whose items are read as they are iterated over
    (`LazyItems`). ASCII bytes (see `sources`) are read as that List without a text
    copy of them; anything else in them is read as the text they spell.
    """
    if isinstance(text, StreamedFile):
        yield 0, text.document
        return
    if isinstance(text, bytes):
        try:
            listed = json_list_document(name, text)
        except TextError:
            listed = None  # the text's reading below says what is wrong
        if listed is not None:
            yield 0, listed
            return
        text = text.decode("utf-8")
    try:
        if name.endswith(".json") or text.lstrip().startswith("{"):
            try:
                listed = json_list_document(name, text)
                yield 0, parse_json(text) if listed is None else listed
                return
            except TextError:
                if name.endswith(".json"):
                    raise
        listed = list_document(name, text)
        if listed is not None:
            yield 0, listed
            return
        for index, document, problems in parse_yaml(text):
            if document is None:
                continue
            if problems:
                field, _, message = problems[0].partition(": ")
                raise InputError(message, file=name, document=index, field=field)
            yield index, document
    except TextError as exc:
        raise InputError(exc.message, file=name, document=exc.document, field=exc.field) from None
