"""A misspelled task argument names the value meant, in every validator a user reaches."""

from __future__ import annotations

import pytest

from inspect_sparc import algopuzzlevqa, sparc, sparc_agent, sparc_gym, sparc_visual
from inspect_sparc.core.search import solve

CASES = [
    (sparc, {"source": "smaple"}, "sample"),
    (sparc, {"source": "huggingfase"}, "huggingface"),
    (sparc, {"prompt": "corect", "source": "sample"}, "corrected"),
    (sparc, {"split": "tset", "source": "sample"}, "test"),
    (sparc_gym, {"observation": "imgae", "source": "sample"}, "image"),
    (sparc_agent, {"prompt": "papr", "source": "sample"}, "paper"),
    (sparc_visual, {"prompt": "prompt_engneering", "source": "sample"}, "prompt_engineering"),
    (sparc_visual, {"plot": "path_cel_annotated", "source": "sample"}, "path_cell_annotated"),
    (sparc_visual, {"plot": "annotated", "source": "sample"}, "path_cell_annotated"),  # a part
    (sparc_gym, {"plot": "Coordinate-Grid", "source": "sample"}, "coordinate_grid"),
    (algopuzzlevqa, {"puzzle": "clok", "source": "sample"}, "clock"),
    (algopuzzlevqa, {"prompt": "describ", "source": "sample"}, "describe"),
    (algopuzzlevqa, {"source": "githb"}, "github"),
]


@pytest.mark.parametrize(("task", "args", "meant"), CASES)
def test_a_close_misspelling_names_the_value_meant(task, args, meant):
    with pytest.raises(ValueError) as raised:
        task(**args)
    message = str(raised.value)
    assert f"(did you mean {meant!r}?)" in message
    assert "\n" not in message  # still one line


@pytest.mark.parametrize(
    ("task", "args"),
    [(sparc, {"source": "zzzz-nothing-like"}), (sparc, {"prompt": "xyz", "source": "sample"})],
)
def test_nothing_close_adds_no_guess(task, args):
    with pytest.raises(ValueError) as raised:
        task(**args)
    assert "did you mean" not in str(raised.value)


def test_the_search_engine_variable_names_the_engine_meant(monkeypatch):
    from inspect_sparc.core.puzzle.parse import parse_puzzle
    from inspect_sparc.core.sources import load_records

    monkeypatch.setenv("INSPECT_SPARC_SEARCH", "pythn")
    puzzle = parse_puzzle(load_records("sample")[0])
    with pytest.raises(ValueError, match=r"did you mean 'python'\?"):
        solve(puzzle, limit=1)
