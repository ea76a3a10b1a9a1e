"""`PuzzleSelection`: one place decides which puzzles each task runs and which selection
arguments it takes; its checks are the one-line errors users see."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

import inspect_sparc
from inspect_sparc.evals.selection import SELECTION_ARGUMENTS, PuzzleSelection


@pytest.mark.parametrize("task", list(SELECTION_ARGUMENTS))
def test_every_task_declares_exactly_the_selection_arguments_said_here(task):
    """The table and the tasks' signatures cannot drift apart."""
    parameters = inspect.signature(getattr(inspect_sparc, task)).parameters
    taking = {"level", "source", "split", "subset", "puzzles", "puzzle"} & set(parameters)
    assert taking == set(SELECTION_ARGUMENTS[task])


def test_sparc_hard_runs_level_5_whatever_else_it_is_given():
    selection = PuzzleSelection.from_arguments(
        "sparc_hard", source="sample", split="test", subset="all"
    )
    assert selection.levels == (5,) and selection.puzzles == "all"
    assert {s.metadata["level"] for s in inspect_sparc.sparc_hard(source="sample").dataset} == {5}


def test_arguments_are_normalised_once():
    selection = PuzzleSelection.from_arguments(
        "sparc", level="3,1", source="sample", split="test", subset="all", puzzles="all"
    )
    assert selection.levels == (1, 3)
    kinds = PuzzleSelection.from_arguments("algopuzzlevqa", puzzle="maze, clock", source="sample")
    assert kinds.kinds == ("clock", "maze")  # the authors' order
    with pytest.raises(dataclasses.FrozenInstanceError):
        selection.levels = (2,)  # frozen on purpose


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"task": "sparc", "source": "sample", "levels": (0,)}, "levels must be some of"),
        ({"task": "sparc_hard", "source": "sample"}, "sparc_hard runs level 5 only"),
        ({"task": "sparc", "source": "x", "puzzles": "informative:7"}, "informative:50"),
        (
            {"task": "sparc", "source": "x", "puzzles": "informative:50", "split": "train"},
            "subset of the test split",
        ),
        ({"task": "algopuzzlevqa", "source": "sample"}, "AlgoPuzzleVQA puzzle names"),
        ({"task": "sparc_easy", "source": "sample"}, "no task 'sparc_easy'"),
    ],
)
def test_validate_rejects_a_selection_built_by_hand_that_does_not_hold_together(fields, message):
    with pytest.raises(ValueError, match=message):
        PuzzleSelection(**fields).validate()


def test_a_task_given_the_wrong_selection_arguments_is_a_programming_error():
    with pytest.raises(TypeError, match="sparc_hard selects puzzles by source, split, subset"):
        PuzzleSelection.from_arguments("sparc_hard", level=3, source="sample", split="test",
                                       subset="all")  # fmt: skip
