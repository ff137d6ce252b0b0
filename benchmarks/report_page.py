"""The HTML report of a large simulation: its size, and how fast a browser shows and searches it.

The cluster is SimulateCLI's SchedulingBasic shape (simulate_cli.py: 5,000 nodes,
1,000 running pods, 10,000 pending ones). `kubesched simulate --html` runs on it,
with `--explain-pod` for one pod (an explanation of all 5,000 nodes); the page is
then opened in headless Chromium (Debian's /usr/bin/chromium through Playwright):

- `html_bytes`: the report's size; `render_seconds`: rendering it from the document;
- `first_paint_ms`: the browser's first-contentful-paint after navigation;
- `tables_built_seconds`: navigation until the pod table shows its first page;
- `search_seconds`: typing a pod's name until the table shows that pod alone;
- `explain_seconds`: clicking it until its 5,000-node explanation table shows.

    uv run python benchmarks/report_page.py            # 5,000 nodes, 10,000 pods
    uv run python benchmarks/report_page.py --quick    # 100 nodes, 200 pods

Prints JSON and writes it to benchmarks/results/report_page.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import simulate_cli

from kubesched.report import render_html

RESULTS = Path(__file__).parent / "results" / "report_page.json"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def simulate(manifest: Path, explained: str) -> dict[str, Any]:
    command = [sys.executable, "-c", "import sys; from kubesched.cli import main; sys.exit(main())"]
    done = subprocess.run(
        [*command, "simulate", str(manifest), "-o", "json", "--explain-pod", explained],
        capture_output=True,
        text=True,
        check=True,
    )
    document: dict[str, Any] = json.loads(done.stdout)
    return document


def measure(page_path: Path, pod: str, pods: int) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        start = time.perf_counter()
        page.goto(page_path.as_uri())
        page.wait_for_selector("#pod-table .tabulator-row")
        built = time.perf_counter() - start
        paint = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
        start = time.perf_counter()
        page.fill("#pod-search", pod)
        page.wait_for_function(
            "t => document.getElementById('pod-count').textContent === t",
            arg=f"1 of {pods} pods",
        )
        searched = time.perf_counter() - start
        start = time.perf_counter()
        page.click("#pod-table .tabulator-row >> nth=0")
        page.wait_for_selector("#explain-table .tabulator-row")
        explained = time.perf_counter() - start
        browser.close()
    return {
        "first_paint_ms": round(paint),
        "tables_built_seconds": round(built, 2),
        "search_seconds": round(searched, 2),
        "explain_seconds": round(explained, 2),
    }


def run(workload: simulate_cli.Workload, folder: Path) -> dict[str, Any]:
    manifest = folder / "cluster.json"
    manifest.write_text(json.dumps(simulate_cli.manifest(workload, pending=True)))
    pod = f"default/pod-{workload.pending_pods - 1}"
    document = simulate(manifest, pod)
    start = time.perf_counter()
    html = render_html(document)
    rendered = time.perf_counter() - start
    page_path = folder / "report.html"
    page_path.write_text(html, encoding="utf-8")
    return {
        "name": workload.name,
        "nodes": workload.nodes,
        "pending_pods": workload.pending_pods,
        "html_bytes": page_path.stat().st_size,
        "render_seconds": round(rendered, 2),
        **measure(page_path, pod, len(document["results"])),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small workload, for CI")
    parser.add_argument("--output", type=Path, default=RESULTS, help="where to write the JSON")
    args = parser.parse_args(argv)
    workloads = simulate_cli.QUICK if args.quick else simulate_cli.FULL[1:]
    with tempfile.TemporaryDirectory() as tmp:
        results = [run(w, Path(tmp)) for w in workloads]
    report = {
        "benchmark": "report_page",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "workloads": results,
    }
    text = json.dumps(report, indent=2)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text + "\n")
    print(text)
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
