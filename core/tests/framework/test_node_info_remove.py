"""NodeInfo.remove_pod: the pod with that uid leaves, wherever it is in the list."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kubesched.api import CPU
from kubesched.framework._types import NodeInfo
from kubesched.testing import make_node, make_pod


@given(st.integers(min_value=0, max_value=12), st.data())
def test_removing_any_pod_keeps_the_others_in_order(count: int, data: st.DataObject) -> None:
    pods = [make_pod(f"p{i}").req(cpu=f"{i + 1}m").obj() for i in range(count)]
    info = NodeInfo(make_node("n").obj())
    for pod in pods:
        info.add_pod(pod)
    gone = data.draw(st.lists(st.integers(min_value=0, max_value=count), unique=True))
    kept = list(range(count))
    for i in gone:
        missing = make_pod(f"p{i}").obj()
        assert info.remove_pod(missing) == (i < count)
        if i < count:
            kept.remove(i)
        assert info.remove_pod(missing) is False
    assert [p.pod.metadata.name for p in info.pods] == [f"p{i}" for i in kept]
    assert info.requested.get(CPU, 0) == sum(i + 1 for i in kept)
