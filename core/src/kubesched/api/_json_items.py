"""One JSON List item decoded without the fields kubesched never reads.

A cluster's dump carries much that no kind kubesched reads looks at: every
object's `metadata.managedFields` (a quarter of a real dump), its
`resourceVersion` and `generation`, a Pod's container statuses and IPs, a
Node's `nodeInfo` and addresses. msgspec reads an item against a typed layout
(`_Item`) in which those fields are `msgspec.Raw`: it checks their text is
JSON and keeps it as one slice of the text, building no Python objects for
what they hold; they are then left out of the item.

Keys given twice are found as before, by the text's key count against the
re-encoded item's (a `Raw` re-encodes as its text): the item's keys all count,
and the typed reading is kept only when the counts agree. An item whose text
holds no `\\u` escape counts its colons instead (`_colons`), which is exact there
and quicker. They disagree when a
key repeats outside the skipped fields, or when the item has a key the layout
does not name (another kind's, a newer field): the item is then read as a
whole, as it always was, and a repeated key anywhere in it is reported. A key
given twice inside a skipped field is no error: its content is never read.
An item the typed layout refuses (`metadata` that is not an object...) is read
whole too, and what is wrong with it reported where it always was.
"""

from __future__ import annotations

from typing import Any, TypedDict

from kubesched.api._text import key_count

try:  # a compiled JSON reader, with wheels for every supported Python; optional all the same
    import msgspec
except ImportError:  # pragma: no cover - exercised where the wheel is missing
    msgspec = None  # type: ignore[assignment]

KEPT_TOP = frozenset(
    {"apiVersion", "kind", "metadata", "spec", "status"}
    | {"provisioner", "parameters", "reclaimPolicy", "volumeBindingMode", "allowedTopologies"}
    | {"allowVolumeExpansion", "mountOptions"}
    | {"value", "globalDefault", "description", "preemptionPolicy"}
)
"""An item's own keys the typed layout names (what the kinds read has at its top level)."""
KEPT_METADATA = frozenset(
    {"name", "namespace", "uid", "labels", "annotations", "creationTimestamp"}
    | {"deletionTimestamp", "ownerReferences", "finalizers"}
)
"""The `metadata` keys kept: what `ObjectMeta` reads."""
SKIPPED_METADATA = frozenset(
    {"managedFields", "generateName", "selfLink", "resourceVersion", "generation"}
    | {"deletionGracePeriodSeconds"}
)
"""The `metadata` keys left out: what `ObjectMeta` never reads."""
KEPT_STATUS = frozenset(
    {"phase", "conditions", "nominatedNodeName", "startTime", "resourceClaimStatuses"}
    | {"capacity", "allocatable", "images", "accessModes", "allocation", "reservedFor"}
    | {"devices", "attached", "currentHealthy", "desiredHealthy", "disruptedPods"}
    | {"disruptionsAllowed", "expectedPods"}
)
"""The `status` keys kept: what the status of any kind read reads."""
SKIPPED_STATUS = frozenset(
    {"containerStatuses", "initContainerStatuses", "ephemeralContainerStatuses"}
    | {"podIP", "podIPs", "hostIP", "hostIPs", "qosClass", "message", "reason", "resize"}
    | {"observedGeneration", "nodeInfo", "addresses", "daemonEndpoints", "volumesInUse"}
    | {"volumesAttached", "config", "features", "runtimeHandlers", "replicas"}
    | {"availableReplicas", "readyReplicas", "fullyLabeledReplicas", "currentReplicas"}
    | {"updatedReplicas", "currentRevision", "updateRevision", "collisionCount"}
    | {"loadBalancer"}
)
"""The `status` keys left out: what no kind's status reads (a Pod's container statuses
and IPs, a Node's `nodeInfo`, addresses, volumes, a workload's replica counts...)."""


def _typed_dict(name: str, kept: frozenset[str], skipped: frozenset[str], **typed: Any) -> Any:
    """A TypedDict (no key required) whose `kept` keys are any JSON, `skipped` ones `Raw`."""
    fields: dict[str, Any] = dict.fromkeys(sorted(kept), Any)
    fields.update(dict.fromkeys(sorted(skipped), msgspec.Raw))
    fields.update(typed)
    return TypedDict(name, fields, total=False)  # type: ignore[operator]


if msgspec is not None:
    _Metadata = _typed_dict("_Metadata", KEPT_METADATA, SKIPPED_METADATA)
    _Status = _typed_dict("_Status", KEPT_STATUS, SKIPPED_STATUS)
    _Item = _typed_dict(
        "_Item", KEPT_TOP - {"metadata", "status"}, frozenset(), metadata=_Metadata, status=_Status
    )
    _DECODER = msgspec.json.Decoder(_Item)
    _ANY_DECODER = msgspec.json.Decoder()
    _ENCODER = msgspec.json.Encoder()


def read_item(piece: bytes) -> tuple[Any, bool]:
    """The item `piece` (one JSON value's UTF-8 text) decoded, skipped fields left out when
    it can be (see the module), and whether its reading holds every key the text gives
    (False when one is given twice). Raises msgspec's `DecodeError` when the text is not
    JSON."""
    count = key_count if b"\\u" in piece else _colons
    keys = count(piece)
    try:
        value = _DECODER.decode(piece)
    except msgspec.ValidationError:
        value = None
    if value is not None and count(_ENCODER.encode(value)) == keys:
        _leave_out(value.get("metadata"), SKIPPED_METADATA)
        _leave_out(value.get("status"), SKIPPED_STATUS)
        return value, True
    whole = _ANY_DECODER.decode(piece)
    return whole, count(_ENCODER.encode(whole)) == keys


def _colons(text: bytes) -> int:
    """How many `:` a JSON text holds: its keys and the colons in its strings. When the
    text spells no character as `\\u....`, each colon of a decoded string is a colon of
    the text, which msgspec writes back as it is; so the re-encoding holds as many
    unless a key (and its colon) was lost. One pass of a one-byte count, far quicker
    than `key_count`."""
    return text.count(b":")


def _leave_out(part: Any, skipped: frozenset[str]) -> None:
    """Drop the skipped fields' text from a decoded part."""
    if part:
        for key in skipped.intersection(part):
            del part[key]
