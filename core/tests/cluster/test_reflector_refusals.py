"""A reflector whose listing is refused (401, 403) does what client-go's does: it logs the
failure, waits out its backoff and lists again, so a credential fixed while kubesched runs is
picked up. Refused credentials at start-up fail the command at once instead (see
test_kubeconfig_check.py): that is the connection check, not the reflector."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from kubesched.cluster.apiserver.kinds import NODES
from kubesched.cluster.apiserver.reflector import Backoff, Reflector
from kubesched.cluster.apiserver.store import Stores

NODE = {"metadata": {"name": "n1", "resourceVersion": "5"}}


class _Session:
    """Answers the listings with the statuses given, then with one node; watches hang."""

    def __init__(self, statuses: list[int]) -> None:
        self.statuses = statuses
        self.listings = 0

    async def request(self, method: str, group_version: str, path: str, **_: Any) -> Any:
        self.listings += 1
        if self.statuses:
            code = self.statuses.pop(0)
            reason = "Unauthorized" if code == 401 else "Forbidden"
            return code, {"kind": "Status", "code": code, "reason": reason, "message": reason}
        return 200, {"items": [NODE], "metadata": {"resourceVersion": "5"}}


class _NoWait(Backoff):
    def next(self) -> float:
        super().next()
        return 0.0


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_listing_is_logged_and_retried(
    status: int, caplog: pytest.LogCaptureFixture
) -> None:
    session = _Session([status, status])
    reflector = Reflector(session, NODES, Stores([NODES]), backoff=_NoWait())  # type: ignore[arg-type]

    async def watch() -> None:
        await asyncio.sleep(3600)  # the listing is what is under test

    reflector._watch = watch  # type: ignore[method-assign]

    async def first_listing() -> None:
        task = asyncio.ensure_future(reflector.run())
        for _ in range(1000):
            if reflector.synced.is_set():
                break
            await asyncio.sleep(0.001)
        task.cancel()

    with caplog.at_level(logging.WARNING, logger="kubesched.run"):
        asyncio.run(first_listing())
    assert reflector.synced.is_set()
    assert session.listings == 3
    refused = [r.getMessage() for r in caplog.records if "listing nodes failed" in r.getMessage()]
    reason = "Unauthorized" if status == 401 else "Forbidden"
    assert refused == [f"listing nodes failed: {reason}; retrying in 0.0s"] * 2
