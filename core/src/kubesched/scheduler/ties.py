"""How a scheduling cycle breaks a tie between the nodes with the highest total score.

`TIES_RANDOM` is upstream's rule: one of the tied nodes, uniformly at random,
drawn from the scheduler's seeded generator. `TIES_FIRST` is the rule of the
FGD study's simulator: the tied node that comes first in a random order of the
node names fixed by the seed for the whole run (the study gives every node
name a random prefix per seed and takes the first tied name), so ties keep
going to the same preferred nodes. Under a policy whose score is often tied
the two rules pack or spread pods very differently.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

TIES_RANDOM = "random"
TIES_FIRST = "first"
TIE_RULES = (TIES_RANDOM, TIES_FIRST)


def node_order(names: Iterable[str], seed: int) -> dict[str, int]:
    """Each node's place in the seed's random order of `names` (the study's name prefix)."""
    shuffled = sorted(names)
    random.Random(f"node-order/{seed}").shuffle(shuffled)
    return {name: i for i, name in enumerate(shuffled)}


def first_in_order(tied: Sequence[str], order: Mapping[str, int]) -> str:
    """The tied node first in `order`; nodes the order does not know (added after it was
    drawn) come after every known one, by name."""
    unknown = len(order)
    return min(tied, key=lambda name: (order.get(name, unknown), name))


def check_tie_rule(rule: str) -> str:
    """`rule` when it is one of TIE_RULES, else ValueError naming them."""
    if rule not in TIE_RULES:
        raise ValueError(f"tie rule {rule!r} is not one of {', '.join(TIE_RULES)}")
    return rule
