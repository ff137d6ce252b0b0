"""One object given inline (a scenario's pod or node), read as `load_manifests` reads the
objects of a manifest file."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from attrs import evolve

from kubesched.api._manifests import (
    ManifestObject,
    _identity,
    _label,
    _Place,
    _structure,
    default_uid,
)
from kubesched.api._validation import api_version_error
from kubesched.errors import InputError
from kubesched.features import DEFAULT_FEATURE_GATES, FeatureGates


def read_object(
    raw: Any,
    kind: str,
    *,
    file: str,
    obj: str | None = None,
    field_prefix: str = "",
    uid: str | None = None,
    feature_gates: FeatureGates = DEFAULT_FEATURE_GATES,
) -> ManifestObject:
    """One object of `kind` given inline (a scenario's pod or node), defaulted and validated
    as `load_manifests` does its objects; InputError naming `file`, `obj` (default: the
    object's kind and name) and the field under `field_prefix`. `uid` is used when the
    manifest has none (else a stable one from the kind and name)."""
    if not isinstance(raw, Mapping):
        raise InputError(
            f"expected a {kind} object, got {type(raw).__name__}",
            file=file,
            obj=obj,
            field=field_prefix.rstrip(".") or None,
        )
    if raw.get("kind") not in (None, kind):
        raise InputError(
            f"expected kind {kind}, got {raw.get('kind')!r}",
            file=file,
            obj=obj,
            field=f"{field_prefix}kind",
        )
    raw = {"apiVersion": "v1", **raw, "kind": kind}
    namespace, name = _identity(raw, kind)
    label = obj or _label(kind, namespace, name, field_prefix)
    if not name:
        raise InputError("missing name", file=file, obj=label, field=f"{field_prefix}metadata.name")
    version = api_version_error(kind, raw.get("apiVersion"), in_list=False)
    if version is not None:
        raise InputError(version.body, file=file, obj=label, field=f"{field_prefix}apiVersion")
    try:
        structured = _structure(raw, kind, label, _Place(file, 0), feature_gates)
    except InputError as exc:
        inner = f"{field_prefix}{exc.field}" if exc.field else field_prefix.rstrip(".") or None
        raise InputError(exc.message, file=file, obj=label, field=inner) from None
    uid = structured.metadata.uid or uid or default_uid(kind, namespace, name)
    return evolve(structured, metadata=evolve(structured.metadata, namespace=namespace, uid=uid))
