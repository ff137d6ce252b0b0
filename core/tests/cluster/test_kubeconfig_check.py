"""A kubeconfig is checked before connecting: its mistakes named, its secrets never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from kubesched.cluster.apiserver.kubeconfig import REDACTED, check_kubeconfig, redact
from kubesched.cluster.apiserver.session import connect_problem
from kubesched.errors import KubeschedError

TOKEN = "eyJhbGciOiJSUzI1NiIsImtpZCI6InNlY3JldCJ9.s3cr3t"
GOOD = f"""apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {{server: SERVER}}
users:
- name: u
  user: {{token: {TOKEN}}}
contexts:
- name: x
  context: {{cluster: c, user: u}}
current-context: x
"""


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "kubeconfig"
    path.write_text(text)
    return str(path)


def test_a_valid_kubeconfig_yields_its_secrets_and_no_warning(tmp_path: Path) -> None:
    check = check_kubeconfig(write(tmp_path, GOOD.replace("SERVER", "https://k:6443")))
    assert check.secrets == (TOKEN,)
    assert check.warnings == ()


def test_a_token_over_plain_http_is_warned_of_once(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("SERVER", "http://k:8080"))
    assert check_kubeconfig(path).warnings == (
        f"{path}: the bearer token of context x goes to http://k:8080 over plain http, unencrypted",
    )


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (GOOD.replace("current-context: x", "current-context: x\n  bad: [1"), "invalid YAML"),
        (GOOD.replace("current-context: x", "current-context: y"), "field current-context"),
        (GOOD.replace("cluster: {server: SERVER}", "cluster: {}"), "has no server"),
        (f"users: [{{name: u, user: {{token: {TOKEN}}}}}]\n", "it has no contexts"),
        ("- a list\n", "expected an object"),
    ],
)
def test_a_malformed_kubeconfig_is_named_without_its_contents(
    tmp_path: Path, text: str, says: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(KubeschedError) as info:
        check_kubeconfig(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and says in message
    assert TOKEN not in message and "\n" not in message


def test_a_device_is_refused_before_reading() -> None:
    with pytest.raises(KubeschedError, match="not a regular file: it is a character device"):
        check_kubeconfig("/dev/zero")


class _Response:
    def __init__(self, status_code: int) -> None:
        self.status_code = status_code


class _Refused(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(f"Unauthorized: token {TOKEN}")
        self.response = _Response(status)


@pytest.mark.parametrize("status", [401, 403])
def test_refused_credentials_are_said_as_such(status: int) -> None:
    what = "Unauthorized" if status == 401 else "Forbidden"
    assert connect_problem(_Refused(status), [TOKEN]) == (
        f"the API server refused the credentials (HTTP {status} {what})"
    )


def test_a_connection_error_never_shows_a_secret() -> None:
    problem = connect_problem(ValueError(f"bad config:\n  token: {TOKEN}\n  server: x"), [TOKEN])
    assert TOKEN not in problem and "\n" not in problem
    assert problem == f"cannot reach the API server: bad config: token: {REDACTED} server: x"


def test_redact_blanks_every_secret() -> None:
    assert redact("a s3cr3t b pa55word", ["s3cr3t", "pa55word"]) == f"a {REDACTED} b {REDACTED}"
