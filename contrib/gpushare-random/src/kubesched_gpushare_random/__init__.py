"""RandomScore: one feasible node, drawn at random, gets the maximum score (the FGD study's
Random policy)."""

from kubesched_gpushare_random.plugin import RandomScore

__all__ = ["RandomScore"]
