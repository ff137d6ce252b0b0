"""What GpuShare and the policy plugins share in a cycle: the pod's request and the
devices a policy picked.

A policy that picks devices itself (Random, FGD) writes a `DeviceChoice`
under `DEVICE_CHOICE_KEY` in Score; GpuShare's Reserve uses it for the chosen
node when it still fits, and its own "best" pick otherwise.
"""

from __future__ import annotations

from attrs import define, frozen

from kubesched.api import Pod
from kubesched.framework import CycleState
from kubesched_gpushare.resources import GpuRequest, GpuRequestError, gpu_request

REQUEST_KEY = "PreFilterGpuShare"
DEVICE_CHOICE_KEY = "GpuShare/deviceChoice"


@frozen
class RequestState:
    request: GpuRequest

    def clone(self) -> RequestState:
        return self


@define
class DeviceChoice:
    """Node name -> the devices a policy would give the pod there."""

    by_node: dict[str, tuple[int, ...]]

    def clone(self) -> DeviceChoice:
        return DeviceChoice(dict(self.by_node))


def request_of(state: CycleState, pod: Pod) -> GpuRequest:
    """The request PreFilter stored, or read from the pod (GpuRequestError when unreadable)."""
    if REQUEST_KEY in state:
        return state.read_as(REQUEST_KEY, RequestState).request
    return gpu_request(pod)


def choose(state: CycleState, node_name: str, devices: tuple[int, ...]) -> None:
    """Record the devices a policy picked on `node_name`."""
    if DEVICE_CHOICE_KEY not in state:
        state.write(DEVICE_CHOICE_KEY, DeviceChoice({}))
    state.read_as(DEVICE_CHOICE_KEY, DeviceChoice).by_node[node_name] = devices


def choose_many(state: CycleState, by_node: dict[str, tuple[int, ...]]) -> None:
    """Record a policy's picks on many nodes at once."""
    if DEVICE_CHOICE_KEY not in state:
        state.write(DEVICE_CHOICE_KEY, DeviceChoice(by_node))
        return
    state.read_as(DEVICE_CHOICE_KEY, DeviceChoice).by_node.update(by_node)


def chosen(state: CycleState, node_name: str) -> tuple[int, ...] | None:
    if DEVICE_CHOICE_KEY not in state:
        return None
    return state.read_as(DEVICE_CHOICE_KEY, DeviceChoice).by_node.get(node_name)


__all__ = ["GpuRequestError", "choose", "choose_many", "chosen", "request_of"]
