"""FaultInjection: raises, exits, hangs, returns garbage or fails where it is told to."""

from __future__ import annotations

import sys
import time
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from attrs import field, frozen

from kubesched import hookimpl
from kubesched.api import FieldError, Pod, child, invalid, not_supported
from kubesched.framework import (
    Code,
    CycleState,
    NodeInfo,
    NodeScoreList,
    PostFilterResult,
    Status,
)

ANNOTATION_PREFIX = "faults.kubesched.io/"
FAULTS = ("raise", "exit", "hang", "garbage", "error", "reject", "transient")
"""Every kind of fault."""
GARBAGE = object()
"""What a `garbage` fault returns: no hook's documented type."""


HOOKS = (
    "pre_filter",
    "filter",
    "post_filter",
    "pre_score",
    "score",
    "normalize_score",
    "reserve",
    "unreserve",
    "permit",
    "pre_bind",
    "bind",
    "post_bind",
)
"""The hooks random faults strike (PreEnqueue only by annotation)."""


@frozen
class FaultInjectionArgs:
    """Random faults: a share `rate` of pods suffer one fault each, at one hook, both drawn
    reproducibly for `seed` from `faults` and `hooks`."""

    rate: float = 0.0
    seed: int = 0
    faults: list[str] = field(factory=lambda: ["raise", "exit", "garbage", "error", "transient"])
    hooks: list[str] = field(factory=lambda: list(HOOKS))

    def validate(self, path: str) -> list[FieldError]:
        errors = []
        if not 0.0 <= self.rate <= 1.0:
            errors.append(invalid(child(path, "rate"), self.rate, "must be between 0 and 1"))
        for i, fault in enumerate(self.faults):
            if fault.partition(":")[0] not in FAULTS:
                errors.append(not_supported(f"{child(path, 'faults')}[{i}]", fault, FAULTS))
        for i, hook in enumerate(self.hooks):
            if hook not in HOOKS:
                errors.append(not_supported(f"{child(path, 'hooks')}[{i}]", hook, HOOKS))
        return errors


class FaultInjection:
    """Misbehaves at the hooks and for the pods its annotations or args say."""

    name = "FaultInjection"
    args_type = FaultInjectionArgs

    def __init__(self, args: FaultInjectionArgs | None, handle: object) -> None:
        self.args = args or FaultInjectionArgs()
        self.attempts: dict[str, int] = {}
        """Pod uid -> scheduling attempts seen (counted at PreFilter)."""
        self.reserved: dict[str, str] = {}
        """Pod uid -> the node Reserve claimed and Unreserve has not released."""

    # -- choosing and committing faults ------------------------------------------------

    def fault(self, pod: Pod, hook: str) -> str | None:
        """The fault this pod suffers at this hook, if any."""
        forced = pod.metadata.annotations.get(ANNOTATION_PREFIX + hook)
        if forced is not None:
            return forced
        args = self.args
        if args.rate <= 0 or not args.faults or not args.hooks:
            return None
        digest = zlib.crc32(f"{args.seed}/{pod.metadata.uid}".encode())
        if digest / 2**32 >= args.rate or args.hooks[digest % len(args.hooks)] != hook:
            return None
        return args.faults[(digest >> 8) % len(args.faults)]

    def commit(self, pod: Pod, hook: str) -> Any:
        """Misbehave as chosen: raise, exit, hang, or the value to return (None: behave)."""
        chosen = self.fault(pod, hook)
        if chosen is None:
            return None
        kind, _, count = chosen.partition(":")
        if kind == "raise":
            raise RuntimeError(f"injected fault at {hook}")
        if kind == "exit":
            sys.exit(3)
        if kind == "hang":
            while True:
                time.sleep(0.01)
        if kind == "garbage":
            return GARBAGE
        if kind == "error":
            return Status(Code.ERROR, f"injected error at {hook}")
        if kind == "reject":
            return Status(Code.UNSCHEDULABLE, f"injected rejection at {hook}")
        if kind == "transient" and self.attempts.get(pod.metadata.uid, 1) <= int(count or 1):
            return Status(Code.ERROR, f"injected transient error at {hook}")
        return None

    # -- the hooks -----------------------------------------------------------------------

    @hookimpl
    def pre_enqueue(self, pod: Pod) -> Any:
        if self.fault(pod, "pre_enqueue") == "transient":
            return None  # counted in attempts, which a gated pod never makes
        return self.commit(pod, "pre_enqueue")

    @hookimpl
    def pre_filter(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Any:
        self.attempts[pod.metadata.uid] = self.attempts.get(pod.metadata.uid, 0) + 1
        return self.commit(pod, "pre_filter")

    @hookimpl
    def filter(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Any:
        return self.commit(pod, "filter")

    @hookimpl
    def post_filter(
        self, state: CycleState, pod: Pod, filtered_node_status_map: Mapping[str, Status]
    ) -> PostFilterResult | Status | None:
        value = self.commit(pod, "post_filter")
        return value if value is not None else Status(Code.UNSCHEDULABLE)

    @hookimpl
    def pre_score(self, state: CycleState, pod: Pod, nodes: Sequence[NodeInfo]) -> Any:
        return self.commit(pod, "pre_score")

    @hookimpl
    def score(self, state: CycleState, pod: Pod, node_info: NodeInfo) -> Any:
        value = self.commit(pod, "score")
        return 0 if value is None else value

    @hookimpl
    def normalize_score(self, state: CycleState, pod: Pod, scores: NodeScoreList) -> Any:
        return self.commit(pod, "normalize_score")

    @hookimpl
    def reserve(self, state: CycleState, pod: Pod, node_name: str) -> Any:
        self.reserved[pod.metadata.uid] = node_name
        return self.commit(pod, "reserve")

    @hookimpl
    def unreserve(self, state: CycleState, pod: Pod, node_name: str) -> None:
        self.reserved.pop(pod.metadata.uid, None)
        self.commit(pod, "unreserve")

    @hookimpl
    def permit(self, state: CycleState, pod: Pod, node_name: str) -> Any:
        return self.commit(pod, "permit")

    @hookimpl
    def pre_bind(self, state: CycleState, pod: Pod, node_name: str) -> Any:
        return self.commit(pod, "pre_bind")

    @hookimpl
    def bind(self, state: CycleState, pod: Pod, node_name: str) -> Any:
        value = self.commit(pod, "bind")
        return value if value is not None else Status(Code.SKIP)

    @hookimpl
    def post_bind(self, state: CycleState, pod: Pod, node_name: str) -> None:
        self.commit(pod, "post_bind")
