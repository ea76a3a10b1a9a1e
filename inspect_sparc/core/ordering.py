"""Round-robin interleaving, shared by every task's dataset order (pure: no Inspect imports)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")


def round_robin(groups: Iterable[Sequence[T]]) -> list[T]:
    """Items interleaved over the groups: the first of each group, then the second of each...

    Order within a group is kept, so `--limit N` takes the first items of every group in turn.

    Args:
        groups: the groups, each in its own order.

    Returns:
        Every item, interleaved."""
    queues = list(groups)
    depth = max((len(queue) for queue in queues), default=0)
    return [queue[i] for i in range(depth) for queue in queues if i < len(queue)]
