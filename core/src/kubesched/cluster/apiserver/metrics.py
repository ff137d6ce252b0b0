"""The metrics of the process and its API-server clients, as kube-scheduler exports them:
client-go's `rest_client_requests_total` and `rest_client_request_duration_seconds`,
leader election's `leader_election_master_status`, and the `process_*` families
(prometheus_client's process collector)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

import prometheus_client
from prometheus_client import CollectorRegistry, Counter, Histogram, ProcessCollector
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

REQUEST_DURATION_BUCKETS = (0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0)
"""client-go's rest_client_request_duration_seconds buckets."""


class _LeaderStatus(Collector):
    """leader_election_master_status{name}: 1 while leading, read when scraped."""

    def __init__(self) -> None:
        self.sources: list[tuple[str, Callable[[], bool]]] = []

    def collect(self) -> Iterable[Any]:
        family = GaugeMetricFamily(
            "leader_election_master_status",
            "Gauge of if the reporting system is master of the relevant lease, 0 indicates "
            "backup, 1 indicates master. 'name' is the string used to identify the lease.",
            labels=["name"],
        )
        for name, leading in self.sources:
            family.add_metric([name], 1.0 if leading() else 0.0)
        yield family


class ClientMetrics:
    """One registry for the process, the REST clients and leader election."""

    def __init__(self, server: str = "") -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.host = urlsplit(server).netloc if server else ""
        self.requests = Counter(
            "rest_client_requests",
            "Number of HTTP requests, partitioned by status code, method, and host.",
            ["code", "host", "method"],
            registry=self.registry,
        )
        self.duration = Histogram(
            "rest_client_request_duration_seconds",
            "Request latency in seconds. Broken down by verb, and host.",
            ["verb", "host"],
            buckets=REQUEST_DURATION_BUCKETS,
            registry=self.registry,
        )
        self.leader = _LeaderStatus()
        self.registry.register(self.leader)
        ProcessCollector(registry=self.registry)

    def observe(self, client: str, method: str, status: int, seconds: float) -> None:
        """A RequestObserver: one request of any client."""
        code = str(status) if status else "<error>"
        self.requests.labels(code, self.host, method).inc()
        if method != "WATCH":
            self.duration.labels(method, self.host).observe(seconds)

    def follow_leader(self, name: str, leading: Callable[[], bool]) -> None:
        self.leader.sources.append((name, leading))

    def exposition(self) -> bytes:
        return prometheus_client.generate_latest(self.registry)
