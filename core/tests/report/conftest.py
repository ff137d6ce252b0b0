"""Result documents for the report's tests: a small one whose text tries to break the page."""

from __future__ import annotations

from typing import Any

import pytest

HOSTILE_POD = "default/<script>alert(\"pod\")</script>'quoted'"
HOSTILE_NODE = 'node-<img src=x onerror="alert(1)">'
HOSTILE_REASON = "Insufficient <b>cpu</b> & \u2028 </script><!--"


def node_summary(name: str, cpu: int, alloc: int) -> dict[str, Any]:
    return {
        "name": name,
        "cpu": {"requestedMillicores": cpu, "allocatableMillicores": alloc},
        "memory": {"requestedBytes": 1 << 30, "allocatableBytes": 8 << 30},
        "pods": {"count": 1, "allocatable": 110},
        "extendedResources": {"nvidia.com/gpu": {"requested": 1, "allocatable": 2}},
    }


@pytest.fixture
def hostile_document() -> dict[str, Any]:
    """A SimulationResult (valid against its schema) with markup in every free-text field."""
    explanation = {
        HOSTILE_NODE: {
            "filter": {"code": "Success", "plugin": None, "reasons": []},
            "scores": {"NodeResourcesFit": {"normalized": 71, "weighted": 71}},
            "total": 71,
            "extenders": {},
        },
        "plain": {
            "filter": {
                "code": "Unschedulable",
                "plugin": "NodeResourcesFit",
                "reasons": [HOSTILE_REASON],
            },
            "scores": {},
            "total": None,
            "extenders": {},
        },
    }
    return {
        "apiVersion": "kubesched.io/v1alpha1",
        "kind": "SimulationResult",
        "results": [
            {
                "pod": HOSTILE_POD,
                "profile": "prof\"ile'<i>",
                "node": HOSTILE_NODE,
                "status": "Scheduled",
                "message": "",
                "attempts": 1,
                "nominatedNode": None,
                "victims": [],
                "preemptedBy": None,
                "stoppedTrying": None,
                "volumes": {},
                "nodes": explanation,
                "preemption": None,
            },
            {
                "pod": "default/plain",
                "profile": "default-scheduler",
                "node": None,
                "status": "Unschedulable",
                "message": f"0/2 nodes are available: 2 {HOSTILE_REASON}. preemption: x",
                "attempts": 1,
                "nominatedNode": None,
                "victims": [],
                "preemptedBy": None,
                "stoppedTrying": None,
                "volumes": {},
            },
        ],
        "summary": {
            "scheduled": 1,
            "unschedulable": 1,
            "errors": 0,
            "preempted": 0,
            "deleted": 0,
            "otherSchedulers": 0,
            "simulatedSeconds": 0.0,
            "nodes": [node_summary(HOSTILE_NODE, 500, 4000), node_summary("plain", 0, 2000)],
        },
        "warnings": [f"pod {HOSTILE_POD}: <script>warning</script>"],
    }
