"""The DynamicResources plugin: ResourceClaims allocated by upstream's structured-parameters
allocator (CEL device selectors) where the pod goes. PreEnqueue, PreFilter, Filter,
PostFilter, Reserve/Unreserve, PreBind."""

from kubesched_dynamicresources.args import DynamicResourcesArgs
from kubesched_dynamicresources.plugin import IMPLEMENTED_GATES, DynamicResources

__all__ = ["IMPLEMENTED_GATES", "DynamicResources", "DynamicResourcesArgs"]
