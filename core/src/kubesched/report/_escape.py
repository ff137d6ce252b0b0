"""Data for an inline `<script>` block: JSON that cannot end the block or break it.

Inside `<script>`, HTML's parser looks only for `</script` (and `<!--`), and no
entity is decoded, so autoescaping does not apply. Every `<`, `>` and `&` is
written as a JSON `\\u` escape instead, which a JSON parser turns back into the
same character; U+2028 and U+2029 are escaped too (line terminators in older
JavaScript string literals).
"""

from __future__ import annotations

import json
from typing import Any

_UNSAFE = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}
_TABLE = str.maketrans(_UNSAFE)


def script_json(value: Any) -> str:
    """`value` as compact JSON safe to place verbatim inside a `<script>` element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.translate(_TABLE)
