"""BestFitScore: the FGD study's BestFit policy (the least leftover CPU and GPU)."""

from kubesched_gpushare_bestfit.plugin import BestFitScore, best_fit_score, best_fit_scores

__all__ = ["BestFitScore", "best_fit_score", "best_fit_scores"]
