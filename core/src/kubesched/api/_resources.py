"""Resource names and resource lists (quantities already parsed to integers).

CPU is kept in millicores, every other resource in its base unit (bytes for
memory and storage, a count for pods and extended resources).
"""

from __future__ import annotations

from functools import lru_cache

CPU = "cpu"
MEMORY = "memory"
EPHEMERAL_STORAGE = "ephemeral-storage"
PODS = "pods"

ResourceList = dict[str, int]
"""Resource name -> integer amount (CPU in millicores)."""


def is_milli_resource(name: str) -> bool:
    """CPU is the one resource counted in thousandths of a unit."""
    return name == CPU


def is_extended_resource_name(name: str) -> bool:
    """Upstream's IsExtendedResourceName: a domain-qualified name outside kubernetes.io/.

    Names prefixed `requests.` are quota names, not resources.
    """
    native = "/" not in name or "kubernetes.io/" in name
    return not native and not name.startswith("requests.")


@lru_cache(maxsize=4096)
def is_integer_resource_name(name: str) -> bool:
    """Upstream's IsIntegerResourceName: pods and extended resources, counted whole."""
    return name == PODS or is_extended_resource_name(name)


def is_hugepage_resource_name(name: str) -> bool:
    """`hugepages-<size>` resources."""
    return name.startswith("hugepages-")


def is_scalar_resource_name(name: str) -> bool:
    """Upstream's IsScalarResourceName: extended, hugepages, prefixed native or attachable
    volumes."""
    return (
        is_extended_resource_name(name)
        or is_hugepage_resource_name(name)
        or "kubernetes.io/" in name
        or name.startswith("attachable-volumes-")
    )
