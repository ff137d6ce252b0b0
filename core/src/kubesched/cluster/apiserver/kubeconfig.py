"""A kubeconfig checked before connecting, so that its mistakes are named and its secrets
never printed.

The client library reads the file itself; a malformed one used to surface as
"cannot reach the API server" with the file's contents (bearer token
included) in the message. `check_kubeconfig` reads the file within the input
bounds (a regular file, at most `MAX_KUBECONFIG_BYTES`), says in one line what
is wrong with it (the field, never the value), and returns its secrets so that
any later message can have them blanked out (`redact`). A token sent over
plain http is worth one warning.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import field, frozen

from kubesched.api._reading import ReadError, read_file
from kubesched.api._text import TextError, parse_yaml_document
from kubesched.errors import KubeschedError

MAX_KUBECONFIG_BYTES = 16 * 1024 * 1024
"""The largest kubeconfig read (a real one is a few kilobytes)."""
_SECRET_FIELDS = ("token", "password", "client-key-data")
REDACTED = "<redacted>"


@frozen
class KubeconfigCheck:
    """What checking a kubeconfig found: the secrets to blank out and warnings to print."""

    path: str | None = None
    secrets: tuple[str, ...] = ()
    warnings: tuple[str, ...] = field(factory=tuple)


def kubeconfig_path(given: str | None) -> str | None:
    """The file the client would read: the one given, else the first of $KUBECONFIG that
    exists, else ~/.kube/config when it exists; None for in-cluster credentials."""
    if given:
        return given
    for candidate in os.environ.get("KUBECONFIG", "").split(os.pathsep):
        if candidate and Path(candidate).exists():
            return candidate
    default = Path.home() / ".kube" / "config"
    return str(default) if default.exists() else None


def _named(data: Mapping[str, Any], key: str, path: str) -> dict[str, Mapping[str, Any]]:
    entries = data.get(key) or []
    if not isinstance(entries, list):
        raise KubeschedError(f"{path}: not a valid kubeconfig: field {key}: expected a list")
    found: dict[str, Mapping[str, Any]] = {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            raise KubeschedError(
                f"{path}: not a valid kubeconfig: field {key}[{i}]: expected an object with a name"
            )
        found[entry["name"]] = entry
    return found


def _secrets(users: Mapping[str, Mapping[str, Any]]) -> list[str]:
    found = []
    for user in users.values():
        details = user.get("user")
        if isinstance(details, Mapping):
            found += [str(details[k]) for k in _SECRET_FIELDS if details.get(k)]
    return [s for s in found if len(s) >= 4]


def _inner(entry: Mapping[str, Any] | None, key: str) -> Mapping[str, Any]:
    value = entry.get(key) if entry is not None else None
    return value if isinstance(value, Mapping) else {}


def check_kubeconfig(given: str | None) -> KubeconfigCheck:
    """Check the kubeconfig the client is about to read; KubeschedError naming the file and
    the problem (never a value from it)."""
    path = kubeconfig_path(given)
    if path is None:
        return KubeconfigCheck()
    try:
        text = read_file(path, MAX_KUBECONFIG_BYTES)
        data, problems = parse_yaml_document(text)
    except ReadError as exc:
        raise KubeschedError(f"{path}: cannot read the kubeconfig: {exc.message}") from None
    except TextError as exc:
        raise KubeschedError(f"{path}: not a valid kubeconfig: {exc.message}") from None
    if problems:
        raise KubeschedError(f"{path}: not a valid kubeconfig: {problems[0]}")
    if not isinstance(data, Mapping):
        raise KubeschedError(f"{path}: not a valid kubeconfig: expected an object")
    clusters = _named(data, "clusters", path)
    contexts = _named(data, "contexts", path)
    users = _named(data, "users", path)
    secrets = _secrets(users)
    current = data.get("current-context")
    if not contexts:
        raise KubeschedError(f"{path}: not a valid kubeconfig: it has no contexts")
    if current is not None and current not in contexts:
        raise KubeschedError(
            f"{path}: not a valid kubeconfig: field current-context: no context has that name"
        )
    context = _inner(contexts.get(str(current)) if current else None, "context")
    cluster = _inner(clusters.get(str(context.get("cluster", ""))), "cluster")
    user = _inner(users.get(str(context.get("user", ""))), "user")
    warnings: list[str] = []
    server = cluster.get("server")
    if current and not isinstance(server, str):
        raise KubeschedError(
            f"{path}: not a valid kubeconfig: the cluster of context {current} has no server"
        )
    if isinstance(server, str) and server.startswith("http://") and user.get("token"):
        warnings.append(
            f"{path}: the bearer token of context {current} goes to {server} over plain http, "
            "unencrypted"
        )
    return KubeconfigCheck(path, tuple(secrets), tuple(warnings))


def redact(message: str, secrets: Sequence[str]) -> str:
    """`message` with every secret blanked out, on one line."""
    for secret in secrets:
        message = message.replace(secret, REDACTED)
    return " ".join(message.split())
