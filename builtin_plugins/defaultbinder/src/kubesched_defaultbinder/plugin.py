"""The DefaultBinder plugin: binds a pod through the cluster client."""

from __future__ import annotations

from typing import Protocol

from kubesched import hookimpl
from kubesched.api import Pod
from kubesched.framework import Status


class PodBinder(Protocol):
    """The part of the cluster client this plugin uses."""

    def bind(self, pod: Pod, node_name: str) -> None: ...


class BindingHandle(Protocol):
    """The part of the framework handle this plugin uses."""

    @property
    def client(self) -> PodBinder: ...


class DefaultBinder:
    """Binds pods to nodes with the handle's cluster client (upstream's DefaultBinder)."""

    name = "DefaultBinder"

    def __init__(self, args: object, handle: BindingHandle) -> None:
        """No args; binds through `handle.client`."""
        self._handle = handle

    @hookimpl
    def bind(self, pod: Pod, node_name: str) -> Status | None:
        """Bind; a failure of the client becomes an Error status carrying the exception."""
        try:
            self._handle.client.bind(pod, node_name)
        except Exception as exc:
            return Status.error(exc)
        return None
