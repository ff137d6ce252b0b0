"""Status and Code: what every extension point returns, with upstream's semantics.

A hook may return `None` for Success (upstream's nil *Status), so the common
case costs nothing.
"""

from __future__ import annotations

import enum


class Code(enum.IntEnum):
    """Upstream's status codes, in upstream's order."""

    SUCCESS = 0
    ERROR = 1
    UNSCHEDULABLE = 2
    UNSCHEDULABLE_AND_UNRESOLVABLE = 3
    WAIT = 4
    SKIP = 5
    PENDING = 6

    def __str__(self) -> str:
        return _CODE_NAMES[self]


_CODE_NAMES = {
    Code.SUCCESS: "Success",
    Code.ERROR: "Error",
    Code.UNSCHEDULABLE: "Unschedulable",
    Code.UNSCHEDULABLE_AND_UNRESOLVABLE: "UnschedulableAndUnresolvable",
    Code.WAIT: "Wait",
    Code.SKIP: "Skip",
    Code.PENDING: "Pending",
}

_REJECTED = frozenset({Code.UNSCHEDULABLE, Code.UNSCHEDULABLE_AND_UNRESOLVABLE, Code.PENDING})


class Status:
    """A result: a code, reasons, the plugin that produced it and an optional error."""

    __slots__ = ("code", "err", "plugin", "reasons")

    def __init__(
        self,
        code: Code = Code.SUCCESS,
        *reasons: str,
        plugin: str = "",
        err: BaseException | None = None,
    ) -> None:
        self.code = code
        self.reasons: tuple[str, ...] = reasons
        self.plugin = plugin
        self.err = err

    @classmethod
    def error(cls, err: BaseException | str, *, plugin: str = "") -> Status:
        """An Error status from an exception or a message (upstream's AsStatus)."""
        exc = err if isinstance(err, BaseException) else RuntimeError(err)
        return cls(Code.ERROR, str(exc), plugin=plugin, err=exc)

    def is_success(self) -> bool:
        return self.code == Code.SUCCESS

    def is_skip(self) -> bool:
        return self.code == Code.SKIP

    def is_wait(self) -> bool:
        return self.code == Code.WAIT

    def is_rejected(self) -> bool:
        """Unschedulable, UnschedulableAndUnresolvable or Pending."""
        return self.code in _REJECTED

    @property
    def message(self) -> str:
        """The reasons joined with ", " (upstream's Status.Message)."""
        return ", ".join(self.reasons)

    def with_plugin(self, plugin: str) -> Status:
        """Set the failing plugin (the framework does this) and return self."""
        self.plugin = plugin
        return self

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Status):
            return NotImplemented
        return (self.code, self.reasons, self.plugin) == (other.code, other.reasons, other.plugin)

    def __hash__(self) -> int:
        return hash((self.code, self.reasons, self.plugin))

    def __repr__(self) -> str:
        plugin = f", plugin={self.plugin!r}" if self.plugin else ""
        return f"Status({self.code!s}, {list(self.reasons)!r}{plugin})"


def code_of(status: Status | None) -> Code:
    """The code of a possibly-None status (None is Success)."""
    return Code.SUCCESS if status is None else status.code


def is_success(status: Status | None) -> bool:
    """True for None or a Success status."""
    return status is None or status.code == Code.SUCCESS
