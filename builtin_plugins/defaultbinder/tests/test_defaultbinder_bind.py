"""Bind, re-expressing upstream's default_binder_test.go with a fake cluster client."""

from __future__ import annotations

from attrs import define, field

from kubesched.api import Pod
from kubesched.framework import Code
from kubesched.testing import make_pod
from kubesched_defaultbinder import DefaultBinder

NODE = "foohost.kubernetes.mydomain.com"


@define
class FakeClient:
    """Records bindings as (namespace, name, uid, node), or raises `error` instead."""

    error: Exception | None = None
    bindings: list[tuple[str, str, str, str]] = field(factory=list)

    def bind(self, pod: Pod, node_name: str) -> None:
        if self.error is not None:
            raise self.error
        meta = pod.metadata
        self.bindings.append((meta.namespace, meta.name, meta.uid, node_name))


@define
class FakeHandle:
    client: FakeClient


def test_successful_bind_goes_through_the_client() -> None:
    pod = make_pod("foo").namespace("ns").obj()
    client = FakeClient()
    status = DefaultBinder(None, FakeHandle(client)).bind(pod=pod, node_name=NODE)
    assert status is None
    assert client.bindings == [("ns", "foo", pod.metadata.uid, NODE)]


def test_binding_error_becomes_an_error_status() -> None:
    error = RuntimeError("binding error")
    client = FakeClient(error=error)
    status = DefaultBinder(None, FakeHandle(client)).bind(
        pod=make_pod("foo").namespace("ns").obj(), node_name=NODE
    )
    assert status is not None
    assert status.code == Code.ERROR
    assert status.message == "binding error"
    assert status.err is error
    assert client.bindings == []
