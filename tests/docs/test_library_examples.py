"""The library examples of docs/scoring.md and docs/search.md run as written, on a real puzzle,
and say what the docs claim (the public names of `inspect_sparc.core`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from inspect_sparc.core.puzzle.rules import check as rules_check
from inspect_sparc.core.search import solve as search_solve

DOCS = Path(__file__).resolve().parents[2] / "docs"
BLOCK = re.compile(r"```python\n(from inspect_sparc\.core import .*?)```", re.DOTALL)


def blocks(name: str) -> list[str]:
    """The doc's Python blocks that import from `inspect_sparc.core`."""
    found = BLOCK.findall((DOCS / name).read_text(encoding="utf-8"))
    assert found, f"docs/{name} has no library example"
    return found


@pytest.mark.parametrize("name", ["scoring.md", "search.md"])
def test_the_library_example_runs_on_a_real_puzzle(name, sparc_records, capsys):
    record = sparc_records[0]
    for block in blocks(name):
        namespace = {"record": record}
        exec(compile(block, str(DOCS / name), "exec"), namespace)
        solutions = namespace["solutions"]
        # the public names are the modules' own functions, with their results
        assert solutions == search_solve(namespace["puzzle"]) and solutions
        if "first_three" in namespace:
            assert namespace["first_three"] == solutions[:3]
        if "verdict" in namespace:
            assert namespace["verdict"] == rules_check(namespace["puzzle"], namespace["path"])
            assert capsys.readouterr().out.strip()  # the drawing was printed
