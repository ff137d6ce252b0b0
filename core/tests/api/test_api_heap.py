"""Bulk steps keep the garbage collector out and leave it as they found it."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from kubesched.api._heap import collector_paused, frozen_heap
from kubesched.api._manifests import load_manifests


def test_collector_paused_restores_the_collector() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), collector_paused():
        raise RuntimeError
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # someone else disabled it: still disabled
    finally:
        gc.enable()


def test_frozen_heap_unfreezes_unless_frozen_before() -> None:
    with frozen_heap():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with frozen_heap():
            pass
        assert gc.get_freeze_count() == before  # not ours to unfreeze
    finally:
        gc.unfreeze()


def test_loading_manifests_pauses_the_collector(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kubesched.api._manifests as manifests

    seen: list[bool] = []
    real = manifests.documents
    monkeypatch.setattr(
        manifests, "documents", lambda *a: (seen.append(gc.isenabled()), real(*a))[1]
    )
    path = tmp_path / "n.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}))
    assert [n.name for n in load_manifests(path).nodes] == ["n"]
    assert seen == [False]
    assert gc.isenabled()
