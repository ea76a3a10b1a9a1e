"""The "did you mean" hint on a misspelled value: right where close, silent where not."""

from __future__ import annotations

import pytest

from inspect_sparc.core.suggest import closest, did_you_mean

SOURCES = ("modelscope", "huggingface", "sample")


@pytest.mark.parametrize(
    ("given", "meant"),
    [
        ("smaple", "sample"),  # transposition
        ("sampel", "sample"),
        ("Sample", "sample"),  # case only
        ("huggingfce", "huggingface"),  # a dropped letter
        ("modelscop", "modelscope"),
    ],
)
def test_a_close_typo_names_the_value_meant(given, meant):
    assert closest(given, SOURCES) == meant
    assert did_you_mean(given, SOURCES) == f" (did you mean {meant!r}?)"


@pytest.mark.parametrize("given", ["github", "xyz", "", None, 7])
def test_nothing_close_suggests_nothing(given):
    assert closest(given, SOURCES) is None
    assert did_you_mean(given, SOURCES) == ""


def test_the_closest_of_several_candidates_wins():
    assert closest("corect", ("paper", "corrected", "prompt_engineering")) == "corrected"
    assert closest("papr", ("paper", "corrected")) == "paper"


PLOTS = ("original", "coordinate_grid", "path_cell_annotated", "rotated_and_path_cell_annotated")


@pytest.mark.parametrize(
    ("given", "meant"),
    [
        ("Path-Cell-Annotated", "path_cell_annotated"),  # separators and case only
        ("path cell annotated", "path_cell_annotated"),
        ("annotated", "path_cell_annotated"),  # a part: the shortest value holding it
        ("grid", "coordinate_grid"),
        ("path_cel_annotated", "path_cell_annotated"),  # a dropped letter still
        ("orignal", "original"),
    ],
)
def test_a_part_or_a_separator_slip_names_the_value_meant(given, meant):
    assert closest(given, PLOTS) == meant


@pytest.mark.parametrize("given", ["typo", "ann", "a"])
def test_a_short_part_or_an_unrelated_word_suggests_nothing(given):
    assert closest(given, PLOTS) is None
