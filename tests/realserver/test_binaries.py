"""Which binaries the real-server tests use, and the reason they are skipped without them."""

from __future__ import annotations

import stat
from pathlib import Path

from kubesched.testing.realserver import ControlPlaneBinaries


def executable(path: Path) -> str:
    path.write_text("#!/bin/sh\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_nothing_named_is_a_reason_to_skip() -> None:
    reason = ControlPlaneBinaries.from_environment({})
    assert reason == (
        "no real control plane: set KUBESCHED_REAL_APISERVER and KUBESCHED_REAL_ETCD to binaries"
    )


def test_a_path_that_is_not_executable_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "kube-apiserver"
    env = {"KUBESCHED_REAL_APISERVER": str(missing), "KUBESCHED_REAL_ETCD": str(missing)}
    assert ControlPlaneBinaries.from_environment(env) == (
        f"KUBESCHED_REAL_APISERVER={missing} is not an executable file"
    )


def test_named_binaries_and_etcdctl_beside_etcd(tmp_path: Path) -> None:
    env = {
        "KUBESCHED_REAL_APISERVER": executable(tmp_path / "kube-apiserver"),
        "KUBESCHED_REAL_ETCD": executable(tmp_path / "etcd"),
    }
    found = ControlPlaneBinaries.from_environment(env)
    assert isinstance(found, ControlPlaneBinaries)
    assert (found.apiserver, found.etcd, found.scheduler) == (
        str(tmp_path / "kube-apiserver"),
        str(tmp_path / "etcd"),
        "",
    )
    executable(tmp_path / "etcdctl")
    assert found.etcdctl == str(tmp_path / "etcdctl")
