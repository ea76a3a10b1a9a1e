"""Every rule-valid path of a SPaRC puzzle: `solve`, and the choice of search engine.

Two engines give the same paths in the same order: the pure one (`python`, always there) and
the compiled one (`compiled`, with numba from the `fast` extra, about 10x faster). Both read the
puzzle's `layout` and apply the pruning rules written down in docs/search.md; every path either
returns is confirmed by `inspect_sparc.core.puzzle.rules.check`. Pure logic: no Inspect import, and
numba is imported only by the compiled engine's `kernel`, when a search runs there.
"""

from __future__ import annotations

import os

from inspect_sparc.core.puzzle.parse import Path, Puzzle
from inspect_sparc.core.search.compiled import available, fits, solve_compiled
from inspect_sparc.core.search.python import solve_python
from inspect_sparc.core.suggest import did_you_mean

__all__ = ["ENGINES", "ENGINE_VARIABLE", "available", "fits", "solve", "use_compiled"]

#: Environment variable choosing the engine: "auto" (default), "python" or "compiled".
ENGINE_VARIABLE = "INSPECT_SPARC_SEARCH"
#: The engines `solve` knows.
ENGINES = ("auto", "python", "compiled")


def use_compiled(engine: str | None = None) -> bool:
    """Whether `solve` should run the compiled engine: `engine`, else the environment variable
    (default "auto": compiled when numba is installed). Unknown names and "compiled" without
    numba are errors, not silent fallbacks.

    Args:
        engine: "python", "compiled", "auto", or None for the environment variable.

    Returns:
        True for the compiled engine."""
    choice = (engine if engine is not None else os.environ.get(ENGINE_VARIABLE, "auto")).strip()
    if choice.lower() not in ENGINES:
        source = "engine" if engine is not None else ENGINE_VARIABLE
        hint = did_you_mean(choice, ENGINES)
        raise ValueError(f"{source} must be one of {', '.join(ENGINES)}, not {choice!r}{hint}")
    choice = choice.lower()
    if choice == "compiled" and not available():
        raise RuntimeError(
            "the compiled search needs numba: pip install numba (from a checkout: "
            "pip install -e '.[fast]') "
            f"(or set {ENGINE_VARIABLE}=python)"
        )
    return choice == "compiled" or (choice == "auto" and available())


def solve(puzzle: Puzzle, limit: int | None = None, *, engine: str | None = None) -> list[Path]:
    """Every rule-valid path of `puzzle` (at most `limit`), in depth-first order: from each node
    the moves are tried right, left, down, up, so a smaller `limit` gives a prefix.

    `engine` is "python", "compiled" (needs numba) or None: the ``INSPECT_SPARC_SEARCH``
    variable decides, by default "auto" (compiled when numba is installed). Both give the same
    paths in the same order; a grid too large for the compiled engine's 63-bit masks always runs
    in Python.

    Args:
        puzzle: the parsed puzzle.
        limit: the most paths to return (None: all).
        engine: the engine, or None for the environment variable.

    Returns:
        The paths, each a list of positions from S to E."""
    if limit is not None and limit <= 0:
        return []
    if use_compiled(engine) and fits(puzzle):
        return solve_compiled(puzzle, limit)
    return solve_python(puzzle, limit)
