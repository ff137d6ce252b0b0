"""A scheduler serving a live cluster: what `kubesched run` runs.

`Server.run` connects to the API server, starts the watches and the probe
server, waits to lead (when leader election is on; with delayCacheUntilActive
the watches start only then), waits until every kind is listed, builds the
scheduler with `kubesched.profile.build_scheduler` on a real clock, and runs
the scheduling loop until `stop` (SIGTERM) or until leadership is lost. On a
graceful stop it releases the lease so a standby takes over at once; a leader
that lost the lease exits with status 1, as kube-scheduler does, so that it
restarts as a follower.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Sequence
from typing import Any

from attrs import define

from kubesched.api import Pod
from kubesched.cluster.apiserver import (
    ApiEventRecorder,
    ApiServerCluster,
    ApiSession,
    Backoff,
    HealthServer,
    LeaderElector,
    Stopped,
)
from kubesched.cluster.apiserver.metrics import ClientMetrics
from kubesched.cluster.apiserver.secure import DelegatedAuth, file_context, self_signed_context
from kubesched.config import KubeSchedulerConfiguration
from kubesched.features import DEFAULT_FEATURE_GATES, FeatureGates
from kubesched.framework import Registry
from kubesched.profile import EffectiveProfile, build_scheduler
from kubesched.scheduler import LiveLoop, MonotonicClock, Scheduler, SchedulerMetrics
from kubesched.scheduler.binder import DEFAULT_BINDING_WORKERS, ConcurrentBinder
from kubesched.scheduler.watchdog import DEFAULT_CYCLE_TIMEOUT

log = logging.getLogger("kubesched.run")

DEFAULT_PORT = 10259
"""kube-scheduler's port."""
DEFAULT_BIND_ADDRESS = "127.0.0.1"
"""Probes and metrics are served to this host only unless told otherwise."""
BIND_DRAIN = 10.0
"""How long a graceful stop waits for the binds in flight."""
POLL = 0.2
"""How often waits for leadership and the first listings look at the stop flag."""


@define
class ServeOptions:
    """How to reach the cluster and where to serve the probes."""

    kubeconfig: str | None = None
    bind_address: str = DEFAULT_BIND_ADDRESS
    port: int = DEFAULT_PORT
    leader_elect: bool | None = None
    """None: the configuration's leaderElection.leaderElect."""
    cycle_timeout: float | None = DEFAULT_CYCLE_TIMEOUT
    seed: int = 0
    identity: str | None = None
    backoff: Backoff | None = None
    watch_timeout: float | None = None
    hostname: str = ""
    feature_gates: FeatureGates = DEFAULT_FEATURE_GATES
    binding_workers: int = DEFAULT_BINDING_WORKERS
    """Binding cycles in flight at once."""
    secure: bool = True
    """HTTPS, /metrics authorized by the API server (False: plain HTTP, no authorization)."""
    tls_cert_file: str | None = None
    tls_private_key_file: str | None = None


