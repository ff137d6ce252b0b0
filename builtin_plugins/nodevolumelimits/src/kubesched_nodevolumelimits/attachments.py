"""The volumes VolumeAttachment objects say are attached to each node (upstream's
getNodeVolumeAttachmentInfo).

The attach/detach controller creates a VolumeAttachment when a CSI volume is attached to a
node and deletes it once detached, so it also covers volumes whose pod is gone or not yet
there. Each counts as `<attacher>/<volume handle>` for the driver named by `attacher`: the
handle of the PersistentVolume it names (an in-tree volume's migrated handle), or of the
inline volume spec it carries. An attachment without an attacher, or whose volume is not
there or has no handle, is not counted.
"""

from __future__ import annotations

from collections.abc import Iterable

from kubesched.api import VolumeAttachment
from kubesched.framework import ClusterClient
from kubesched_nodevolumelimits.migration import TranslationError, pv_plugin


def _handle(client: ClusterClient, attachment: VolumeAttachment) -> str:
    source = attachment.spec.source
    if source.persistent_volume_name:
        volume = client.get_persistent_volume(source.persistent_volume_name)
        if volume is None:
            return ""
        if volume.spec.csi is not None:
            return volume.spec.csi.volume_handle
        plugin = pv_plugin(volume)
        try:
            return (plugin.pv_handle(volume) or "") if plugin is not None else ""
        except TranslationError:
            return ""
    inline = source.inline_volume_spec
    if inline is not None and inline.csi is not None:
        return inline.csi.volume_handle
    return ""


def attached_by_node(
    client: ClusterClient, attachments: Iterable[VolumeAttachment]
) -> dict[str, dict[str, str]]:
    """Node name -> {`driver/handle`: driver} of the volumes attached there."""
    by_node: dict[str, dict[str, str]] = {}
    for attachment in attachments:
        attacher, node = attachment.spec.attacher, attachment.spec.node_name
        if not attacher or not node:
            continue
        handle = _handle(client, attachment)
        if handle:
            by_node.setdefault(node, {})[f"{attacher}/{handle}"] = attacher
    return by_node
