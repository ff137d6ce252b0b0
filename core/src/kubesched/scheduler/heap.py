"""A keyed binary heap: ordered by a less function, items addressable by key.

The scheduling queue's activeQ and backoffQ need what `heapq` lacks: update or
delete an item by key in O(log n) (upstream's backend/heap).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class KeyedHeap(Generic[T]):
    """A min-heap by `less`; `key(item)` identifies an item."""

    __slots__ = ("_index", "_items", "_key", "_less")

    def __init__(self, key: Callable[[T], str], less: Callable[[T, T], bool]) -> None:
        self._key = key
        self._less = less
        self._items: list[T] = []
        self._index: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: str) -> bool:
        return key in self._index

    def __iter__(self) -> Iterator[T]:
        """Items in no particular order."""
        return iter(list(self._items))

    def get(self, key: str) -> T | None:
        i = self._index.get(key)
        return None if i is None else self._items[i]

    def peek(self) -> T | None:
        return self._items[0] if self._items else None

    def add_or_update(self, item: T) -> None:
        """Insert `item`, or replace the item with the same key and restore order."""
        k = self._key(item)
        i = self._index.get(k)
        if i is None:
            self._items.append(item)
            i = len(self._items) - 1
            self._index[k] = i
            self._up(i)
        else:
            self._items[i] = item
            self._fix(i)

    def pop(self) -> T | None:
        """Remove and return the least item, or None when empty."""
        if not self._items:
            return None
        return self._remove_at(0)

    def delete(self, key: str) -> T | None:
        """Remove the item with this key; None when absent."""
        i = self._index.get(key)
        return None if i is None else self._remove_at(i)

    def _remove_at(self, i: int) -> T:
        items = self._items
        item = items[i]
        last = items.pop()
        del self._index[self._key(item)]
        if i < len(items):
            items[i] = last
            self._index[self._key(last)] = i
            self._fix(i)
        return item

    def _fix(self, i: int) -> None:
        if not self._up(i):
            self._down(i)

    def _up(self, i: int) -> bool:
        items, index, key, less = self._items, self._index, self._key, self._less
        item = items[i]
        moved = False
        while i > 0:
            parent = (i - 1) >> 1
            above = items[parent]
            if not less(item, above):
                break
            items[i] = above
            index[key(above)] = i
            i = parent
            moved = True
        items[i] = item
        index[key(item)] = i
        return moved

    def _down(self, i: int) -> None:
        """Sift down bottom-up (Floyd): follow the lesser child to a leaf, then climb back.

        About log2(n) comparisons instead of 2·log2(n): `less` may be a plugin.
        """
        items, index, key, less = self._items, self._index, self._key, self._less
        n = len(items)
        item = items[i]
        child = 2 * i + 1
        while child < n:
            right = child + 1
            if right < n and less(items[right], items[child]):
                child = right
            below = items[child]
            items[i] = below
            index[key(below)] = i
            i = child
            child = 2 * i + 1
        items[i] = item
        self._up(i)
