"""Real extender servers on 127.0.0.1 for the extender tests.

`gpu_extender` is written the way a user writes one, with Flask: it keeps its
own view of the nodes (so it can serve node-caching schedulers), filters and
scores on node labels, vetoes protected victims and records bindings.
`raw_server` is a bare http.server whose answers a test sets per verb (status,
body, delay), for the fault cases; it can serve TLS with certificates made by
`tls_files` (a throwaway CA, a server and a client certificate).
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from flask import Flask, jsonify, request
from werkzeug.serving import make_server

# -- a user's extender, in Flask ------------------------------------------------------


@dataclass
class ExtenderState:
    """What the Flask extender knows and what it was asked."""

    node_labels: dict[str, dict[str, str]] = field(default_factory=dict)
    calls: list[tuple[str, Any]] = field(default_factory=list)
    bindings: list[dict[str, Any]] = field(default_factory=list)

    def verbs(self) -> list[str]:
        return [verb for verb, _ in self.calls]

    def bodies(self, verb: str) -> list[Any]:
        return [body for v, body in self.calls if v == verb]


def create_app(state: ExtenderState) -> Flask:
    """A rack-aware extender: `rack/state` = `drain` fails a node (preemption may still
    help elsewhere), `retired` fails it for good; `rack/score` (0..10) is its priority;
    pods labelled `rack/protected` are never preempted."""
    app = Flask("rack-extender")

    def candidates(args: dict[str, Any]) -> list[str]:
        if args.get("NodeNames") is not None:  # nodeCacheCapable: names only
            return list(args["NodeNames"])
        for node in args["Nodes"]["items"]:
            state.node_labels[node["metadata"]["name"]] = node["metadata"].get("labels", {})
        return [node["metadata"]["name"] for node in args["Nodes"]["items"]]

    @app.post("/filter")
    def filter_nodes() -> Any:
        args = request.get_json()
        state.calls.append(("filter", args))
        names = candidates(args)
        passed, failed, unresolvable = [], {}, {}
        for name in names:
            rack_state = state.node_labels.get(name, {}).get("rack/state")
            if rack_state == "drain":
                failed[name] = "rack is draining"
            elif rack_state == "retired":
                unresolvable[name] = "rack is retired"
            else:
                passed.append(name)
        result: dict[str, Any] = {
            "FailedNodes": failed,
            "FailedAndUnresolvableNodes": unresolvable,
            "Error": "",
        }
        if args.get("NodeNames") is not None:
            result["NodeNames"] = passed
        else:
            items = [n for n in args["Nodes"]["items"] if n["metadata"]["name"] in passed]
            result["Nodes"] = {"items": items}
        return jsonify(result)

    @app.post("/prioritize")
    def prioritize() -> Any:
        args = request.get_json()
        state.calls.append(("prioritize", args))
        return jsonify(
            [
                {"Host": name, "Score": int(state.node_labels[name].get("rack/score", "0"))}
                for name in candidates(args)
            ]
        )

    @app.post("/preempt")
    def preempt() -> Any:
        args = request.get_json()
        state.calls.append(("preempt", args))
        kept: dict[str, Any] = {}
        if args.get("NodeNameToMetaVictims") is not None:
            for node, victims in args["NodeNameToMetaVictims"].items():
                kept[node] = victims  # a node-caching extender would check its own cache
        else:
            for node, victims in args["NodeNameToVictims"].items():
                pods = victims["Pods"]
                if any("rack/protected" in p["metadata"].get("labels", {}) for p in pods):
                    continue
                kept[node] = {
                    "Pods": [{"UID": p["metadata"]["uid"]} for p in pods],
                    "NumPDBViolations": victims["NumPDBViolations"],
                }
        return jsonify({"NodeNameToMetaVictims": kept})

    @app.post("/bind")
    def bind() -> Any:
        args = request.get_json()
        state.calls.append(("bind", args))
        state.bindings.append(args)
        return jsonify({"Error": ""})

    return app


@dataclass
class RunningExtender:
    url: str
    state: ExtenderState


@pytest.fixture
def gpu_extender() -> Iterator[RunningExtender]:
    """The Flask extender, served by werkzeug on a free port."""
    state = ExtenderState()
    server = make_server("127.0.0.1", 0, create_app(state), threaded=True)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield RunningExtender(f"http://127.0.0.1:{server.server_port}", state)
    finally:
        server.shutdown()
        thread.join(5)


# -- a bare server for faults and TLS ---------------------------------------------------


@dataclass
class Answer:
    """What the raw server answers to one verb."""

    status: int = 200
    body: Any = None
    raw: bytes | None = None
    delay: float = 0.0


class RawServer:
    """http.server on 127.0.0.1 answering each verb as `answers` says."""

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self.answers: dict[str, Answer] = {}
        self.calls: list[tuple[str, Any, dict[str, str]]] = []
        self.peer_certs: list[Any] = []
        self.client_ports: list[int] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"null")
                verb = self.path.rsplit("/", 1)[-1]
                outer.calls.append((verb, body, dict(self.headers)))
                outer.client_ports.append(self.client_address[1])
                if isinstance(self.connection, ssl.SSLSocket):
                    outer.peer_certs.append(self.connection.getpeercert())
                answer = outer.answers.get(verb, Answer(404, {}))
                if answer.delay:
                    time.sleep(answer.delay)
                data = answer.raw if answer.raw is not None else json.dumps(answer.body).encode()
                self.send_response(answer.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        scheme = "https" if tls is not None else "http"
        self.url = f"{scheme}://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def answer(
        self,
        verb: str,
        body: Any = None,
        *,
        status: int = 200,
        raw: bytes | None = None,
        delay: float = 0.0,
    ) -> None:
        self.answers[verb] = Answer(status, body, raw, delay)

    def verbs(self) -> list[str]:
        return [verb for verb, _, _ in self.calls]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


@pytest.fixture
def raw_server() -> Iterator[Callable[..., RawServer]]:
    servers: list[RawServer] = []

    def start(tls: ssl.SSLContext | None = None) -> RawServer:
        servers.append(RawServer(tls))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


# -- certificates ----------------------------------------------------------------------


@dataclass
class TLSFiles:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path

    def server_context(self, require_client_cert: bool = False) -> ssl.SSLContext:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(self.server_cert, self.server_key)
        if require_client_cert:
            ctx.verify_mode = ssl.CERT_REQUIRED
            ctx.load_verify_locations(self.ca)
        return ctx


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _issue(
    subject: str,
    key: ec.EllipticCurvePrivateKey,
    issuer: tuple[x509.Name, ec.EllipticCurvePrivateKey] | None,
    *,
    ca: bool = False,
    sans: list[x509.GeneralName] | None = None,
) -> x509.Certificate:
    now = datetime.datetime.now(datetime.timezone.utc)
    issuer_name, issuer_key = issuer if issuer is not None else (_name(subject), key)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(issuer_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if ca:
        builder = builder.add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False),
            critical=True,
        ).add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), False)
    else:
        builder = builder.add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), False
        )
    if sans:
        builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def _write(path: Path, cert: x509.Certificate, key: ec.EllipticCurvePrivateKey | None) -> None:
    path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    if key is not None:
        path.with_suffix(".key").write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )


@pytest.fixture(scope="session")
def tls_files(tmp_path_factory: pytest.TempPathFactory) -> TLSFiles:
    """A throwaway CA, a server certificate for 127.0.0.1 and `extender.test`, and a
    client certificate, all signed by the CA."""
    root = tmp_path_factory.mktemp("tls")
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _issue("test CA", ca_key, None, ca=True)
    server_key = ec.generate_private_key(ec.SECP256R1())
    server = _issue(
        "extender",
        server_key,
        (ca.subject, ca_key),
        sans=[x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("extender.test")],
    )
    client_key = ec.generate_private_key(ec.SECP256R1())
    client = _issue("kubesched", client_key, (ca.subject, ca_key))
    _write(root / "ca.pem", ca, None)
    _write(root / "server.pem", server, server_key)
    _write(root / "client.pem", client, client_key)
    return TLSFiles(
        root / "ca.pem",
        root / "server.pem",
        root / "server.key",
        root / "client.pem",
        root / "client.key",
    )
