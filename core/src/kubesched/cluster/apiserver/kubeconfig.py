"""A kubeconfig checked before connecting, so that its mistakes are named and its secrets
never printed.

The client library reads the file itself; a malformed one used to surface as
"cannot reach the API server" with the file's contents (bearer token
included) in the message. `check_kubeconfig` reads the file within the input
bounds (a regular file, at most `MAX_KUBECONFIG_BYTES`), says in one line what
is wrong with it (the field, never the value), and returns its secrets so that
any later message can have them blanked out (`redact`). A token sent over
plain http is worth one warning.

With several files in `$KUBECONFIG` they merge as client-go merges them
(clientcmd's loading rules): for clusters, users and contexts the first file
that names an entry wins and later entries of that name are ignored; the
current-context is the first one set; relative file references are resolved
against the file that holds them. The merged configuration is what the client
is then given.
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


_PATH_FIELDS = {
    "clusters": ("certificate-authority",),
    "users": ("client-certificate", "client-key", "tokenFile"),
}


@frozen
class KubeconfigCheck:
    """What checking a kubeconfig found: the secrets to blank out and warnings to print."""

    path: str | None = None
    secrets: tuple[str, ...] = ()
    warnings: tuple[str, ...] = field(factory=tuple)
    merged: dict[str, Any] | None = None
    """The merged configuration when `$KUBECONFIG` named several files."""


def kubeconfig_paths(given: str | None) -> list[str]:
    """The files the client reads, in precedence order: the one given; else every file of
    $KUBECONFIG that exists (duplicates once); else ~/.kube/config when it exists; none for
    in-cluster credentials."""
    if given:
        return [given]
    found: list[str] = []
    for candidate in os.environ.get("KUBECONFIG", "").split(os.pathsep):
        if candidate and candidate not in found and Path(candidate).exists():
            found.append(candidate)
    if found or os.environ.get("KUBECONFIG"):
        return found
    default = Path.home() / ".kube" / "config"
    return [str(default)] if default.exists() else []


def kubeconfig_path(given: str | None) -> str | None:
    """The first file the client reads, or None for in-cluster credentials."""
    paths = kubeconfig_paths(given)
    return paths[0] if paths else None


def _absolute(entry: Mapping[str, Any], key: str, base: Path) -> dict[str, Any]:
    """`entry` with its relative file references resolved against `base` (client-go's
    ResolvePaths)."""
    inner = key[:-1]  # clusters -> cluster, users -> user
    details = entry.get(inner)
    if not isinstance(details, Mapping):
        return dict(entry)
    resolved = dict(details)
    for name in _PATH_FIELDS.get(key, ()):
        value = resolved.get(name)
        if isinstance(value, str) and value and not Path(value).is_absolute():
            resolved[name] = str(base / value)
    exec_ = resolved.get("exec")
    if key == "users" and isinstance(exec_, Mapping):
        command = exec_.get("command")
        if isinstance(command, str) and os.sep in command and not Path(command).is_absolute():
            resolved["exec"] = {**exec_, "command": str(base / command)}
    return {**entry, inner: resolved}


def merge_kubeconfigs(documents: Sequence[tuple[str, Mapping[str, Any]]]) -> dict[str, Any]:
    """One configuration from several (path, document), the first file winning each name."""
    merged: dict[str, Any] = {"apiVersion": "v1", "kind": "Config"}
    for key in ("clusters", "users", "contexts"):
        seen: dict[str, Any] = {}
        for path, data in documents:
            for name, entry in _named(data, key, path).items():
                if name not in seen:
                    seen[name] = _absolute(entry, key, Path(path).resolve().parent)
        merged[key] = list(seen.values())
    current = next(
        (d.get("current-context") for _, d in documents if d.get("current-context")), None
    )
    if current:
        merged["current-context"] = current
    return merged


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


def _read(path: str) -> Mapping[str, Any]:
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
    return data


def check_kubeconfig(given: str | None) -> KubeconfigCheck:
    """Check the kubeconfig the client is about to read (several files merged); KubeschedError
    naming the file and the problem (never a value from it)."""
    paths = kubeconfig_paths(given)
    if not paths:
        return KubeconfigCheck()
    documents = [(p, _read(p)) for p in paths]
    merged = merge_kubeconfigs(documents) if len(documents) > 1 else None
    path = paths[0] if merged is None else os.pathsep.join(paths)
    data = documents[0][1] if merged is None else merged
    clusters = _named(data, "clusters", path)
    contexts = _named(data, "contexts", path)
    users = _named(data, "users", path)
    secrets = [s for p, d in documents for s in _secrets(_named(d, "users", p))]
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
    return KubeconfigCheck(path, tuple(secrets), tuple(warnings), merged)


def redact(message: str, secrets: Sequence[str]) -> str:
    """`message` with every secret blanked out, on one line."""
    for secret in secrets:
        message = message.replace(secret, REDACTED)
    return " ".join(message.split())
