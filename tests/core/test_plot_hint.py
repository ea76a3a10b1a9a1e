"""`-T plot=...` misspelled names the plot type meant, as every other argument check does."""

from __future__ import annotations

import pytest

from inspect_sparc import sparc_gym, sparc_visual
from inspect_sparc.core.picture.image import PLOT_TYPES


@pytest.mark.parametrize(
    ("build", "meant"),
    [
        (lambda: sparc_visual(plot="path_cell_anotated", source="sample"), "path_cell_annotated"),
        (lambda: sparc_visual(plot="Original", source="sample"), "original"),
        (lambda: sparc_gym(observation="image", plot="orignal", source="sample"), "original"),
    ],
)
def test_a_misspelled_plot_type_names_the_one_meant(build, meant):
    with pytest.raises(ValueError) as raised:
        build()
    message = str(raised.value)
    assert message.endswith(f"(did you mean {meant!r}?)")
    assert all(plot in message for plot in PLOT_TYPES) and "\n" not in message


def test_nothing_close_adds_no_guess():
    with pytest.raises(ValueError) as raised:
        sparc_visual(plot="zzzz", source="sample")
    assert "did you mean" not in str(raised.value)
