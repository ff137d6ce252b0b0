"""FGDScore: the FGD study's fragmentation gradient descent (Weng et al., USENIX ATC '23)
as a kubesched score plugin, with its GPU choice for pods that share a GPU."""

from kubesched_gpushare_fgd.args import FGDScoreArgs, TypicalPodSpec
from kubesched_gpushare_fgd.kernel import frag_score, score_node
from kubesched_gpushare_fgd.plugin import FGDScore

__all__ = ["FGDScore", "FGDScoreArgs", "TypicalPodSpec", "frag_score", "score_node"]
