"""Several plugins in one Framework, the way upstream's framework tests build one from a small
registry:

    harness = FrameworkHarness([NodeName, TaintToleration], nodes=nodes)
    harness.filter(pod)    # {"n1": None, "n2": Status(...)}: the first rejecting plugin per node
    harness.score(pod)     # {"n1": 300, "n2": 0}: weighted totals

Each plugin (a class, or a plugin built already) is registered in code and enabled at every
extension point it implements, in the order given, unless `enabled` lists the plugins per
point (`{"filter": ["NodeName"], "score": ["TaintToleration"]}`); `weights` are the Score
weights (1 unless given) and `args` each plugin's pluginConfig args, structured and
validated as a profile's would be.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from kubesched.api import Node, Pod
from kubesched.cluster.memory import InMemoryCluster
from kubesched.config import DEFAULT_SCHEDULER_NAME
from kubesched.errors import PluginError
from kubesched.framework._points import EXTENSION_POINTS
from kubesched.framework._profile import EffectiveProfile
from kubesched.framework._registry import Registry, points_of
from kubesched.framework._status import Status
from kubesched.testing._plugin_source import PluginSource, _factory_and_name, _typed_args
from kubesched.testing.harness import _Bench, _raise_on_error


class FrameworkHarness(_Bench):
    """A profile of several plugins over an in-memory cluster (see the module docstring).

    `plugins` maps each name to the plugin the framework built; `framework`, `cluster`,
    `cache`, `snapshot`, `clock` and `state` are as in `PluginHarness`.
    """

    def __init__(
        self,
        plugins: Iterable[PluginSource],
        *,
        enabled: Mapping[str, Sequence[str]] | None = None,
        weights: Mapping[str, int] | None = None,
        args: Mapping[str, Any] | None = None,
        nodes: Iterable[Node] = (),
        pods: Iterable[Pod] = (),
    ) -> None:
        registry = Registry()
        order: list[str] = []
        for plugin in plugins:
            factory, name = _factory_and_name(plugin, None)
            registry.register(name, factory)
            order.append(name)
        if enabled is None:
            enabled = {
                p.name: [n for n in order if p.name in points_of(registry.load(n))]
                for p in EXTENSION_POINTS
            }
        scored = enabled.get("score", ())
        self.profile = profile = EffectiveProfile(
            DEFAULT_SCHEDULER_NAME,
            plugins={point: tuple(names) for point, names in enabled.items() if names},
            score_weights={name: (weights or {}).get(name, 1) for name in scored},
            plugin_args={n: _typed_args(n, registry, a) for n, a in (args or {}).items()},
        )
        self._build(profile, registry, InMemoryCluster(nodes=nodes, pods=pods))
        self.plugins: dict[str, object] = dict(self.framework.plugins)

    def filter(self, pod: Pod) -> dict[str, Status | None]:
        """PreFilter, then every Filter plugin in order on each node: its first rejection, or
        None when the node fits. A PreFilter rejection is every node's status."""
        before = self.pre_filter(pod)
        if isinstance(before, Status):
            return dict.fromkeys((ni.name for ni in self.nodes), before)
        run = self.framework.run_filter_plugins
        return {ni.name: run(self.state, pod, ni) for ni in self.nodes}

    def plugin_scores(self, pod: Pod) -> dict[str, dict[str, int]]:
        """PreScore then Score on every node: each Score plugin's weighted scores by node
        (a plugin PreScore skipped is absent); a PluginError when a plugin fails."""
        _raise_on_error(self.framework.run_pre_score_plugins(self.state, pod, self.nodes))
        table = self.snapshot.node_table
        rows = np.arange(len(table), dtype=np.intp)
        outcome = _raise_on_error(self.framework.run_score_plugins(self.state, pod, table, rows))
        return {
            name: dict(zip(table.names, weighted.tolist(), strict=True))
            for name, (_normalized, weighted) in outcome.plugins.items()
        }

    def score(self, pod: Pod) -> dict[str, int]:
        """Each node's total: the sum of the Score plugins' weighted scores."""
        if not self.profile.plugins.get("score"):
            raise PluginError("no Score plugin is enabled")
        per_plugin = self.plugin_scores(pod)
        return {ni.name: sum(s[ni.name] for s in per_plugin.values()) for ni in self.nodes}
