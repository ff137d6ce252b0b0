"""Loading Kubernetes manifests (YAML or JSON files, directories, stdin) into objects."""

from __future__ import annotations

import uuid

_UID_NAMESPACE = uuid.UUID("6f1d3c8e-2b7a-5e4f-9a0d-1c2b3a4d5e6f")


def default_uid(kind: str, namespace: str, name: str) -> str:
    """A stable uid for an object that has none: uuid5 of `kind/namespace/name`."""
    return str(uuid.uuid5(_UID_NAMESPACE, f"{kind}/{namespace}/{name}"))
