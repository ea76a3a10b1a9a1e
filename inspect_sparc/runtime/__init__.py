"""What the package does around its logic at run time: worker processes, progress display,
downloads and the package cache (`downloads`, `cache`: file locks, whole writes) and lazy
exports.

The bottom layer: it imports nothing else of the package (and never Inspect), so the pure
`core` can hand it a job list or a count without taking on processes or terminals itself.

    from inspect_sparc.runtime import ordered_map, progress_bar
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.runtime.lazy import lazy_exports

#: The public names, each from the module defining it (imported on first use).
EXPORTS = {
    "lazy_exports": "inspect_sparc.runtime.lazy",
    "ordered_map": "inspect_sparc.runtime.processes",
    "pool_blocker": "inspect_sparc.runtime.processes",
    "Estimate": "inspect_sparc.runtime.progress",
    "progress_bar": "inspect_sparc.runtime.progress",
}

__all__ = ["Estimate", "lazy_exports", "ordered_map", "pool_blocker", "progress_bar"]

if TYPE_CHECKING:  # for type checkers and readers; at run time `__getattr__` imports on use
    from inspect_sparc.runtime.processes import ordered_map, pool_blocker
    from inspect_sparc.runtime.progress import Estimate, progress_bar

__getattr__ = lazy_exports(__name__, EXPORTS)
