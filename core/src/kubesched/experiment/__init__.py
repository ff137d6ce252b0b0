"""Experiments: the same input under several configs and seeds (`compare`), and grids of
deterministic runs (`sweep`).

    comparison = compare([config_file("a.yaml"), config_file("b.yaml")],
                         cluster_input("cluster.yaml"), seeds=[1, 2, 3], registry=registry)
    comparison_document(comparison)  # the JSON body of `kubesched compare -o json`
"""

from kubesched.experiment._compare import (
    PLACED_BY_SOME,
    PLACED_DIFFERENTLY,
    Comparison,
    ConfigRuns,
    Difference,
    NodeView,
    Placement,
    compare,
)
from kubesched.experiment._compare_document import KIND as COMPARISON_KIND
from kubesched.experiment._compare_document import comparison_document, metrics_document
from kubesched.experiment._configs import ConfigSpec, config_file, with_plugin_args
from kubesched.experiment._digest import document_digest, path_digest
from kubesched.experiment._grid import Grid, load_grid
from kubesched.experiment._inputs import (
    CLUSTER,
    InputSpec,
    cluster_input,
    cluster_objects,
    for_seed,
)
from kubesched.experiment._metrics import RunMetrics, reasons, run_metrics, usage_metrics
from kubesched.experiment._spread import Spread, spread

__all__ = [
    "CLUSTER",
    "COMPARISON_KIND",
    "PLACED_BY_SOME",
    "PLACED_DIFFERENTLY",
    "Comparison",
    "ConfigRuns",
    "ConfigSpec",
    "Difference",
    "Grid",
    "InputSpec",
    "NodeView",
    "Placement",
    "RunMetrics",
    "Spread",
    "cluster_input",
    "cluster_objects",
    "compare",
    "comparison_document",
    "config_file",
    "document_digest",
    "for_seed",
    "load_grid",
    "metrics_document",
    "path_digest",
    "reasons",
    "run_metrics",
    "spread",
    "usage_metrics",
    "with_plugin_args",
]
