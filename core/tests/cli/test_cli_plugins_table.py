"""`kubesched plugins` piped to another program: no cell cut to fit 80 columns."""

from __future__ import annotations

import json
import os
import subprocess
import sys

COMMAND = [sys.executable, "-c", "import sys; from kubesched.cli import main; sys.exit(main())"]


def run(*args: str, **env: str) -> str:
    environ = {k: v for k, v in os.environ.items() if k != "COLUMNS"} | env
    done = subprocess.run(
        [*COMMAND, *args], capture_output=True, text=True, check=True, env=environ
    )
    return done.stdout


def test_piped_table_keeps_every_name_and_distribution_whole() -> None:
    records = json.loads(run("plugins", "-o", "json"))["plugins"]
    table = run("plugins")
    assert "…" not in table
    plugin_table = table.split("└", 1)[0]  # the commands table of plugins follows it
    rows = [line for line in plugin_table.splitlines() if line.startswith("│")]
    assert len(rows) == len(records), "one line per plugin"
    for record, row in zip(records, rows, strict=True):
        cells = [cell.strip() for cell in row.strip("│").split("│")]
        assert cells[:4] == [
            record["name"],
            record["distribution"] or "-",
            record["version"] or "-",
            record["source"],
        ]


def test_batch_hooks_list_every_batch_form_including_filter_reasons() -> None:
    records = {r["name"]: r for r in json.loads(run("plugins", "-o", "json"))["plugins"]}
    assert records["NodeResourcesFit"]["batchHooks"] == [
        "filter_batch",
        "filter_batch_reasons",
        "score_batch",
    ]
    fit_row = next(line for line in run("plugins").splitlines() if "NodeResourcesFit" in line)
    assert "batch: filter, filter_reasons, score" in fit_row
