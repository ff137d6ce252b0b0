"""Binding cycles that wait on the API server run concurrently, as upstream's binding
goroutines do.

A live scheduler hands the part of a binding cycle that talks to the API server
(PreBind, then the binding extender or the Bind plugins) to `ConcurrentBinder`:
a pool of worker threads, at most `limit` cycles in flight (a new one waits for
a free slot). The scheduling loop goes on with the next pod meanwhile, the
bound pod assumed in the cache; it collects finished cycles (`completed`) and
does their bookkeeping on its own thread: FinishBinding, and then the
scheduled event and PostBind, or, for a failed bind, Unreserve, forgetting the
pod and requeueing it. A simulation binds inline, in order, as before.
"""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

P = TypeVar("P")

DEFAULT_BINDING_WORKERS = 16
"""Binding cycles in flight at most."""


class ConcurrentBinder(Generic[P]):
    """Runs `work` of each binding cycle on a worker thread; `completed` hands back the
    finished ones, in the order they were started."""

    def __init__(
        self, limit: int = DEFAULT_BINDING_WORKERS, notify: Callable[[], object] | None = None
    ) -> None:
        self.limit = max(1, limit)
        self.notify = notify
        """Called (on a worker thread) when a cycle finishes, to wake the scheduling loop."""
        self._pool = concurrent.futures.ThreadPoolExecutor(
            self.limit, thread_name_prefix="kubesched-binding"
        )
        self._inflight: dict[str, tuple[P, concurrent.futures.Future[Any]]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._inflight)

    def submit(self, key: str, payload: P, work: Callable[[], Any]) -> None:
        """Start `work` for the cycle `key`; waits first while `limit` cycles are in flight."""
        if len(self._inflight) >= self.limit:
            futures = [f for _, f in self._inflight.values()]
            concurrent.futures.wait(futures, return_when=concurrent.futures.FIRST_COMPLETED)
        future = self._pool.submit(work)
        self._inflight[key] = (payload, future)
        if self.notify is not None:
            notify = self.notify
            future.add_done_callback(lambda _: notify())

    def completed(self) -> list[tuple[P, Any]]:
        """The finished cycles (payload, what `work` returned), removed from the flight."""
        done = [(k, p, f) for k, (p, f) in self._inflight.items() if f.done()]
        for key, _, _ in done:
            del self._inflight[key]
        return [(payload, future.result()) for _, payload, future in done]

    def wait(self, timeout: float) -> None:
        """Wait (up to `timeout`) for every cycle in flight to finish."""
        futures = [f for _, f in self._inflight.values()]
        if futures:
            concurrent.futures.wait(futures, timeout=timeout)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
