"""Extenders over HTTPS: a CA from a file or inline, client certificates, serverName,
`insecure`, and upstream's rule that `enableHTTPS` without a CA skips verification."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from kubesched.testing import make_node, make_pod, simulate

ANSWER = {"NodeNames": ["n2"], "FailedNodes": {"n1": "not here"}}


def run_with(extender: dict[str, Any]) -> Any:
    nodes = [make_node(f"n{i}").capacity(cpu="4", memory="8Gi").obj() for i in (1, 2)]
    pod = make_pod("web").namespace("apps").uid("uid-web").req(cpu="1").obj()
    config = {"extenders": [{"filterVerb": "filter", "nodeCacheCapable": True, **extender}]}
    return simulate(nodes, [pod], config, max_pod_attempts=1)


@pytest.fixture
def https_server(raw_server: Any, tls_files: Any) -> Any:
    server = raw_server(tls_files.server_context())
    server.answer("filter", ANSWER)
    return server


def test_a_ca_file_verifies_the_extender(https_server: Any, tls_files: Any) -> None:
    run = run_with(
        {
            "urlPrefix": https_server.url,
            "enableHTTPS": True,
            "tlsConfig": {"caFile": str(tls_files.ca)},
        }
    )
    assert run.placements == {"apps/web": "n2"}


def test_ca_data_is_base64_pem(https_server: Any, tls_files: Any) -> None:
    ca_data = base64.b64encode(tls_files.ca.read_bytes()).decode()
    run = run_with(
        {"urlPrefix": https_server.url, "enableHTTPS": True, "tlsConfig": {"caData": ca_data}}
    )
    assert run.placements == {"apps/web": "n2"}


def test_enable_https_without_a_ca_does_not_verify(https_server: Any) -> None:
    run = run_with({"urlPrefix": https_server.url, "enableHTTPS": True})
    assert run.placements == {"apps/web": "n2"}


def test_an_unknown_ca_fails_the_cycle(https_server: Any) -> None:
    run = run_with({"urlPrefix": https_server.url})
    outcome = run.outcome("apps/web")
    assert outcome.status == "Error"
    assert outcome.message.startswith(f'Post "{https_server.url}/filter": ')
    assert "CERTIFICATE_VERIFY_FAILED" in outcome.message


def test_insecure_skips_verification(https_server: Any) -> None:
    run = run_with({"urlPrefix": https_server.url, "tlsConfig": {"insecure": True}})
    assert run.placements == {"apps/web": "n2"}


def test_server_name_is_what_the_certificate_is_checked_against(
    https_server: Any, tls_files: Any
) -> None:
    tls = {"caFile": str(tls_files.ca)}
    good = run_with(
        {"urlPrefix": https_server.url, "tlsConfig": {**tls, "serverName": "extender.test"}}
    )
    assert good.placements == {"apps/web": "n2"}
    bad = run_with(
        {"urlPrefix": https_server.url, "tlsConfig": {**tls, "serverName": "other.test"}}
    )
    assert "CERTIFICATE_VERIFY_FAILED" in bad.outcome("apps/web").message


@pytest.mark.parametrize("inline", [False, True])
def test_a_client_certificate_is_presented(raw_server: Any, tls_files: Any, inline: bool) -> None:
    server = raw_server(tls_files.server_context(require_client_cert=True))
    server.answer("filter", ANSWER)
    if inline:
        client = {
            "certData": base64.b64encode(tls_files.client_cert.read_bytes()).decode(),
            "keyData": base64.b64encode(tls_files.client_key.read_bytes()).decode(),
        }
    else:
        client = {"certFile": str(tls_files.client_cert), "keyFile": str(tls_files.client_key)}
    run = run_with({"urlPrefix": server.url, "tlsConfig": {"caFile": str(tls_files.ca), **client}})
    assert run.placements == {"apps/web": "n2"}
    subject = dict(pair[0] for pair in server.peer_certs[0]["subject"])
    assert subject["commonName"] == "kubesched"


def test_without_the_required_client_certificate_the_call_fails(
    raw_server: Any, tls_files: Any
) -> None:
    server = raw_server(tls_files.server_context(require_client_cert=True))
    server.answer("filter", ANSWER)
    run = run_with({"urlPrefix": server.url, "tlsConfig": {"caFile": str(tls_files.ca)}})
    outcome = run.outcome("apps/web")
    assert outcome.status == "Error"
    assert outcome.message.startswith(f'Post "{server.url}/filter": ')


def test_a_missing_ca_file_is_reported_naming_the_extender(tmp_path: Any) -> None:
    from kubesched.errors import KubeschedError

    with pytest.raises(KubeschedError, match=r'extender "https://x.test": bad tlsConfig'):
        run_with({"urlPrefix": "https://x.test", "tlsConfig": {"caFile": str(tmp_path / "no.pem")}})
