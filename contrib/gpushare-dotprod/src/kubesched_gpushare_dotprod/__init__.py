"""DotProductScore: the FGD study's DotProd policy (Tetris-style alignment)."""

from kubesched_gpushare_dotprod.plugin import DotProductScore, dot_product_score, dot_product_scores

__all__ = ["DotProductScore", "dot_product_score", "dot_product_scores"]
