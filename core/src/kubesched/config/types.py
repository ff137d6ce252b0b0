"""The `kubescheduler.config.k8s.io/v1` KubeSchedulerConfiguration as frozen attrs classes.

Field names are snake_case; the file format's names are their camelCase
(`percentage_of_nodes_to_score` <-> `percentageOfNodesToScore`) unless a field
says otherwise in its `json` metadata. Each field's `doc` metadata feeds the
generated configuration reference.

A field's default is upstream's v1 default where upstream always fills it in,
so `KubeSchedulerConfiguration()` already carries the top-level defaults;
`None` means "unset" where upstream keeps the difference (a profile's
`percentageOfNodesToScore`, an unnamed profile). `kubesched.config.defaults`
applies the rest: zero values that upstream replaces, the default profile and
plugins, default plugin args.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from attrs import field, frozen

API_VERSION = "kubescheduler.config.k8s.io/v1"
KIND = "KubeSchedulerConfiguration"
DEFAULT_SCHEDULER_NAME = "default-scheduler"


def _doc(text: str, **metadata: str) -> dict[str, str]:
    return {"doc": text, **metadata}


@frozen
class LeaderElectionConfiguration:
    """Leader election of the scheduler's replicas (component-base v1alpha1)."""

    leader_elect: bool = field(
        default=True,
        metadata=_doc("Run leader election before scheduling; only the leader schedules."),
    )
    lease_duration: timedelta = field(
        default=timedelta(seconds=15),
        metadata=_doc("How long non-leaders wait before trying to take an unrenewed lease."),
    )
    renew_deadline: timedelta = field(
        default=timedelta(seconds=10),
        metadata=_doc("How long the leader keeps trying to renew before it stops leading."),
    )
    retry_period: timedelta = field(
        default=timedelta(seconds=2),
        metadata=_doc("How long clients wait between tries of actions."),
    )
    resource_lock: str = field(
        default="leases", metadata=_doc('The lock object type; only "leases" is accepted.')
    )
    resource_name: str = field(
        default="kube-scheduler", metadata=_doc("The name of the lock object.")
    )
    resource_namespace: str = field(
        default="kube-system", metadata=_doc("The namespace of the lock object.")
    )


@frozen
class ClientConnectionConfiguration:
    """How the scheduler talks to the API server (component-base v1alpha1)."""

    kubeconfig: str = field(default="", metadata=_doc("Path to a kubeconfig file."))
    accept_content_types: str = field(
        default="", metadata=_doc("The Accept header sent to the server.")
    )
    content_type: str = field(
        default="application/vnd.kubernetes.protobuf",
        metadata=_doc("The content type of requests sent to the server."),
    )
    qps: float = field(default=50.0, metadata=_doc("Queries per second allowed."))
    burst: int = field(default=100, metadata=_doc("Extra queries allowed in a burst."))


@frozen
class Plugin:
    """A plugin enabled or disabled at an extension point."""

    name: str = field(default="", metadata=_doc('The plugin name; "*" in `disabled` means all.'))
    weight: int | None = field(
        default=None,
        metadata=_doc("Score weight; used for Score plugins only. Unset or 0 means 1."),
    )


@frozen
class PluginSet:
    """The plugins enabled and disabled at one extension point."""

    enabled: list[Plugin] = field(
        factory=list,
        metadata=_doc(
            "Plugins to run, after the default ones and in this order; naming a default "
            "plugin re-configures it in its default position."
        ),
    )
    disabled: list[Plugin] = field(
        factory=list,
        metadata=_doc('Default plugins not to run here; `{name: "*"}` disables them all.'),
    )


@frozen
class Plugins:
    """Plugins per extension point; `multiPoint` enables a plugin at every point it serves."""

    pre_enqueue: PluginSet = field(
        factory=PluginSet, metadata=_doc("Gate pods before they enter the active queue.")
    )
    queue_sort: PluginSet = field(
        factory=PluginSet,
        metadata=_doc("Order of pending pods; exactly one, the same in every profile."),
    )
    pre_filter: PluginSet = field(
        factory=PluginSet, metadata=_doc("Per-pod checks and state before filtering.")
    )
    filter: PluginSet = field(
        factory=PluginSet, metadata=_doc("Rule out nodes that cannot run the pod.")
    )
    post_filter: PluginSet = field(
        factory=PluginSet,
        metadata=_doc("Run when no node fits, in order until one succeeds (preemption)."),
    )
    pre_score: PluginSet = field(factory=PluginSet, metadata=_doc("Per-pod work before scoring."))
    score: PluginSet = field(
        factory=PluginSet, metadata=_doc("Rank the feasible nodes; `weight` applies here.")
    )
    reserve: PluginSet = field(
        factory=PluginSet, metadata=_doc("Claim resources on the chosen node (and Unreserve).")
    )
    permit: PluginSet = field(factory=PluginSet, metadata=_doc("Allow, deny or delay binding."))
    pre_bind: PluginSet = field(
        factory=PluginSet, metadata=_doc("Work that must succeed before binding.")
    )
    bind: PluginSet = field(
        factory=PluginSet,
        metadata=_doc("Bind the pod; run in order until one binds. At least one is required."),
    )
    post_bind: PluginSet = field(
        factory=PluginSet, metadata=_doc("Informational, after a successful bind.")
    )
    multi_point: PluginSet = field(
        factory=PluginSet,
        metadata=_doc(
            "Enable (or disable) plugins at every extension point they implement. "
            "Specific extension points take precedence over multiPoint, and multiPoint over "
            "the defaults."
        ),
    )

    def by_point(self) -> dict[str, PluginSet]:
        """Each set by its name in the file, extension points in pipeline order, then multiPoint."""
        return {
            "preEnqueue": self.pre_enqueue,
            "queueSort": self.queue_sort,
            "preFilter": self.pre_filter,
            "filter": self.filter,
            "postFilter": self.post_filter,
            "preScore": self.pre_score,
            "score": self.score,
            "reserve": self.reserve,
            "permit": self.permit,
            "preBind": self.pre_bind,
            "bind": self.bind,
            "postBind": self.post_bind,
            "multiPoint": self.multi_point,
        }


