"""`kubesched run --config CONFIG`: schedule the pods of a live cluster.

The same scheduler, queue, cache and profiles as `simulate`, fed by list and
watch of the API server and writing bindings, pod conditions and events
back, with Lease-based leader election and `/healthz`, `/readyz` and
`/metrics`. SIGTERM (or Ctrl-C) stops it gracefully. Needs the
`kubesched-core[run]` extra (the Kubernetes client).
"""

from __future__ import annotations

import logging
import signal
import sys
from pathlib import Path
from types import FrameType

import click

from kubesched.cli._feature_gates import feature_gates_option
from kubesched.cli.output import discovered_registry
from kubesched.errors import ConfigError, InputError
from kubesched.features import FeatureGates
from kubesched.profile import load_profiles
from kubesched.scheduler.watchdog import DEFAULT_CYCLE_TIMEOUT


@click.command(name="run")
@click.option(
    "--config",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1); its profiles' "
    "schedulerNames are the pods this scheduler serves.",
)
@click.option(
    "--kubeconfig",
    type=click.Path(dir_okay=False),
    help="A kubeconfig file. Default: clientConnection.kubeconfig of the configuration, "
    "else $KUBECONFIG or ~/.kube/config, else the pod's service account (in-cluster).",
)
@click.option(
    "--bind-address",
    default="127.0.0.1",
    show_default=True,
    help="Address to serve /healthz, /readyz and /metrics on (plain HTTP).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=10259,
    show_default=True,
    help="Port of /healthz, /readyz and /metrics; 0 picks a free one.",
)
@click.option(
    "--leader-elect/--no-leader-elect",
    default=None,
    help="Override leaderElection.leaderElect of the configuration.",
)
@click.option(
    "--cycle-timeout",
    type=click.FloatRange(min=0),
    default=DEFAULT_CYCLE_TIMEOUT,
    show_default=True,
    help="Wall-clock seconds a scheduling or binding cycle may take; 0 for no limit.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of tie-breaking.")
@feature_gates_option
def command(
    config: Path,
    kubeconfig: str | None,
    bind_address: str,
    port: int,
    leader_elect: bool | None,
    cycle_timeout: float,
    seed: int,
    feature_gates: FeatureGates,
) -> None:
    """Schedule the pods of a live cluster that name this scheduler's profiles."""
    registry = discovered_registry()
    try:
        cfg, profiles = load_profiles(config, registry)
    except ConfigError as exc:
        raise InputError("; ".join(exc.errors), file=exc.file) from None
    from kubesched.cli.serve import ServeOptions, Server

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr
    )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    options = ServeOptions(
        kubeconfig=kubeconfig,
        bind_address=bind_address,
        port=port,
        leader_elect=leader_elect,
        cycle_timeout=cycle_timeout or None,
        seed=seed,
        feature_gates=feature_gates,
    )
    server = Server(cfg, profiles, registry, options)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        server.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    sys.exit(server.run())
