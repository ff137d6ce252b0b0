"""Coscheduling: gang scheduling by pod-group label and minimum-size annotation."""

from kubesched_coscheduling.args import CoschedulingArgs
from kubesched_coscheduling.groups import MIN_AVAILABLE_ANNOTATION, POD_GROUP_LABEL, PodGroup
from kubesched_coscheduling.plugin import Coscheduling

__all__ = [
    "MIN_AVAILABLE_ANNOTATION",
    "POD_GROUP_LABEL",
    "Coscheduling",
    "CoschedulingArgs",
    "PodGroup",
]