class Server:
    """One `kubesched run` process: connect, (elect,) sync, schedule, stop."""

    def __init__(
        self,
        cfg: KubeSchedulerConfiguration,
        profiles: Sequence[EffectiveProfile],
        registry: Registry,
        options: ServeOptions | None = None,
    ) -> None:
        self.cfg, self.profiles, self.registry = cfg, list(profiles), registry
        self.options = options or ServeOptions()
        self.metrics = SchedulerMetrics()
        self.stopping = threading.Event()
        self.scheduling = threading.Event()
        """Set once the scheduler is built and its loop runs."""
        self.lost = False
        self.session: ApiSession | None = None
        self.leader_session: ApiSession | None = None
        self.client_metrics: ClientMetrics | None = None
        self.recorder: ApiEventRecorder | None = None
        self.cluster: ApiServerCluster | None = None
        self.elector: LeaderElector | None = None
        self.health: HealthServer | None = None
        self.scheduler: Scheduler | None = None
        self.loop: LiveLoop | None = None

    def stop(self) -> None:
        """Ask the server to stop after the current cycle (safe from a signal handler)."""
        self.stopping.set()
        if self.cluster is not None:
            self.cluster.wake()

    @property
    def port(self) -> int:
        return self.health.port if self.health is not None else 0

    def run(self) -> int:
        """Serve until stopped; the exit status (1 when leadership was lost)."""
        try:
            self._connect()
            if self._wait_to_lead() and self._wait_synced():
                self._schedule()
        except Stopped:
            log.info("stopped before the API server answered")
        finally:
            self._shutdown()
        if self.lost:
            log.error("leader election lost")
            return 1
        return 0

    def _connect(self) -> None:
        opts, conn = self.options, self.cfg.client_connection
        source = opts.kubeconfig or conn.kubeconfig or None
        self.session = ApiSession(source, qps=conn.qps, burst=conn.burst, stopping=self.stopping)
        self.session.start()
        log.info("connected to %s", self.session.server)
        self.client_metrics = ClientMetrics(self.session.server)
        self.session.observers.append(self.client_metrics.observe)
        self.cluster = ApiServerCluster(
            self.session,
            backoff=opts.backoff,
            watch_timeout=opts.watch_timeout,
            asynchronous_status=True,
        )
        if not self.cfg.delay_cache_until_active:
            self.cluster.start()
        le = self.cfg.leader_election
        elect = le.leader_elect if opts.leader_elect is None else opts.leader_elect
        if elect:
            # Its own connection, loop and thread: a renewal never waits behind anything else.
            self.leader_session = ApiSession(
                source,
                qps=conn.qps,
                burst=conn.burst,
                stopping=self.stopping,
                request_timeout=le.renew_deadline.total_seconds(),
            )
            self.leader_session.start()
            self.leader_session.observers.append(self.client_metrics.observe)
            self.elector = LeaderElector(
                self.leader_session,
                namespace=le.resource_namespace,
                name=le.resource_name,
                lease_duration=le.lease_duration.total_seconds(),
                renew_deadline=le.renew_deadline.total_seconds(),
                retry_period=le.retry_period.total_seconds(),
                identity=opts.identity,
                on_stopped_leading=self.cluster.wake,
            )
            self.leader_session.spawn(self.elector.run())
            self.client_metrics.follow_leader(le.resource_name, self.elector.leading.is_set)
        elector, cluster = self.elector, self.cluster
        tls, auth = None, None
        if opts.secure:
            if opts.tls_cert_file and opts.tls_private_key_file:
                tls = file_context(opts.tls_cert_file, opts.tls_private_key_file)
            else:
                tls = self_signed_context()
            auth = DelegatedAuth(self.session)
        self.health = HealthServer(
            opts.bind_address,
            opts.port,
            health={"ping": lambda: True}
            | ({"leaderElection": elector.healthy} if elector is not None else {}),
            ready={"informerSync": cluster.synced, "shutdown": lambda: not self.stopping.is_set()},
            metrics=self._exposition,
            tls=tls,
            authorize=auth.check if auth is not None else None,
        )
        self.health.start()
        scheme = "https" if tls is not None else "http"
        log.info(
            "serving /healthz, /readyz and /metrics on %s:%d (%s%s)",
            opts.bind_address,
            self.port,
            scheme,
            ", /metrics authorized by the API server" if auth is not None else "",
        )

    def _exposition(self) -> bytes:
        client = self.client_metrics.exposition() if self.client_metrics is not None else b""
        return self.metrics.exposition() + client

    def _wait_to_lead(self) -> bool:
        if self.elector is None:
            return True
        log.info("waiting to lead (lease %s)", self.elector.name)
        while not self.stopping.is_set():
            if self.elector.leading.wait(POLL):
                return True
        return False

    def _wait_synced(self) -> bool:
        assert self.cluster is not None
        if self.cfg.delay_cache_until_active:
            self.cluster.start()
        while not self.stopping.is_set():
            if self.cluster.wait_synced(POLL):
                log.info("listed every kind; scheduling")
                return True
        return False

    def _controller_of(self, obj: Any) -> str:
        """The profile an event is reported by: the pod's own, else the first."""
        names = [p.scheduler_name for p in self.profiles]
        if isinstance(obj, Pod) and obj.spec.scheduler_name in names:
            return obj.spec.scheduler_name
        return names[0]

    def _schedule(self) -> None:
        assert self.session is not None and self.cluster is not None
        opts, cluster = self.options, self.cluster
        recorder = ApiEventRecorder(self.session, self._controller_of, opts.hostname)
        self.recorder = recorder
        self.session.spawn(recorder.run())
        binder: ConcurrentBinder[Any] = ConcurrentBinder(opts.binding_workers, cluster.notify)
        with cluster.consistent():
            self.scheduler = build_scheduler(
                self.cfg,
                self.registry,
                cluster,
                clock=MonotonicClock(),
                recorder=recorder,
                profiles=self.profiles,
                seed=opts.seed,
                metrics=self.metrics,
                cycle_timeout=opts.cycle_timeout,
                feature_gates=opts.feature_gates,
                binder=binder,
            )
        self.loop = LiveLoop(self.scheduler, cluster.wait_for_changes, self._should_stop)
        self.scheduling.set()
        try:
            self.loop.run()
            if not self.lost:  # let the binds in flight land and be accounted for
                binder.wait(BIND_DRAIN)
                self.scheduler.pump_bindings()
        finally:
            binder.close()

    def _should_stop(self) -> bool:
        if self.elector is not None and self.elector.lost.is_set():
            self.lost = True
        return self.lost or self.stopping.is_set()

    def _shutdown(self) -> None:
        self.stopping.set()
        if self.session is not None and self.recorder is not None:
            with contextlib.suppress(Exception):
                self.session.call(self.recorder.drain(2.0), timeout=3.0)
        leader = self.leader_session
        if leader is not None and self.elector is not None and not self.lost:
            try:
                leader.call(self.elector.release(), timeout=5.0)
            except Exception as exc:  # the API server may be gone already
                log.warning("could not release the lease: %s", exc)
        if self.health is not None:
            self.health.close()
        if self.session is not None:
            self.session.close()
        if self.leader_session is not None:
            self.leader_session.close()
