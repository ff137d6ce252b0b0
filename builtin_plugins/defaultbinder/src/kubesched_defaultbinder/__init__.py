"""The DefaultBinder plugin. Bind: binds the pod through the cluster client."""

from kubesched_defaultbinder.plugin import DefaultBinder

__all__ = ["DefaultBinder"]
