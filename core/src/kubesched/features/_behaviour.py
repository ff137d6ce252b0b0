"""The gates whose value changes what kubesched does, and what each changes."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

POD_LEVEL_RESOURCES = "PodLevelResources"
TAINT_TOLERATION_COMPARISON_OPERATORS = "TaintTolerationComparisonOperators"

BEHAVIOUR: Mapping[str, str] = MappingProxyType(
    {
        POD_LEVEL_RESOURCES: "pod-level spec.resources count in the pod's requests "
        "(filter, score, preemption, node summary); off: ignored",
        TAINT_TOLERATION_COMPARISON_OPERATORS: "tolerations may use the Gt and Lt operators "
        "(numeric taint values); off: manifests using them are refused",
        "DRAAdminAccess": "DynamicResources: adminAccess requests may take allocated devices; "
        "off: ignored",
        "DRAPrioritizedList": "DynamicResources: firstAvailable subrequests; off: a claim "
        "using them is unschedulable",
        "DRADeviceTaints": "DynamicResources: untolerated NoSchedule/NoExecute device taints "
        "keep devices from claims; off: taints ignored",
        "DRAPartitionableDevices": "DynamicResources: devices' consumesCounters are limited "
        "by their pool's sharedCounters; off: ignored",
        "DRAConsumableCapacity": "DynamicResources: devices with allowMultipleAllocations are "
        "shared, each request taking a share of their capacity; distinctAttribute constraints; "
        "off: capacity requests are an error, devices are not shared",
        "DRADeviceBindingConditions": "DynamicResources: devices with bindingConditions may be "
        "allocated (their pools last) and PreBind needs the conditions True; off: such devices "
        "are not allocated",
        "DRASchedulerFilterTimeout": "DynamicResources: filterTimeout bounds the allocator's "
        "search per node; off: no limit",
    }
)
"""Gate name -> what it changes in kubesched; every other gate is accepted with no effect."""
