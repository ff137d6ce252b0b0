"""GpuClusteringScore: the FGD study's GpuClustering policy (pods of one GPU class together)."""

from kubesched_gpushare_clustering.plugin import GpuClusteringScore, clustering_score, gpu_class

__all__ = ["GpuClusteringScore", "clustering_score", "gpu_class"]
