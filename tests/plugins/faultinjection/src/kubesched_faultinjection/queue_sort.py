"""FaultySort: a QueueSort plugin whose constructor or comparison raises, exits or hangs."""

from __future__ import annotations

import sys
import time

from attrs import frozen

from kubesched import hookimpl
from kubesched.api import FieldError, child, not_supported
from kubesched.framework import QueuedPodInfo

SORT_FAULTS = ("", "raise", "exit", "hang")
"""What `init` and `less` may say: behave, raise, call `sys.exit`, never return."""


def misbehave(fault: str, where: str) -> None:
    """Raise, exit or hang as `fault` says (the empty string: return)."""
    if fault == "raise":
        raise RuntimeError(f"injected fault in {where}")
    if fault == "exit":
        sys.exit(3)
    if fault == "hang":
        while True:
            time.sleep(0.01)


@frozen
class FaultySortArgs:
    """Where FaultySort misbehaves: in its constructor (`init`), comparing pods (`less`)."""

    init: str = ""
    less: str = ""

    def validate(self, path: str) -> list[FieldError]:
        return [
            not_supported(child(path, name), value, SORT_FAULTS)
            for name, value in (("init", self.init), ("less", self.less))
            if value not in SORT_FAULTS
        ]


class FaultySort:
    """Orders pods by name, unless told to misbehave."""

    name = "FaultySort"
    args_type = FaultySortArgs

    def __init__(self, args: FaultySortArgs | None, handle: object) -> None:
        self.args = args or FaultySortArgs()
        misbehave(self.args.init, "FaultySort's constructor")

    @hookimpl
    def queue_sort_less(self, pod_info_a: QueuedPodInfo, pod_info_b: QueuedPodInfo) -> bool:
        misbehave(self.args.less, "FaultySort's queue_sort_less")
        return pod_info_a.pod.metadata.name < pod_info_b.pod.metadata.name
