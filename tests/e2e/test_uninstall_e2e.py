"""Built-in plugins are distributions like any other: uninstalling one only affects profiles
that ask for it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("kubesched_venv")]

ENABLES_TAINTS = """\
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    filter:
      enabled:
      - name: TaintToleration
"""


def test_uninstalled_builtin_fails_only_profiles_that_enable_it(
    kubesched_venv: Any, tmp_path: Path
) -> None:
    config = tmp_path / "taints.yaml"
    config.write_text(ENABLES_TAINTS)
    quickstart = str(REPO / "examples" / "quickstart")
    kubesched_venv.pip_uninstall("kubesched-tainttoleration")
    try:
        listed = json.loads(kubesched_venv.kubesched("plugins", "-o", "json").stdout)
        assert "TaintToleration" not in {p["name"] for p in listed["plugins"]}

        validate = kubesched_venv.kubesched("config", "validate", str(config), check=False)
        assert validate.returncode == 1
        assert (
            'FilterPlugin "TaintToleration" does not exist (it is not installed; '
            "install it with: pip install kubesched-tainttoleration)"
        ) in validate.stderr
        assert "Traceback" not in validate.stderr

        simulate = kubesched_venv.kubesched(
            "simulate", quickstart, "--config", str(config), check=False
        )
        assert simulate.returncode == validate.returncode == 1, "the same rule for both commands"
        assert "pip install kubesched-tainttoleration" in simulate.stderr
        assert "Traceback" not in simulate.stderr

        default = kubesched_venv.kubesched("simulate", quickstart, "-o", "json")
        results = json.loads(default.stdout)["results"]
        assert results and all(r["status"] != "Error" for r in results)
    finally:
        kubesched_venv.pip_install(REPO / "builtin_plugins" / "tainttoleration")
    restored = json.loads(kubesched_venv.kubesched("plugins", "-o", "json").stdout)
    assert "TaintToleration" in {p["name"] for p in restored["plugins"]}
