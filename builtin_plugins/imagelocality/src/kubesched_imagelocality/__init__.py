"""The ImageLocality plugin. Nodes that already have the pod's images: Score."""

from kubesched_imagelocality.plugin import ImageLocality
from kubesched_imagelocality.scoring import normalized_image_name

__all__ = ["ImageLocality", "normalized_image_name"]
