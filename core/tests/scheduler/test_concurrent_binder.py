"""The concurrent binder: at most `limit` binding cycles in flight, finished ones handed back
in the order they started, and the scheduling loop woken when one ends."""

from __future__ import annotations

import threading

from kubesched.scheduler.binder import ConcurrentBinder


def test_at_most_limit_in_flight_and_a_new_one_waits_for_a_free_slot() -> None:
    release = [threading.Event() for _ in range(3)]
    woken = threading.Event()
    binder: ConcurrentBinder[str] = ConcurrentBinder(2, notify=woken.set)
    running = threading.Semaphore(0)

    def work(i: int) -> str:
        running.release()
        release[i].wait(10)
        return f"bound {i}"

    binder.submit("a", "pod-a", lambda: work(0))
    binder.submit("b", "pod-b", lambda: work(1))
    assert running.acquire(timeout=5) and running.acquire(timeout=5)
    assert len(binder) == 2 and binder.completed() == []
    third = threading.Thread(target=lambda: binder.submit("c", "pod-c", lambda: work(2)))
    third.start()
    third.join(0.3)
    assert third.is_alive(), "a third cycle started while two were in flight"
    release[1].set()
    third.join(5)
    assert not third.is_alive()
    assert woken.wait(5)
    assert binder.completed() == [("pod-b", "bound 1")]
    release[0].set()
    release[2].set()
    binder.wait(5)
    assert binder.completed() == [("pod-a", "bound 0"), ("pod-c", "bound 2")]
    assert len(binder) == 0
    binder.close()
