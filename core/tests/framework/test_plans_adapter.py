"""A hookimpl taking any subset of its spec's arguments, in any order, gets exactly those."""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

import pytest

from kubesched.framework._plans import positional_adapter

SPEC = ("state", "pod", "node_info", "extra")


class _Impl:
    """The two attributes of a pluggy HookImpl the adapter reads."""

    def __init__(self, argnames: tuple[str, ...]) -> None:
        self.argnames = argnames

        def function(*args: Any) -> tuple[Any, ...]:
            return args

        self.function = function


@pytest.mark.parametrize(
    "wanted",
    [
        order
        for k in range(len(SPEC) + 1)
        for c in combinations(SPEC, k)
        for order in permutations(c)
    ],
)
def test_the_adapter_passes_the_wanted_arguments_in_the_wanted_order(
    wanted: tuple[str, ...],
) -> None:
    adapted = positional_adapter(_Impl(wanted), SPEC)  # type: ignore[arg-type]
    values = {name: f"<{name}>" for name in SPEC}
    assert adapted(*(values[name] for name in SPEC)) == tuple(values[n] for n in wanted)


def test_a_hookimpl_taking_every_argument_in_order_is_called_directly() -> None:
    impl = _Impl(SPEC)
    assert positional_adapter(impl, SPEC) is impl.function  # type: ignore[arg-type]
