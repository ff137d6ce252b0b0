"""The VolumeBinding plugin. PreFilter, Filter, Reserve/Unreserve, PreBind: claims bound or
provisioned where the pod goes."""

from kubesched_volumebinding.args import VolumeBindingArgs
from kubesched_volumebinding.plugin import VolumeBinding

__all__ = ["VolumeBinding", "VolumeBindingArgs"]
