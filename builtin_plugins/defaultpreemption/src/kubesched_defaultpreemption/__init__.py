"""The DefaultPreemption plugin. PostFilter: evicts lower-priority pods to make room."""

from kubesched_defaultpreemption.args import DefaultPreemptionArgs
from kubesched_defaultpreemption.candidates import Candidate, choose_candidate, select_candidate
from kubesched_defaultpreemption.importance import more_important_pod
from kubesched_defaultpreemption.plugin import DefaultPreemption

__all__ = [
    "Candidate",
    "DefaultPreemption",
    "DefaultPreemptionArgs",
    "choose_candidate",
    "more_important_pod",
    "select_candidate",
]
