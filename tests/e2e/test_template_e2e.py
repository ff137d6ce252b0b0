"""From nothing to an installed, tested, discoverable plugin, the way an author does it.

`kubesched new-plugin` renders two projects (the default Score example and one with every
point the template offers); one fresh venv gets core, the built-in plugins, the `kubesched`
meta-distribution (the projects' `test` extra needs it) and both projects from a single
`pip install`; the generated tests pass there, and `kubesched plugins` lists both
plugins as out-of-tree; and the profile the generated README shows changes where
`kubesched simulate` places pods.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from kubesched.cli.new_plugin import POINTS
from kubesched.framework import EXTENSION_POINTS

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("template_e2e")]

REPO = Path(__file__).resolve().parents[2]
BUILTINS = sorted(
    p for p in (REPO / "builtin_plugins").iterdir() if (p / "pyproject.toml").is_file()
)
PLUGINS = {"NodeLabelScore": ("score",), "TierGate": POINTS}
"""Plugin name -> the points rendered for it."""
CLUSTER = textwrap.dedent(
    """
    apiVersion: v1
    kind: Node
    metadata: {name: node-a, labels: {example.com/tier: bronze}}
    status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
    ---
    apiVersion: v1
    kind: Node
    metadata: {name: node-b, labels: {example.com/tier: gold}}
    status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
    ---
    apiVersion: v1
    kind: Node
    metadata: {name: node-c}
    status: {allocatable: {cpu: "4", memory: 16Gi, pods: "110"}}
    ---
    apiVersion: v1
    kind: Pod
    metadata: {name: web-1, namespace: shop}
    spec: {containers: [{name: web, image: nginx, resources: {requests: {cpu: 500m}}}]}
    ---
    apiVersion: v1
    kind: Pod
    metadata: {name: web-2, namespace: shop}
    spec: {containers: [{name: web, image: nginx, resources: {requests: {cpu: 500m}}}]}
    """
)
"""Three empty nodes (bronze, gold, unlabelled) and two pending pods."""


class Sandbox:
    """A folder with the rendered projects and a fresh venv; runs commands in that venv."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.bin = root / "venv" / "bin"
        cookiecutter_config = root / "cookiecutter.yaml"
        cookiecutter_config.write_text(
            f"replay_dir: {root / 'replay'}\ncookiecutters_dir: {root / 'cookiecutters'}\n"
        )
        self.env = {
            **os.environ,
            "PATH": f"{self.bin}{os.pathsep}{os.environ['PATH']}",
            "COOKIECUTTER_CONFIG": str(cookiecutter_config),
        }
        self.env.pop("VIRTUAL_ENV", None)

    def run(self, *args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [str(a) for a in args],
            cwd=cwd or self.root,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        command = " ".join(map(str, args))
        output = f"{result.stdout}\n{result.stderr}"
        assert result.returncode == 0, f"{command} exited {result.returncode}\n{output}"
        return result

    def project(self, plugin: str) -> Path:
        return self.root / f"kubesched-{plugin.lower()}"


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Sandbox:
    """Render with this checkout's command, then one venv and one pip install for everything."""
    box = Sandbox(tmp_path_factory.mktemp("template-e2e"))
    new_plugin = Path(sys.executable).with_name("kubesched")
    for plugin, points in PLUGINS.items():
        point_options = [arg for p in points for arg in ("--point", p)]
        box.run(new_plugin, "new-plugin", plugin, "--no-input", *point_options)
    box.run(sys.executable, "-m", "venv", box.root / "venv")
    projects = [f"{box.project(plugin)}[test]" for plugin in PLUGINS]
    # REPO: the `kubesched` meta-distribution, which the projects' `test` extra needs
    distributions = [f"{REPO / 'core'}[new-plugin]", *BUILTINS, REPO]
    box.run(box.bin / "python", "-m", "pip", "install", "--quiet", *distributions, *projects)
    return box


@pytest.mark.parametrize("plugin", list(PLUGINS))
def test_the_generated_tests_pass_in_a_fresh_venv(sandbox: Sandbox, plugin: str) -> None:
    result = sandbox.run(
        sandbox.bin / "python",
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        cwd=sandbox.project(plugin),
    )
    summary = result.stdout.strip().splitlines()[-1]
    assert re.fullmatch(r"=+ \d+ passed in [\d.]+s =+", summary), result.stdout


def test_kubesched_plugins_lists_them_as_out_of_tree(sandbox: Sandbox) -> None:
    listing = json.loads(
        sandbox.run(sandbox.bin / "kubesched", "plugins", "--output", "json").stdout
    )
    records: dict[str, dict[str, Any]] = {r["name"]: r for r in listing["plugins"]}
    for plugin, points in PLUGINS.items():
        wanted = {p.replace("_", "").lower() for p in points}
        expected_points = [p.title for p in EXTENSION_POINTS if p.name.lower() in wanted]
        assert records[plugin] == {
            "name": plugin,
            "distribution": f"kubesched-{plugin.lower()}",
            "version": "0.1.0",
            "source": "out-of-tree",
            "extensionPoints": expected_points,
            "batchHooks": [],
            "loaded": True,
            "error": None,
            "deprecatedHooks": [],
        }
    in_tree = {name for name, r in records.items() if r["source"] == "in-tree"}
    assert in_tree and not in_tree & set(PLUGINS)


def test_the_generated_distributions_carry_the_plugin_keyword(sandbox: Sandbox) -> None:
    names = [f"kubesched-{plugin.lower()}" for plugin in PLUGINS]
    script = (
        "import importlib.metadata as md, json, sys; "
        "print(json.dumps([(md.distribution(n).metadata.get_all('Classifier'), "
        "md.distribution(n).metadata['Keywords']) for n in sys.argv[1:]]))"
    )
    found = json.loads(sandbox.run(sandbox.bin / "python", "-c", script, *names).stdout)
    for classifiers, keywords in found:
        assert classifiers == [
            "Programming Language :: Python :: 3",
            "Topic :: System :: Clustering",
            "Typing :: Typed",
        ]
        assert keywords == "kubernetes,kubesched,kubesched-plugin,plugin,scheduler"


def test_the_readme_profile_moves_pods_to_the_preferred_node(sandbox: Sandbox) -> None:
    readme = (sandbox.project("NodeLabelScore") / "README.md").read_text()
    (sandbox.root / "config.yaml").write_text(readme.split("```yaml\n", 1)[1].split("```", 1)[0])
    (sandbox.root / "cluster.yaml").write_text(CLUSTER)
    kubesched = sandbox.bin / "kubesched"
    sandbox.run(kubesched, "config", "validate", "config.yaml")

    def simulate(*options: str) -> dict[str, Any]:
        out = sandbox.run(kubesched, "simulate", "cluster.yaml", "-o", "json", *options).stdout
        result: dict[str, Any] = json.loads(out)
        return result

    default = {r["pod"]: r["node"] for r in simulate()["results"]}
    assert default["shop/web-1"] != default["shop/web-2"]  # the default profile spreads them
    with_plugin = simulate("--config", "config.yaml", "--explain")["results"]
    assert {r["pod"]: r["node"] for r in with_plugin} == {
        "shop/web-1": "node-b",
        "shop/web-2": "node-b",
    }
    scores = {node: e["scores"]["NodeLabelScore"] for node, e in with_plugin[0]["nodes"].items()}
    assert scores == {
        "node-a": {"normalized": 33, "weighted": 66},
        "node-b": {"normalized": 100, "weighted": 200},
        "node-c": {"normalized": 0, "weighted": 0},
    }


def test_an_installed_core_renders_from_its_packaged_template(sandbox: Sandbox) -> None:
    sandbox.run(
        sandbox.bin / "kubesched",
        "new-plugin",
        "Packaged",
        "--no-input",
        "--output-dir",
        sandbox.root / "pkg",
    )
    assert (sandbox.root / "pkg" / "kubesched-packaged" / "pyproject.toml").is_file()
