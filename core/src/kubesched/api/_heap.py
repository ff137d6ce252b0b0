"""Keeping the cyclic garbage collector out of bulk work whose objects all live on.

Reading a large manifest or running a simulation creates many objects that
outlive the step; the collector's passes over them find nothing to free and
cost a third of a large manifest's reading time and a tenth of a large run.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No collection while the block runs (reference counting still frees what it can);
    the collector is left as it was found."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


@contextmanager
def frozen_heap() -> Iterator[None]:
    """The objects that exist when the block starts are left out of collections until it
    ends, then handed back. Left alone when someone else froze the heap."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
