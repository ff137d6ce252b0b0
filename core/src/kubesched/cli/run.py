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
from attrs import evolve

from kubesched.cli._feature_gates import feature_gates_option
from kubesched.cli._options import cycle_timeout_option, seed_option
from kubesched.cli.output import discovered_registry
from kubesched.config import KubeSchedulerConfiguration
from kubesched.errors import ConfigError, InputError
from kubesched.features import FeatureGates
from kubesched.profile import load_profiles
from kubesched.scheduler.watchdog import DEFAULT_CYCLE_TIMEOUT

DEFAULT_QPS = 50.0
DEFAULT_BURST = 100


def _given(parameter: str) -> bool:
    """Was this option given on the command line (not left at its default)?"""
    context = click.get_current_context()
    return context.get_parameter_source(parameter) is click.core.ParameterSource.COMMANDLINE


def apply_client_flags(
    cfg: KubeSchedulerConfiguration, config: Path | None, qps: float, burst: int
) -> KubeSchedulerConfiguration:
    """kube-scheduler's rule for --kube-api-qps and --kube-api-burst: without --config, those
    given on the command line set clientConnection; with --config, the file decides."""
    if config is not None:
        return cfg
    conn = cfg.client_connection
    if _given("kube_api_qps"):
        conn = evolve(conn, qps=qps)
    if _given("kube_api_burst"):
        conn = evolve(conn, burst=burst)
    return evolve(cfg, client_connection=conn)


@click.command(name="run")
@click.option(
    "--config",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A KubeSchedulerConfiguration (kubescheduler.config.k8s.io/v1); its profiles' "
    "schedulerNames are the pods this scheduler serves. Default: upstream's defaults "
    "(one profile, default-scheduler).",
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
    help="Address to serve /healthz, /readyz and /metrics on (0.0.0.0: every interface).",
)
@click.option(
    "--tls-cert-file",
    type=click.Path(dir_okay=False, exists=True),
    help="The serving certificate (PEM). Default: a self-signed one made at start.",
)
@click.option(
    "--tls-private-key-file",
    type=click.Path(dir_okay=False, exists=True),
    help="The key of --tls-cert-file (PEM).",
)
@click.option(
    "--insecure-serving",
    is_flag=True,
    help="Serve plain HTTP with /metrics open to anyone who can connect (local use only).",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=10259,
    show_default=True,
    help="Port of /healthz, /readyz and /metrics (HTTPS; /metrics authorized through the "
    "API server); 0 picks a free one.",
)
@click.option(
    "--leader-elect/--no-leader-elect",
    default=None,
    help="Override leaderElection.leaderElect of the configuration.",
)
@cycle_timeout_option(
    DEFAULT_CYCLE_TIMEOUT,
    "Wall-clock seconds a scheduling or binding cycle may take; 0 for no limit.",
)
@seed_option()
@click.option(
    "--kube-api-qps",
    type=click.FloatRange(min=0),
    default=DEFAULT_QPS,
    show_default=True,
    help="Requests per second to the API server, per client (as kube-scheduler's flag: "
    "ignored when --config is given; set clientConnection.qps there).",
)
@click.option(
    "--kube-api-burst",
    type=click.IntRange(min=0),
    default=DEFAULT_BURST,
    show_default=True,
    help="Requests in a burst, per client (ignored when --config is given; set "
    "clientConnection.burst there).",
)
@feature_gates_option
def command(
    config: Path | None,
    kubeconfig: str | None,
    bind_address: str,
    tls_cert_file: str | None,
    tls_private_key_file: str | None,
    insecure_serving: bool,
    port: int,
    leader_elect: bool | None,
    cycle_timeout: float,
    seed: int,
    kube_api_qps: float,
    kube_api_burst: int,
    feature_gates: FeatureGates,
) -> None:
    """Schedule the pods of a live cluster that name this scheduler's profiles."""
    registry = discovered_registry()
    try:
        cfg, profiles = load_profiles(config, registry)
    except ConfigError as exc:
        raise InputError("; ".join(exc.errors), file=exc.file) from None
    if bool(tls_cert_file) != bool(tls_private_key_file):
        raise click.UsageError("--tls-cert-file and --tls-private-key-file go together")
    cfg = apply_client_flags(cfg, config, kube_api_qps, kube_api_burst)
    from kubesched.cli.serve import ServeOptions, Server

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr
    )
    ignored = [
        flag
        for flag, given in (
            ("--kube-api-qps", "kube_api_qps"),
            ("--kube-api-burst", "kube_api_burst"),
        )
        if config is not None and _given(given)
    ]
    if ignored:
        logging.getLogger("kubesched.run").warning(
            "%s ignored: --config is given (set clientConnection.qps and .burst there)",
            " and ".join(ignored),
        )
    logging.getLogger("httpx").setLevel(logging.WARNING)
    options = ServeOptions(
        kubeconfig=kubeconfig,
        bind_address=bind_address,
        port=port,
        secure=not insecure_serving,
        tls_cert_file=tls_cert_file,
        tls_private_key_file=tls_private_key_file,
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
