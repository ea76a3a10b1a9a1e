"""Differential tests of the search: random small grids through both engines and a brute force.

`search_fuzz` draws seeded random puzzles small enough for `rule_oracle` to enumerate every
simple path; both engines must find exactly the paths the oracle judges valid, in the same
order as each other. The default runs cover every rule kind and the shapes the published
puzzles lack (S or E a mid-edge inside the grid, E off the border, grids one cell wide) in a
few seconds; the slow one runs ten times as many on larger grids. The same runs, with any seed
and count: `python benchmarks/fuzz_search.py --seed N --count N`.
"""

from __future__ import annotations

import pytest
from search_fuzz import FEATURES, run

from inspect_sparc.core.search import available


@pytest.fixture
def engines(request: pytest.FixtureRequest) -> tuple[str, ...]:
    """Both engines; without numba the pure one alone (in CI `numba_required` fails instead)."""
    if available():
        return ("python", "compiled")
    try:
        request.getfixturevalue("numba_required")
    except pytest.skip.Exception:
        pass
    return ("python",)


def test_engines_and_oracle_agree_on_random_small_grids(engines: tuple[str, ...]) -> None:
    report = run(seed=0, count=100, engines=engines)
    assert report.mismatches == []
    assert report.solvable > 60 and report.paths > 800
    assert set(report.seen) == set(FEATURES)  # every rule kind and grid shape was drawn


def test_engines_and_oracle_agree_with_an_inner_mid_edge_end(engines: tuple[str, ...]) -> None:
    """S or E a mid-edge inside the grid: a path end splits the cells beside it, which both
    engines once forgot (strip pruning dropped valid paths); this run catches that bug."""
    report = run(seed=0, count=100, engines=engines, inner=True)
    assert report.mismatches == []
    assert report.solvable > 60 and report.paths > 800


@pytest.mark.slow
def test_engines_and_oracle_agree_on_more_and_larger_random_grids(
    engines: tuple[str, ...],
) -> None:
    """3,000 puzzles of up to 20 lattice nodes, half with an inner mid-edge end (minutes)."""
    for inner in (False, True):
        report = run(seed=1, count=1500, engines=engines, max_nodes=20, inner=inner)
        assert report.mismatches == []
