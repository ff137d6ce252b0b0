"""Pods with PersistentVolumeClaims under a profile without VolumeBinding are warned about."""

from __future__ import annotations

from kubesched.framework._profile import EffectiveProfile
from kubesched.profile import unchecked_features
from kubesched.testing import make_pod


def test_claims_without_volume_binding_are_warned_about() -> None:
    pods = [make_pod("db-0").namespace("data").pvc("data-db-0").obj(), make_pod("web").obj()]
    without = {"default-scheduler": EffectiveProfile("default-scheduler", plugins={})}
    (warning,) = unchecked_features(pods, without)
    assert warning.startswith(
        '1 pod uses PersistentVolumeClaims, which profile "default-scheduler" does not check '
        "(VolumeBinding is not enabled at filter)"
    )
    assert warning.endswith(": data/db-0")
    with_binding = {
        "default-scheduler": EffectiveProfile(
            "default-scheduler", plugins={"filter": ("VolumeBinding",)}
        )
    }
    assert unchecked_features(pods, with_binding) == []
