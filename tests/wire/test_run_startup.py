"""Start-up against an API server: one that fails at first is waited for, refused or missing
credentials say so at once (never "cannot reach"), no credential is ever printed, several
kubeconfig files merge as client-go merges them, and no library warning is printed."""

from __future__ import annotations

import json
import logging
import warnings
from pathlib import Path

import pytest

from kubesched.cluster.apiserver import ApiSession
from kubesched.cluster.apiserver.kubeconfig import check_kubeconfig
from kubesched.errors import KubeschedError
from kubesched.testing.apiserver import TOKEN, FakeApiServer


def quick() -> float:
    return 0.05


def test_a_failing_api_server_is_retried_with_one_line_per_kind_of_failure(
    apiserver: FakeApiServer, kubeconfig: Path, caplog: pytest.LogCaptureFixture
) -> None:
    apiserver.fail("GET", "^/version$", 503, times=4)
    session = ApiSession(str(kubeconfig), connect_backoff=quick)
    with caplog.at_level(logging.INFO):
        session.start()
    try:
        versions = [r for r in apiserver.requests if r.path == "/version"]
        assert len(versions) >= 5
        retried = [r.message for r in caplog.records if "retrying with backoff" in r.message]
        assert retried == [
            "the API server answered HTTP 503 (Injected): injected failure 503; "
            "retrying with backoff until it answers (next in 0.1s)"
        ]
        assert any("answered after" in r.message for r in caplog.records)
    finally:
        session.close()


@pytest.mark.parametrize("code", [401, 403])
def test_refused_credentials_are_named_and_never_printed(
    apiserver: FakeApiServer, tmp_path: Path, code: int
) -> None:
    secret = "s3cr3t-token-never-printed"
    kubeconfig = apiserver.write_kubeconfig(tmp_path / "kubeconfig", token=secret)
    if code == 403:
        kubeconfig = apiserver.write_kubeconfig(tmp_path / "kubeconfig", token=TOKEN)
        apiserver.fail("GET", "^/version$", 403, times=100)
    session = ApiSession(str(kubeconfig), connect_backoff=quick)
    with pytest.raises(KubeschedError) as caught:
        session.start()
    what = "Unauthorized" if code == 401 else "Forbidden"
    assert str(caught.value) == f"the API server refused the credentials (HTTP {code} {what})"
    assert secret not in str(caught.value)


def test_no_credentials_at_all_say_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "absent"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    session = ApiSession(None, connect_backoff=quick)
    with pytest.raises(KubeschedError, match=r"^no credentials for the API server: "):
        session.start()


def kubeconfig_text(server: str, token: str, cluster: str = "c", current: str | None = "x") -> str:
    config: dict[str, object] = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": cluster, "cluster": {"server": server}}],
        "users": [{"name": "u", "user": {"token": token}}],
        "contexts": [{"name": "x", "context": {"cluster": cluster, "user": "u"}}],
    }
    if current:
        config["current-context"] = current
    return json.dumps(config)


def test_with_several_kubeconfig_files_the_first_to_name_an_entry_wins(
    apiserver: FakeApiServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.write_text(kubeconfig_text(apiserver.url, TOKEN, current=None))
    second.write_text(kubeconfig_text("http://127.0.0.1:9", "other-token-1234", current="x"))
    monkeypatch.setenv("KUBECONFIG", f"{first}:{second}")
    check = check_kubeconfig(None)
    assert check.merged is not None
    assert check.merged["clusters"] == [{"name": "c", "cluster": {"server": apiserver.url}}]
    assert check.merged["current-context"] == "x"  # from the second: the first sets none
    assert set(check.secrets) == {TOKEN, "other-token-1234"}  # both blanked out of messages
    session = ApiSession(None, connect_backoff=quick)
    session.start()  # the first file's server and token: it answers
    try:
        assert session.server == apiserver.url
    finally:
        session.close()


def test_relative_file_references_resolve_against_their_own_file(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = {
        "clusters": [
            {"name": "c", "cluster": {"server": "https://k", "certificate-authority": "ca"}}
        ],
        "users": [{"name": "u", "user": {"client-certificate": "crt", "client-key": "/abs/key"}}],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        "current-context": "x",
    }
    (tmp_path / "a" / "config").write_text(json.dumps(one))
    (tmp_path / "b" / "config").write_text(json.dumps(one))
    paths = f"{tmp_path / 'a' / 'config'}:{tmp_path / 'b' / 'config'}"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KUBECONFIG", paths)
        merged = check_kubeconfig(None).merged
    assert merged is not None
    assert merged["clusters"][0]["cluster"]["certificate-authority"] == str(tmp_path / "a" / "ca")
    assert merged["users"][0]["user"]["client-certificate"] == str(tmp_path / "a" / "crt")
    assert merged["users"][0]["user"]["client-key"] == "/abs/key"


def test_no_library_warning_is_printed_against_a_newer_api_server(
    apiserver: FakeApiServer, kubeconfig: Path
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        session = ApiSession(str(kubeconfig))
        session.start()
        session.close()
    assert [str(w.message) for w in caught if "version" in str(w.message)] == []
