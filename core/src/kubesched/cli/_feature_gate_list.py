"""`kubesched config feature-gates`: every gate kube-scheduler knows, and which ones matter
here.

The table and the `FeatureGateList` document (`apiVersion: kubesched.io/v1alpha1`)
give each gate's name, default, stage, whether it is locked to its default,
its value with `--feature-gates` applied, and what it changes in kubesched
(nothing for most: they are accepted and have no effect).
"""

from __future__ import annotations

from typing import Any

import click

from kubesched.cli._feature_gates import feature_gates_option
from kubesched.cli.output import echo_document
from kubesched.features import BEHAVIOUR, KNOWN_FEATURES, TRACKED_RELEASE, FeatureGates

_COLUMNS = ("NAME", "DEFAULT", "STAGE", "LOCKED", "ENABLED", "KUBESCHED")


def feature_gate_records(gates: FeatureGates, *, implemented: bool) -> list[dict[str, Any]]:
    """One record per known gate, sorted by name (only those kubesched honours, when
    `implemented`)."""
    return [
        {
            "name": name,
            "default": spec.default,
            "stage": spec.stage.value,
            "lockToDefault": spec.locked,
            "enabled": gates.enabled(name),
            "kubesched": BEHAVIOUR.get(name),
        }
        for name, spec in KNOWN_FEATURES.items()
        if not implemented or name in BEHAVIOUR
    ]


def _table(records: list[dict[str, Any]]) -> str:
    def text(value: object) -> str:
        return str(value).lower() if isinstance(value, bool) else str(value)

    rows = [
        (
            r["name"],
            text(r["default"]),
            r["stage"],
            "yes" if r["lockToDefault"] else "-",
            text(r["enabled"]),
            "yes" if r["kubesched"] else "-",
        )
        for r in records
    ]
    widths = [max(len(row[i]) for row in (_COLUMNS, *rows)) for i in range(len(_COLUMNS))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in (_COLUMNS, *rows)
    ]
    return "\n".join(lines)


@click.command(name="feature-gates")
@feature_gates_option
@click.option(
    "--output",
    "-o",
    type=click.Choice(["table", "json", "yaml"]),
    default="table",
    show_default=True,
    help="Output format; json and yaml print a FeatureGateList document.",
)
@click.option(
    "--implemented",
    is_flag=True,
    help="Only the gates whose value changes what kubesched does.",
)
def feature_gates(feature_gates: FeatureGates, output: str, implemented: bool) -> None:
    """List the feature gates of kube-scheduler's release kubesched tracks: default, stage,
    lock, the value with --feature-gates applied, and whether kubesched's behaviour
    depends on the gate."""
    records = feature_gate_records(feature_gates, implemented=implemented)
    if output == "table":
        click.echo(_table(records))
        return
    document = {"kind": "FeatureGateList", "release": TRACKED_RELEASE, "featureGates": records}
    echo_document(document, output)
