"""Exports imported on first use (PEP 562): a package names what it exports, and from which
module, without importing those modules (and Inspect, numba or Gymnasium behind them) itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module-level `__getattr__` for `package`: each name of `exports` (name -> the module
    defining it) is imported from its module when first asked for; any other is an error.

        __getattr__ = lazy_exports(__name__, {"sparc_gym": "inspect_sparc.evals.sparc.gym.tasks"})

    A name must differ from the package's submodules: once a submodule is imported, Python sets
    the package attribute of that name to the module, which then hides the export.

    Args:
        package: the package's module name (`__name__`), for the error message.
        exports: exported name -> the module that defines it.

    Returns:
        The `__getattr__` function to assign in the package's module."""

    def __getattr__(name: str) -> Any:
        if name in exports:
            return getattr(import_module(exports[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
