"""A 5,000-node, 10,000-pod result stays usable: the page paints, builds its tables, and
finds a pod among 10,000 within seconds (generous bounds: the machine is shared)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from kubesched.report import render_html

NODES = 5_000
PODS = 10_000
MESSAGE = (
    "0/5000 nodes are available: 5000 Insufficient cpu. preemption: 0/5000 nodes are "
    "available: 5000 No preemption victims found for incoming pod."
)


def large_document() -> dict[str, Any]:
    """SchedulingBasic's shape: nodes of 4 CPUs, 32 GiB, 110 pods; every 10th pod failed."""
    results = []
    for i in range(PODS):
        failed = i % 10 == 9
        results.append(
            {
                "pod": f"default/pod-{i}",
                "profile": "default-scheduler",
                "node": None if failed else f"scheduler-perf-{i % NODES}",
                "status": "Unschedulable" if failed else "Scheduled",
                "message": MESSAGE if failed else "",
                "attempts": 1,
                "nominatedNode": None,
                "victims": [],
                "preemptedBy": None,
                "stoppedTrying": None,
                "volumes": {},
            }
        )
    nodes = [
        {
            "name": f"scheduler-perf-{i}",
            "cpu": {"requestedMillicores": 100 * (i % 41), "allocatableMillicores": 4000},
            "memory": {"requestedBytes": (500 << 20) * (i % 41), "allocatableBytes": 32 << 30},
            "pods": {"count": i % 41, "allocatable": 110},
            "extendedResources": {},
        }
        for i in range(NODES)
    ]
    unschedulable = sum(1 for r in results if r["status"] == "Unschedulable")
    summary = {
        "scheduled": PODS - unschedulable, "unschedulable": unschedulable, "errors": 0,
        "preempted": 0, "deleted": 0, "otherSchedulers": 0, "simulatedSeconds": 0.0,
        "nodes": nodes,
    }  # fmt: skip
    return {
        "apiVersion": "kubesched.io/v1alpha1",
        "kind": "SimulationResult",
        "results": results,
        "summary": summary,
        "warnings": [],
    }


def test_a_large_result_opens_and_searches_quickly(page: Any, tmp_path: Path) -> None:
    path = tmp_path / "large.html"
    path.write_text(render_html(large_document()), encoding="utf-8")
    size = path.stat().st_size
    assert size < 8 * 1024 * 1024  # about 4 MiB; mailable

    start = time.perf_counter()
    page.goto(path.as_uri())
    page.wait_for_selector("#pod-table .tabulator-row")
    built = time.perf_counter() - start
    paint = page.evaluate(
        "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null"
    )
    assert paint is not None
    assert page.text_content("#pod-count") == f"{PODS} pods"
    assert page.locator("#pod-table .tabulator-row").count() == 25  # one page of rows

    start = time.perf_counter()
    page.fill("#pod-search", "pod-9999")
    page.wait_for_function("document.getElementById('pod-count').textContent === '1 of 10000 pods'")
    searched = time.perf_counter() - start
    found = page.text_content("#pod-table .tabulator-row [tabulator-field=pod]")
    assert found == "default/pod-9999"

    page.fill("#node-search", "scheduler-perf-4999")
    page.wait_for_function(
        "document.getElementById('node-count').textContent === '1 of 5000 nodes'"
    )
    print(
        f"\nlarge report: {size / 1024 / 1024:.1f} MiB, first paint {paint:.0f} ms, "
        f"tables built {built:.2f} s, search {searched:.2f} s"
    )
    assert built < 30
    assert searched < 10  # 120 ms of debounce plus one pass over 10,000 rows
