"""A real control plane on 127.0.0.1 (etcd and kube-apiserver), from binaries you name.

    plane = ControlPlane(ControlPlaneBinaries(apiserver="...", etcd="..."), workdir)
    plane.start()                                    # waits until /readyz answers ok
    admin = plane.admin()                            # an AdminClient (system:masters)
    admin.create(make_node("n1").capacity(cpu="2").obj())
    plane.kubeconfig("scheduler")                    # the user system:kube-scheduler
    plane.restart_apiserver(outage=5.0)              # etcd keeps the data
    plane.stop()

The API server authenticates with a static token file (an admin in
`system:masters`, and `system:kube-scheduler`, to whom upstream's bootstrap
policy binds the roles system:kube-scheduler and system:volume-scheduler),
authorizes with RBAC only, and serves HTTPS with a self-signed certificate the
kubeconfigs trust. Admission runs upstream's defaults less ServiceAccount (no
controller manager creates service accounts here) and TaintNodesByCondition (no
node lifecycle controller would lift the not-ready taint it puts on every new
node). No kubelet runs: nodes are API objects only, and a pod deleted after it
was bound stays Terminating until someone deletes it with a grace period of 0
(`AdminClient.force_delete`), as its kubelet would. The binaries are never built or fetched here:
`ControlPlaneBinaries.from_environment` reads their paths from
`KUBESCHED_REAL_APISERVER`, `KUBESCHED_REAL_ETCD` (and `KUBESCHED_REAL_SCHEDULER`
for an upstream kube-scheduler to compare with).
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from attrs import frozen

from kubesched.api import Node, Pod, unstructure

APISERVER_ENV = "KUBESCHED_REAL_APISERVER"
ETCD_ENV = "KUBESCHED_REAL_ETCD"
SCHEDULER_ENV = "KUBESCHED_REAL_SCHEDULER"
ADMIN_TOKEN = "kubesched-real-admin"
SCHEDULER_TOKEN = "kubesched-real-scheduler"
SCHEDULER_USER = "system:kube-scheduler"
_USERS = {"admin": ADMIN_TOKEN, "scheduler": SCHEDULER_TOKEN}


class ControlPlaneError(Exception):
    """The control plane did not start (the message names the log to read)."""


@frozen
class ControlPlaneBinaries:
    """Paths of the binaries; `scheduler` (upstream's kube-scheduler) is optional."""

    apiserver: str
    etcd: str
    scheduler: str = ""

    @property
    def etcdctl(self) -> str:
        """etcdctl beside etcd, else on PATH; empty when there is none."""
        beside = Path(self.etcd).with_name("etcdctl")
        return str(beside) if beside.exists() else shutil.which("etcdctl") or ""

    @classmethod
    def from_environment(cls, env: Mapping[str, str] | None = None) -> ControlPlaneBinaries | str:
        """The binaries named by the environment, or why they cannot be used (a reason to skip)."""
        env = os.environ if env is None else env
        found: dict[str, str] = {}
        for name, var in (("apiserver", APISERVER_ENV), ("etcd", ETCD_ENV)):
            value = env.get(var, "")
            if not value:
                return f"no real control plane: set {APISERVER_ENV} and {ETCD_ENV} to binaries"
            if not os.access(value, os.X_OK):
                return f"{var}={value} is not an executable file"
            found[name] = value
        scheduler = env.get(SCHEDULER_ENV, "")
        if scheduler and not os.access(scheduler, os.X_OK):
            return f"{SCHEDULER_ENV}={scheduler} is not an executable file"
        return cls(found["apiserver"], found["etcd"], scheduler)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _write_credentials(workdir: Path) -> tuple[Path, Path, Path]:
    """A self-signed serving certificate for 127.0.0.1 and a service-account signing key."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "kube-apiserver")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(
            x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]
            ),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    private = serialization.PrivateFormat.PKCS8
    plain = serialization.NoEncryption()
    cert_path, key_path = workdir / "serving.crt", workdir / "serving.key"
    cert_path.write_bytes(cert.public_bytes(pem))
    key_path.write_bytes(key.private_bytes(pem, private, plain))
    sa_key = workdir / "service-account.key"
    traditional = serialization.PrivateFormat.TraditionalOpenSSL  # "EC PRIVATE KEY", as it reads
    sa_key.write_bytes(
        ec.generate_private_key(ec.SECP256R1()).private_bytes(pem, traditional, plain)
    )
    return cert_path, key_path, sa_key


class AdminClient:
    """Synchronous requests as the admin (for tests and benchmarks: setting up, looking)."""

    def __init__(self, url: str, ca: Path, token: str = ADMIN_TOKEN) -> None:
        import httpx

        self._http = httpx.Client(
            base_url=url,
            verify=ssl.create_default_context(cafile=str(ca)),
            headers={"Authorization": f"Bearer {token}"},
            timeout=30.0,
        )

    def close(self) -> None:
        self._http.close()

    def request(self, method: str, path: str, body: Any = None, **params: str) -> Any:
        """One request; the decoded body. RuntimeError with the server's message on >= 300."""
        content_type = "application/merge-patch+json" if method == "PATCH" else "application/json"
        response = self._http.request(
            method,
            path,
            params=params or None,
            content=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": content_type},
        )
        if response.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text[:300]}")
        return response.json() if response.content else None

    def status(self, method: str, path: str) -> int:
        """The HTTP status of a request (no error raised)."""
        return int(self._http.request(method, path).status_code)

    def create(self, obj: Node | Pod | dict[str, Any], namespace: str = "default") -> Any:
        """Create a node, a pod (in `namespace` unless it names one) or a raw object."""
        if isinstance(obj, Node):
            return self.request(
                "POST", "/api/v1/nodes", {"apiVersion": "v1", "kind": "Node"} | unstructure(obj)
            )
        if isinstance(obj, Pod):
            raw = {"apiVersion": "v1", "kind": "Pod"} | unstructure(obj)
            ns = raw["metadata"].setdefault("namespace", namespace) or namespace
            raw["metadata"]["namespace"] = ns
            return self.request("POST", f"/api/v1/namespaces/{ns}/pods", raw)
        raise TypeError(f"cannot create {type(obj).__name__}; use request() for raw objects")

    def pod(self, name: str, namespace: str = "default") -> dict[str, Any] | None:
        """The pod, or None when it is gone."""
        path = f"/api/v1/namespaces/{namespace}/pods/{name}"
        if self.status("GET", path) == 404:
            return None
        found: dict[str, Any] = self.request("GET", path)
        return found

    def items(self, path: str, **params: str) -> list[dict[str, Any]]:
        """Every item of a list."""
        items: list[dict[str, Any]] = self.request("GET", path, **params)["items"]
        return items

    def force_delete(self, path: str) -> None:
        """Delete at once (grace period 0), as a kubelet confirms a pod is gone."""
        self.request("DELETE", path, {"gracePeriodSeconds": 0})

    def wait_for(
        self, predicate: Callable[[], Any], timeout: float = 60.0, interval: float = 0.2
    ) -> Any:
        """Poll `predicate` until it returns something true; AssertionError after `timeout`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            time.sleep(interval)
        raise AssertionError(f"timed out after {timeout}s waiting for {predicate}")


class ControlPlane:
    """etcd and kube-apiserver, each a child process logging into `workdir`."""

    def __init__(
        self,
        binaries: ControlPlaneBinaries,
        workdir: Path,
        *,
        apiserver_args: tuple[str, ...] = (),
        nice: int = 0,
    ) -> None:
        self.binaries = binaries
        self.workdir = workdir
        self.apiserver_args = apiserver_args
        self.nice = nice
        self.etcd_port = free_port()
        self.port = free_port()
        self._etcd: subprocess.Popen[bytes] | None = None
        self._apiserver: subprocess.Popen[bytes] | None = None
        self._logs: list[IO[bytes]] = []
        self._apiserver_argv: list[str] = []

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    @property
    def ca(self) -> Path:
        return self.workdir / "serving.crt"

    @property
    def etcd_url(self) -> str:
        return f"http://127.0.0.1:{self.etcd_port}"

    def _spawn(self, name: str, argv: list[str]) -> subprocess.Popen[bytes]:
        log = (self.workdir / f"{name}.log").open("ab")
        self._logs.append(log)
        prefix = ["nice", "-n", str(self.nice)] if self.nice else []
        return subprocess.Popen(prefix + argv, stdout=log, stderr=subprocess.STDOUT)

    def start(self, timeout: float = 300.0) -> None:
        """Start etcd and the API server; wait until it is ready and its roles exist."""
        self.workdir.mkdir(parents=True, exist_ok=True)
        cert, key, sa_key = _write_credentials(self.workdir)
        tokens = self.workdir / "tokens.csv"
        tokens.write_text(
            f'{ADMIN_TOKEN},kubesched-admin,admin-uid,"system:masters"\n'
            f"{SCHEDULER_TOKEN},{SCHEDULER_USER},scheduler-uid\n"
        )
        peer = free_port()
        self._etcd = self._spawn(
            "etcd",
            [
                self.binaries.etcd,
                "--name=default",
                f"--data-dir={self.workdir / 'etcd'}",
                f"--listen-client-urls={self.etcd_url}",
                f"--advertise-client-urls={self.etcd_url}",
                f"--listen-peer-urls=http://127.0.0.1:{peer}",
                f"--initial-advertise-peer-urls=http://127.0.0.1:{peer}",
                f"--initial-cluster=default=http://127.0.0.1:{peer}",
                "--unsafe-no-fsync",
                "--log-level=warn",
            ],
        )
        self._apiserver_argv = [
            self.binaries.apiserver,
            f"--etcd-servers={self.etcd_url}",
            "--bind-address=127.0.0.1",
            "--advertise-address=127.0.0.1",
            f"--secure-port={self.port}",
            f"--tls-cert-file={cert}",
            f"--tls-private-key-file={key}",
            f"--cert-dir={self.workdir / 'certs'}",
            f"--token-auth-file={tokens}",
            "--authorization-mode=RBAC",
            f"--service-account-key-file={sa_key}",
            f"--service-account-signing-key-file={sa_key}",
            "--service-account-issuer=https://kubernetes.default.svc",
            "--service-cluster-ip-range=10.0.0.0/24",
            "--disable-admission-plugins=ServiceAccount,TaintNodesByCondition",
            "--profiling=false",
            "--v=1",
            *self.apiserver_args,
        ]
        self.start_apiserver(timeout)

    def start_apiserver(self, timeout: float = 300.0) -> None:
        """Start (again) the API server on the same port and wait until it is ready."""
        self._apiserver = self._spawn("kube-apiserver", self._apiserver_argv)
        self._wait_ready(timeout)

    def stop_apiserver(self) -> None:
        """Stop the API server (etcd keeps running, and the data)."""
        _end(self._apiserver)
        self._apiserver = None

    def restart_apiserver(
        self, outage: float = 0.0, during: Callable[[], object] | None = None
    ) -> None:
        """Stop the API server, wait `outage` seconds (running `during` meanwhile), start it."""
        self.stop_apiserver()
        started = time.monotonic()
        if during is not None:
            during()
        time.sleep(max(0.0, outage - (time.monotonic() - started)))
        self.start_apiserver()

    def _wait_ready(self, timeout: float) -> None:
        import httpx

        deadline = time.monotonic() + timeout
        headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        checks = (
            "/readyz",
            "/apis/rbac.authorization.k8s.io/v1/clusterroles/system:kube-scheduler",
            "/api/v1/namespaces/kube-system",
            "/api/v1/namespaces/default",
        )
        with httpx.Client(
            base_url=self.url,
            verify=ssl.create_default_context(cafile=str(self.ca)),
            headers=headers,
            timeout=5.0,
        ) as http:
            while time.monotonic() < deadline:
                for process, name in ((self._etcd, "etcd"), (self._apiserver, "kube-apiserver")):
                    if process is not None and process.poll() is not None:
                        log = self.workdir / f"{name}.log"
                        raise ControlPlaneError(
                            f"{name} exited with status {process.returncode}: see {log}"
                        )
                try:
                    if all(http.get(path).status_code == 200 for path in checks):
                        return
                except httpx.HTTPError:
                    pass
                time.sleep(0.5)
        log = self.workdir / "kube-apiserver.log"
        raise ControlPlaneError(f"kube-apiserver not ready after {timeout:.0f}s: see {log}")

    def kubeconfig(self, user: str = "scheduler") -> Path:
        """A kubeconfig for `user` ("admin" or "scheduler"), trusting the serving certificate."""
        path = self.workdir / f"{user}.kubeconfig"
        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [
                {
                    "name": "real",
                    "cluster": {"server": self.url, "certificate-authority": str(self.ca)},
                }
            ],
            "users": [{"name": user, "user": {"token": _USERS[user]}}],
            "contexts": [{"name": user, "context": {"cluster": "real", "user": user}}],
            "current-context": user,
        }
        path.write_text(json.dumps(config))
        return path

    def admin(self) -> AdminClient:
        return AdminClient(self.url, self.ca)

    def etcdctl(self, *args: str) -> str:
        """Run etcdctl against this etcd (to act behind the API server's back)."""
        if not self.binaries.etcdctl:
            raise ControlPlaneError("no etcdctl beside etcd or on PATH")
        done = subprocess.run(
            [self.binaries.etcdctl, f"--endpoints={self.etcd_url}", *args],
            capture_output=True,
            text=True,
            env={**os.environ, "ETCDCTL_API": "3"},
            check=True,
        )
        return done.stdout

    def stop(self) -> None:
        """Stop both processes and close their logs."""
        _end(self._apiserver)
        _end(self._etcd)
        self._apiserver = self._etcd = None
        for log in self._logs:
            log.close()
        self._logs.clear()

    def __enter__(self) -> ControlPlane:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _end(process: subprocess.Popen[bytes] | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)
