"""CPU per request of the Kubernetes clients `kubesched run` could use, against the fake API
server in a process of its own (so only the client's CPU is counted).

Three operations, each what `kubesched run` does most: a bind (POST pods/binding), a list
of 500 pods (one page), and a watch event (one pod delivered by a watch stream). Each client
is measured the way it would be used: plain httpx (HTTP/1.1 keep-alive) with raw JSON;
`lean`, what `kubesched run` does now (binds through its own HTTP/1.1 client, `http11`;
lists and watches through httpx; JSON through msgspec); kr8s'
`call_api` (raw JSON over its httpx session); lightkube's typed async client; and
kubernetes_asyncio's generated API, with its models (`typed`) and raw (`_preload_content=False`).
A client that is not installed is skipped.

    uv run python benchmarks/run_client_cost.py [--pods 500] [--server-python PYTHON]

Prints JSON: microseconds of CPU (this process's `time.process_time`) per bind, per list of
`--pods` pods, per watch event.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from _remote_apiserver import TOKEN, RemoteApiServer


def create_pending_pods(remote: RemoteApiServer, namespace: str, count: int) -> int:
    """Create `count` pending pods; the resourceVersion before the first."""
    listed = remote.call("GET", f"/api/v1/namespaces/{namespace}/pods")
    version = int(listed["metadata"]["resourceVersion"])
    for i in range(count):
        pod = {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": f"p{i}", "namespace": namespace},
            "spec": {"containers": [{"name": "c", "image": "pause"}]},
        }
        remote.call("POST", f"/api/v1/namespaces/{namespace}/pods", pod)
    return version


def binding(namespace: str, name: str) -> dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "Binding",
        "metadata": {"name": name, "namespace": namespace},
        "target": {"apiVersion": "v1", "kind": "Node", "name": "n0"},
    }


Ops = tuple[
    Callable[[str, str], Awaitable[None]],  # bind(namespace, name)
    Callable[[str], Awaitable[int]],  # list(namespace) -> items
    Callable[[str, int, int], Awaitable[int]],  # watch(namespace, since, count) -> events
]


async def httpx_ops(url: str, kubeconfig: str) -> Ops:
    import httpx

    client = httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"})

    async def bind(ns: str, name: str) -> None:
        r = await client.post(
            f"/api/v1/namespaces/{ns}/pods/{name}/binding",
            content=json.dumps(binding(ns, name)).encode(),
            headers={"Content-Type": "application/json"},
        )
        json.loads(r.content)

    async def listing(ns: str) -> int:
        r = await client.get(f"/api/v1/namespaces/{ns}/pods", params={"limit": "500"})
        return len(json.loads(r.content)["items"])

    async def watch(ns: str, since: int, count: int) -> int:
        seen = 0
        params = {"watch": "true", "resourceVersion": str(since), "timeoutSeconds": "5"}
        async with client.stream("GET", f"/api/v1/namespaces/{ns}/pods", params=params) as r:
            async for line in r.aiter_lines():
                if line:
                    json.loads(line)
                    seen += 1
                    if seen == count:
                        break
        return seen

    return bind, listing, watch


async def lean_ops(url: str, kubeconfig: str) -> Ops:
    """What `kubesched run` does now: binds through its lean HTTP/1.1 client (`http11`), lists
    and watches through httpx, JSON through msgspec."""
    import httpx
    import msgspec

    from kubesched.cluster.apiserver.http11 import Http11Pool

    pool = Http11Pool(url, ssl_context=None, max_connections=4)
    client = httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {TOKEN}"})
    headers = [("Authorization", f"Bearer {TOKEN}"), ("Content-Type", "application/json")]

    async def bind(ns: str, name: str) -> None:
        target = pool.target(f"api/v1/namespaces/{ns}/pods/{name}/binding", None)
        body = msgspec.json.encode(binding(ns, name))
        _, answer = await pool.request("POST", target, headers, body, 10.0)
        msgspec.json.decode(answer)

    async def listing(ns: str) -> int:
        r = await client.get(f"/api/v1/namespaces/{ns}/pods", params={"limit": "500"})
        return len(msgspec.json.decode(r.content)["items"])

    async def watch(ns: str, since: int, count: int) -> int:
        seen = 0
        params = {"watch": "true", "resourceVersion": str(since), "timeoutSeconds": "5"}
        async with client.stream("GET", f"/api/v1/namespaces/{ns}/pods", params=params) as r:
            async for line in r.aiter_lines():
                if line:
                    msgspec.json.decode(line)
                    seen += 1
                    if seen == count:
                        break
        return seen

    return bind, listing, watch


async def kr8s_ops(url: str, kubeconfig: str) -> Ops:
    import kr8s.asyncio

    api = await kr8s.asyncio.api(kubeconfig=kubeconfig)

    async def bind(ns: str, name: str) -> None:
        async with api.call_api(
            "POST",
            version="v1",
            base="/api",
            url=f"namespaces/{ns}/pods/{name}/binding",
            content=json.dumps(binding(ns, name)).encode(),
            headers={"Content-Type": "application/json"},
        ) as r:
            json.loads(r.content)

    async def listing(ns: str) -> int:
        async with api.call_api(
            "GET", version="v1", base="/api", url=f"namespaces/{ns}/pods", params={"limit": "500"}
        ) as r:
            return len(json.loads(r.content)["items"])

    async def watch(ns: str, since: int, count: int) -> int:
        seen = 0
        params = {"watch": "true", "resourceVersion": str(since), "timeoutSeconds": "5"}
        async with api.call_api(
            "GET",
            version="v1",
            base="/api",
            url=f"namespaces/{ns}/pods",
            params=params,
            stream=True,
        ) as r:
            async for line in r.aiter_lines():
                if line:
                    json.loads(line)
                    seen += 1
                    if seen == count:
                        break
        return seen

    return bind, listing, watch


async def lightkube_ops(url: str, kubeconfig: str) -> Ops:
    from lightkube import AsyncClient, KubeConfig
    from lightkube.models.core_v1 import ObjectReference
    from lightkube.models.meta_v1 import ObjectMeta
    from lightkube.resources.core_v1 import Pod

    client = AsyncClient(KubeConfig.from_file(kubeconfig))

    async def bind(ns: str, name: str) -> None:
        body = Pod.Binding(
            metadata=ObjectMeta(name=name, namespace=ns),
            target=ObjectReference(apiVersion="v1", kind="Node", name="n0"),
        )
        # The server answers a Status, which lightkube decodes as a Binding and refuses.
        with contextlib.suppress(ValueError):
            await client.create(body, name=name, namespace=ns)  # type: ignore[call-overload]

    async def listing(ns: str) -> int:
        return len([p async for p in client.list(Pod, namespace=ns, chunk_size=500)])

    async def watch(ns: str, since: int, count: int) -> int:
        seen = 0
        async for _event, _pod in client.watch(
            Pod, namespace=ns, resource_version=str(since), on_error=lambda *a: "STOP"
        ):
            seen += 1
            if seen == count:
                break
        return seen

    return bind, listing, watch


async def kubernetes_asyncio_ops(url: str, kubeconfig: str, typed: bool) -> Ops:
    from kubernetes_asyncio import client, config, watch

    await config.load_kube_config(config_file=kubeconfig)
    core = client.CoreV1Api()

    async def bind(ns: str, name: str) -> None:
        body = client.V1Binding(
            metadata=client.V1ObjectMeta(name=name, namespace=ns),
            target=client.V1ObjectReference(api_version="v1", kind="Node", name="n0"),
        )
        if typed:
            # The server answers a Status, which it decodes as a Binding and refuses.
            with contextlib.suppress(ValueError):
                await core.create_namespaced_pod_binding(name, ns, body)
        else:
            r = await core.create_namespaced_pod_binding(name, ns, body, _preload_content=False)
            json.loads(await r.read())

    async def listing(ns: str) -> int:
        if typed:
            return len((await core.list_namespaced_pod(ns, limit=500)).items)
        r = await core.list_namespaced_pod(ns, limit=500, _preload_content=False)
        return len(json.loads(await r.read())["items"])

    async def watch_(ns: str, since: int, count: int) -> int:
        seen = 0
        w = watch.Watch()
        async for _event in w.stream(
            core.list_namespaced_pod,
            ns,
            resource_version=str(since),
            timeout_seconds=5,
            **({} if typed else {"_preload_content": False}),
        ):
            seen += 1
            if seen == count:
                break
        w.stop()
        return seen

    return bind, listing, watch_


async def measure(
    remote: RemoteApiServer, name: str, make: Callable[[], Awaitable[Ops]], pods: int
) -> Any:
    try:
        bind, listing, watch = await make()
    except ImportError:
        return None
    ns = name.replace("_", "-")
    since = create_pending_pods(remote, ns, pods)
    await listing(ns)  # warm up: connection, first request
    cpu = time.process_time()
    for i in range(pods):
        await bind(ns, f"p{i}")
    per_bind = (time.process_time() - cpu) / pods
    cpu = time.process_time()
    rounds = 5
    for _ in range(rounds):
        assert await listing(ns) == pods
    per_list = (time.process_time() - cpu) / rounds
    cpu = time.process_time()
    events = await watch(ns, since, 2 * pods)  # each pod: ADDED, then MODIFIED (bound)
    per_event = (time.process_time() - cpu) / max(1, events)
    return {
        "bind_us": round(per_bind * 1e6),
        f"list_{pods}_pods_us": round(per_list * 1e6),
        "watch_event_us": round(per_event * 1e6),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pods", type=int, default=500)
    parser.add_argument("--clients", default="", help="comma-separated names; default: all")
    parser.add_argument("--server-python", default=os.environ.get("SERVER_PYTHON", sys.executable))
    args = parser.parse_args()
    remote = RemoteApiServer(args.server_python)
    results: dict[str, Any] = {}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            kubeconfig = str(remote.kubeconfig(Path(tmp) / "kubeconfig"))
            clients: dict[str, Callable[[], Awaitable[Ops]]] = {
                "httpx": lambda: httpx_ops(remote.url, kubeconfig),
                "lean": lambda: lean_ops(remote.url, kubeconfig),
                "kr8s": lambda: kr8s_ops(remote.url, kubeconfig),
                "lightkube": lambda: lightkube_ops(remote.url, kubeconfig),
                "kubernetes_asyncio_typed": lambda: kubernetes_asyncio_ops(
                    remote.url, kubeconfig, True
                ),
                "kubernetes_asyncio_raw": lambda: kubernetes_asyncio_ops(
                    remote.url, kubeconfig, False
                ),
            }
            chosen = [c for c in args.clients.split(",") if c] or list(clients)
            for name in chosen:
                make = clients[name]
                found = asyncio.run(measure(remote, name, make, args.pods))
                if found is not None:
                    results[name] = found
    finally:
        remote.close()
    print(json.dumps({"pods": args.pods, "cpu_per_operation": results}, indent=2))


if __name__ == "__main__":
    main()
