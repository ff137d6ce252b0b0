"""YAML or JSON text to plain data, strictly: duplicate keys are errors, as upstream's decoder says.

The YAML is read as kube-scheduler reads it (YAML 1.1 scalars, one
document), except that dates stay strings, since JSON has none.
"""

from __future__ import annotations

from typing import Any

from kubesched.api._text import TextError, parse_yaml_document
from kubesched.config.converter import StructureError


def parse_document(text: str) -> Any:
    """The single YAML/JSON document in `text`; StructureError for syntax errors, duplicate
    keys, and nesting or aliases beyond bounds (each line says where)."""
    try:
        data, problems = parse_yaml_document(text)
    except TextError as exc:
        raise StructureError([exc.message]) from None
    if problems:
        raise StructureError(problems)
    return data
