"""`compare`: the same input under several configs and seeds, and what differs.

Every config runs on every seed. On a cluster, the pods whose node differs
between configs on the first seed are then explained: each config runs that
seed again, recording per-node explanations for those pods only (so it stays
cheap), and for each config the nodes the configs chose are shown as that config
saw them (its Filter verdict, or each Score plugin's contribution). On a
scenario, each run is a replay: its metrics are the replay's (see
`kubesched.experiment._replay`), a pod's placement is where its life ended, and
differences are listed without explanations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from attrs import field, frozen

from kubesched.experiment._configs import ConfigSpec
from kubesched.experiment._inputs import SCENARIO, InputSpec, cluster_objects
from kubesched.experiment._metrics import RunMetrics, run_metrics
from kubesched.experiment._simulate import simulate
from kubesched.framework import Registry
from kubesched.scheduler.outcome import SCHEDULED, NodeExplanation
from kubesched.scheduler.simulation import SimulationResult

PLACED_DIFFERENTLY = "placedDifferently"
"""Every config schedules the pod, not all on the same node."""
PLACED_BY_SOME = "placedBySome"
"""Some configs schedule the pod and others do not."""

Progress = Callable[[str, int], None]
"""Called with (config name, seed) before each run."""


@frozen
class Placement:
    """A pod's fate under one config: status, node (None: not placed) and message."""

    status: str
    node: str | None
    message: str


@frozen
class NodeView:
    """A node as one config saw it for a pod: the Filter verdict that rejected it (code,
    plugin, reasons), or its Score plugins' (normalized, weighted) scores and total.
    `evaluated` is False when that config's last attempt did not look at the node."""

    evaluated: bool
    filter: tuple[str, str, tuple[str, ...]] | None = None
    scores: tuple[tuple[str, int, int], ...] = ()
    total: int | None = None


@frozen
class Difference:
    """A pod the configs treat differently on the first seed, each config's placement (None
    when none of its profiles serves the pod) and how each config saw the chosen nodes."""

    pod: str
    kind: str
    placements: dict[str, Placement | None]
    explanations: dict[str, dict[str, NodeView]]


@frozen
class ConfigRuns:
    """One config's runs: metrics and placements per seed, in seed order. On a scenario,
    `replays` holds each replay's metrics instead of `metrics`, and `series` the first
    seed's time series (one row per sample)."""

    config: ConfigSpec
    metrics: list[RunMetrics]
    placements: list[dict[str, Placement]]
    replays: list[dict[str, int | float | str | None]] = field(factory=list)
    series: list[dict[str, float | int | str | None]] = field(factory=list)


@frozen
class Comparison:
    """The result of `compare`: configs in the order given, seeds in the order given."""

    input: InputSpec
    seeds: list[int]
    configs: list[ConfigRuns]
    differences: list[Difference]


def _placements(result: SimulationResult) -> dict[str, Placement]:
    return {
        o.pod: Placement(o.status, o.node if o.status == SCHEDULED else None, o.message)
        for o in result.outcomes
    }


def _node_view(node: NodeExplanation | None) -> NodeView:
    if node is None:
        return NodeView(evaluated=False)
    if node.filter is not None and not node.filter.is_success():
        status = node.filter
        return NodeView(True, filter=(str(status.code), status.plugin, tuple(status.reasons)))
    scores = tuple((plugin, n, w) for plugin, (n, w) in node.scores.items())
    return NodeView(True, scores=scores, total=node.total)


def _differing(runs: Sequence[dict[str, Placement]]) -> dict[str, str]:
    """Pod -> kind of difference, in the first run's pod order, then the others'."""
    pods: dict[str, None] = {}
    for placements in runs:
        pods.update(dict.fromkeys(placements))
    found = {}
    for pod in pods:
        nodes = [p.node if (p := run.get(pod)) is not None else None for run in runs]
        if len(set(nodes)) > 1:
            found[pod] = PLACED_DIFFERENTLY if None not in nodes else PLACED_BY_SOME
    return found


def compare(
    configs: Sequence[ConfigSpec],
    input_spec: InputSpec,
    seeds: Sequence[int],
    registry: Registry,
    progress: Progress | None = None,
) -> Comparison:
    """Run every config on `input_spec` with every seed; explain the differences of the first
    seed. ConfigError (naming the file) when a config does not load, InputError when the
    input does not."""
    if not configs or not seeds:
        raise ValueError("compare needs at least one config and one seed")
    if input_spec.kind == SCENARIO:
        return _compare_replays(configs, input_spec, seeds, registry, progress)
    objects = cluster_objects(input_spec)
    loaded = [config.load(registry) for config in configs]
    runs = []
    for config, load in zip(configs, loaded, strict=True):
        metrics, per_seed = [], []
        for seed in seeds:
            if progress is not None:
                progress(config.name, seed)
            result = simulate(load, registry, objects, seed)
            metrics.append(run_metrics(result))
            per_seed.append(_placements(result))
        runs.append(ConfigRuns(config, metrics, per_seed))
    first = [run.placements[0] for run in runs]
    differing = _differing(first)
    explained: list[dict[str, dict[str, NodeExplanation] | None]] = []
    if differing:
        for load in loaded:
            result = simulate(
                load, registry, objects, seeds[0], explain=lambda pod: pod.key in differing
            )
            explained.append({o.pod: o.nodes for o in result.outcomes if o.pod in differing})
    differences = []
    for pod, kind in differing.items():
        placements = {c.name: run.get(pod) for c, run in zip(configs, first, strict=True)}
        chosen = list(dict.fromkeys(p.node for p in placements.values() if p and p.node))
        explanations = {}
        for config, nodes_of in zip(configs, explained, strict=True):
            nodes = nodes_of.get(pod) or {}
            explanations[config.name] = {name: _node_view(nodes.get(name)) for name in chosen}
        differences.append(Difference(pod, kind, placements, explanations))
    return Comparison(input_spec, list(seeds), runs, differences)


def _compare_replays(
    configs: Sequence[ConfigSpec],
    input_spec: InputSpec,
    seeds: Sequence[int],
    registry: Registry,
    progress: Progress | None,
) -> Comparison:
    """`compare` on a scenario: a replay per config and seed."""
    from kubesched.experiment._replay import replay_metrics, run_replay

    loaded = [config.load(registry) for config in configs]
    runs = []
    for config, load in zip(configs, loaded, strict=True):
        replays, per_seed = [], []
        series: list[dict[str, float | int | str | None]] = []
        for seed in seeds:
            if progress is not None:
                progress(config.name, seed)
            result = run_replay(load, registry, input_spec, seed)
            replays.append(replay_metrics(result))
            per_seed.append({r.pod: Placement(r.state, r.node, "") for r in result.pods})
            if not series:
                series = result.series_rows()
        runs.append(ConfigRuns(config, [], per_seed, replays, series))
    first = [run.placements[0] for run in runs]
    differences = [
        Difference(
            pod,
            kind,
            {c.name: run.get(pod) for c, run in zip(configs, first, strict=True)},
            {c.name: {} for c in configs},
        )
        for pod, kind in _differing(first).items()
    ]
    return Comparison(input_spec, list(seeds), runs, differences)
