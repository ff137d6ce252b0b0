"""A sweep's table: one row per cell in grid order, written as CSV and as Parquet.

Columns: the cell's identity, its status and outcome counts, a `utilisation.R` and a
`fragmentation.R` column per resource R (and a column per series metric for
scenario inputs), then provenance and timing. Each file is written whole to a
temporary name and renamed, so a reader never sees half a table.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kubesched.experiment._cell_run import IDENTITY, OUTCOME, PROVENANCE, TIMING

FIXED = (*IDENTITY, *OUTCOME)


def table_columns(rows: Sequence[dict[str, Any]]) -> list[str]:
    """The fixed columns, the metric columns any row has (sorted), provenance and timing."""
    known = {*FIXED, *PROVENANCE, *TIMING}
    extra = sorted({name for row in rows for name in row} - known)
    return [*FIXED, *extra, *PROVENANCE, *TIMING]


def _replace(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def _csv_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value)


def write_csv(rows: Sequence[dict[str, Any]], path: Path) -> None:
    """The table as CSV (a header line; an empty field where a row has no value)."""
    columns = table_columns(rows)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_csv_value(row.get(name)) for name in columns])
    _replace(path, out.getvalue().encode("utf-8"))


def parquet_available() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _array(pa: Any, values: list[Any]) -> Any:
    """A column: 64-bit integers, doubles (integers among them widened), or texts (anything
    else written as its CSV text); missing values are nulls."""
    present = [v for v in values if v is not None]
    if all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pa.array(values, type=pa.int64())
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return pa.array([None if v is None else float(v) for v in values], type=pa.float64())
    return pa.array([None if v is None else _csv_value(v) for v in values], type=pa.string())


def write_parquet(rows: Sequence[dict[str, Any]], path: Path) -> None:
    """The table as Parquet (pyarrow, the optional extra `kubesched-core[parquet]`)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = table_columns(rows)
    arrays = []
    for name in columns:
        values = [row.get(name) for row in rows]
        if name in ("seed", *OUTCOME) and all(isinstance(v, int) or v is None for v in values):
            arrays.append(pa.array(values, type=pa.int64()))
        else:
            arrays.append(_array(pa, values))
    table = pa.Table.from_arrays(arrays, names=columns)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    _replace(path, sink.getvalue().to_pybytes())
