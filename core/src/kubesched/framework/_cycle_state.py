"""CycleState: per-scheduling-attempt storage plugins share between extension points."""

from __future__ import annotations

from typing import Protocol, TypeVar

from kubesched.errors import KubeschedError


class StateData(Protocol):
    """What a plugin stores in the CycleState; it must know how to copy itself."""

    def clone(self) -> StateData: ...


T = TypeVar("T", bound=StateData)


class StateNotFoundError(KubeschedError, KeyError):
    """Reading a key nobody wrote (upstream's ErrNotFound)."""


class CycleState:
    """A key -> StateData map for one scheduling attempt, plus the framework's skip sets.

    Preemption and nominated-pod evaluation work on `clone()`s, so plugins'
    writes during a dry run never leak into the real cycle.
    """

    __slots__ = ("_storage", "record_plugin_metrics", "skip_filter_plugins", "skip_score_plugins")

    def __init__(self) -> None:
        self._storage: dict[str, StateData] = {}
        self.skip_filter_plugins: set[str] = set()
        self.skip_score_plugins: set[str] = set()
        self.record_plugin_metrics = False

    def read(self, key: str) -> StateData:
        try:
            return self._storage[key]
        except KeyError:
            raise StateNotFoundError(f"{key!r} not found in the cycle state") from None

    def read_as(self, key: str, kind: type[T]) -> T:
        """Read and check the type, for plugins that want a typed value back."""
        value = self.read(key)
        if not isinstance(value, kind):
            raise TypeError(
                f"cycle state {key!r} holds {type(value).__name__}, not {kind.__name__}"
            )
        return value

    def write(self, key: str, value: StateData) -> None:
        self._storage[key] = value

    def delete(self, key: str) -> None:
        self._storage.pop(key, None)

    def __contains__(self, key: str) -> bool:
        return key in self._storage

    def clone(self) -> CycleState:
        """A deep-enough copy: every stored value is cloned."""
        copy = CycleState()
        copy._storage = {k: v.clone() for k, v in self._storage.items()}
        copy.skip_filter_plugins = set(self.skip_filter_plugins)
        copy.skip_score_plugins = set(self.skip_score_plugins)
        copy.record_plugin_metrics = self.record_plugin_metrics
        return copy
