"""The sweep journal: a crash at any byte leaves the complete rows, and a row is never read
twice."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from kubesched.experiment._journal import Journal


def row(seed: int, note: str = "") -> dict[str, object]:
    return {"config_hash": "c" * 16, "input_hash": "i" * 16, "seed": seed, "note": note}


@given(st.integers(1, 6), st.data())
def test_a_journal_cut_at_any_byte_keeps_exactly_its_complete_rows(
    count: int, data: st.DataObject
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "cells.jsonl")
        for seed in range(count):
            journal.append(row(seed, "é" * seed))
        whole = journal.path.read_bytes()
        cut = data.draw(st.integers(0, len(whole)))
        journal.path.write_bytes(whole[:cut])
        complete = whole[:cut].count(b"\n")
        assert list(journal.rows()) == [f"{'c' * 16}/{'i' * 16}/{s}" for s in range(complete)]
        # the torn line is gone, so the next row starts on a line of its own
        journal.append(row(count))
        assert len(journal.rows()) == complete + 1


def test_a_key_written_twice_keeps_its_first_row(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "cells.jsonl")
    journal.append(row(1, "first"))
    journal.append(row(1, "second"))
    rows = journal.rows()
    assert [r["note"] for r in rows.values()] == ["first"]
