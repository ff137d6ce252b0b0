"""A distribution's sdist builds its wheel alone: unpacked away from the checkout, with no
network (hatchling from this environment), its metadata whole."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def uv_build(*args: str, cwd: Path) -> None:
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH")
    command = [uv, "build", "--no-build-isolation", "--offline", "--python", sys.executable]
    done = subprocess.run(
        [*command, *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("folder", ["builtin_plugins/nodename", "contrib/gpushare"])
def test_an_sdist_unpacked_alone_builds_a_wheel_with_its_metadata(
    tmp_path: Path, folder: str
) -> None:
    uv_build("--sdist", "--out-dir", str(tmp_path / "sdist"), str(REPO / folder), cwd=REPO)
    [sdist] = (tmp_path / "sdist").glob("*.tar.gz")
    alone = tmp_path / "alone"
    with tarfile.open(sdist) as archive:
        archive.extractall(alone, filter="data")
    [unpacked] = alone.iterdir()
    uv_build("--wheel", "--out-dir", str(tmp_path / "wheel"), ".", cwd=unpacked)
    [wheel] = (tmp_path / "wheel").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        [metadata] = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        text = archive.read(metadata).decode()
        [entry_points] = [n for n in archive.namelist() if n.endswith("entry_points.txt")]
        assert "[kubesched.plugins]" in archive.read(entry_points).decode()
    assert "Keywords: kubernetes,kubesched,kubesched-plugin,scheduler" in text
    assert "Classifier: Typing :: Typed" in text
    assert "Classifier: Framework :: kubesched" not in text