@frozen
class PluginConfig:
    """Arguments passed to a plugin when it is built."""

    name: str = field(default="", metadata=_doc("The plugin these args are for."))
    args: Any = field(
        default=None,
        metadata=_doc(
            "The plugin's args. For a plugin that declares an args class they are checked "
            "strictly, defaulted and validated; may carry `apiVersion` and `kind`."
        ),
    )


@frozen
class KubeSchedulerProfile:
    """A scheduling profile: pods name it in `spec.schedulerName`."""

    scheduler_name: str | None = field(
        default=None,
        metadata=_doc(
            "The name pods use to pick this profile; "
            'a single unnamed profile is "default-scheduler".'
        ),
    )
    percentage_of_nodes_to_score: int | None = field(
        default=None,
        metadata=_doc("Overrides the global percentageOfNodesToScore for this profile."),
    )
    plugins: Plugins | None = field(
        default=None, metadata=_doc("Plugins to enable and disable, merged with the defaults.")
    )
    plugin_config: list[PluginConfig] = field(
        factory=list, metadata=_doc("Args per plugin; at most one entry per plugin name.")
    )


@frozen
class ExtenderManagedResource:
    """An extended resource an extender manages."""

    name: str = field(default="", metadata=_doc("The extended resource name."))
    ignored_by_scheduler: bool = field(
        default=False, metadata=_doc("Skip this resource in the scheduler's own checks.")
    )


@frozen
class ExtenderTLSConfig:
    """TLS settings for talking to an extender."""

    insecure: bool = field(default=False, metadata=_doc("Skip certificate verification."))
    server_name: str = field(default="", metadata=_doc("Server name for SNI and checks."))
    cert_file: str = field(default="", metadata=_doc("Client certificate file."))
    key_file: str = field(default="", metadata=_doc("Client key file."))
    ca_file: str = field(default="", metadata=_doc("Trusted root certificates file."))
    cert_data: str = field(default="", metadata=_doc("Client certificate (base64 PEM)."))
    key_data: str = field(default="", metadata=_doc("Client key (base64 PEM)."))
    ca_data: str = field(default="", metadata=_doc("Trusted root certificates (base64 PEM)."))


@frozen
class Extender:
    """An HTTP scheduler extender, called after the plugins (see the extenders guide)."""

    url_prefix: str = field(default="", metadata=_doc("Base URL of the extender."))
    filter_verb: str = field(default="", metadata=_doc("Verb of the filter call."))
    preempt_verb: str = field(default="", metadata=_doc("Verb of the preempt call."))
    prioritize_verb: str = field(default="", metadata=_doc("Verb of the prioritize call."))
    weight: int = field(default=0, metadata=_doc("Multiplier of the prioritize scores."))
    bind_verb: str = field(default="", metadata=_doc("Verb of the bind call (one extender)."))
    enable_https: bool = field(default=False, metadata=_doc("Use https.", json="enableHTTPS"))
    tls_config: ExtenderTLSConfig | None = field(default=None, metadata=_doc("TLS settings."))
    http_timeout: timedelta = field(default=timedelta(0), metadata=_doc("Timeout of a call."))
    node_cache_capable: bool = field(
        default=False, metadata=_doc("Send node names only; the extender caches nodes.")
    )
    managed_resources: list[ExtenderManagedResource] = field(
        factory=list, metadata=_doc("Extended resources managed by this extender.")
    )
    ignorable: bool = field(
        default=False, metadata=_doc("Scheduling goes on when the extender fails.")
    )


@frozen
class KubeSchedulerConfiguration:
    """The scheduler's configuration file (`kind: KubeSchedulerConfiguration`)."""

    parallelism: int = field(
        default=16, metadata=_doc("Parallelism of the scheduling algorithms; must be > 0.")
    )
    leader_election: LeaderElectionConfiguration = field(
        factory=LeaderElectionConfiguration, metadata=_doc("Leader election settings.")
    )
    client_connection: ClientConnectionConfiguration = field(
        factory=ClientConnectionConfiguration, metadata=_doc("API server client settings.")
    )
    enable_profiling: bool = field(
        default=True, metadata=_doc("Serve profiling handlers (debugging).")
    )
    enable_contention_profiling: bool | None = field(
        default=None,
        metadata=_doc("Lock contention profiling; defaults to enableProfiling."),
    )
    percentage_of_nodes_to_score: int = field(
        default=0,
        metadata=_doc(
            "Stop filtering once this percentage of the nodes is feasible; 0 means adaptive: "
            "max(5, 50 - nodes/125) percent, and never fewer than 100 nodes."
        ),
    )
    pod_initial_backoff_seconds: int = field(
        default=1, metadata=_doc("Initial backoff of unschedulable pods; must be > 0.")
    )
    pod_max_backoff_seconds: int = field(
        default=10, metadata=_doc("Maximum backoff; must be >= podInitialBackoffSeconds.")
    )
    profiles: list[KubeSchedulerProfile] = field(
        factory=list,
        metadata=_doc('Scheduling profiles; none means one profile named "default-scheduler".'),
    )
    extenders: list[Extender] = field(
        factory=list, metadata=_doc("HTTP extenders shared by every profile.")
    )
    delay_cache_until_active: bool = field(
        default=False, metadata=_doc("Fill caches only once leader (leader election only).")
    )
