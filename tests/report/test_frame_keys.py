"""Per-sample rule keys are read in both spellings (`dot` today, `breaks_dot` after the rename)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from inspect_ai.scorer import Score

from inspect_sparc.contract.protocols import protocol_of
from inspect_sparc.report.read.logs import short_task
from inspect_sparc.report.read.samples import score_values


def sample_with(value: dict[str, Any]) -> SimpleNamespace:
    return SimpleNamespace(scores={"sparc_scorer": Score(value=value, answer="(0,0)")})


def test_both_spellings_of_rule_keys_become_breaks_keys():
    old, _, _ = score_values(sample_with({"correct": 1, "dot": 1, "polyshape": 0}))
    new, _, _ = score_values(sample_with({"correct": 1, "breaks_dot": 1, "breaks_polyshape": 0}))
    assert old == new == {"correct": 1, "breaks_dot": 1, "breaks_polyshape": 0}


def test_protocols_and_task_names():
    assert short_task("inspect_sparc/sparc_gym") == "sparc_gym"
    assert short_task("other_pkg/sparc") == "other_pkg/sparc"
    assert protocol_of("sparc_gym", {"traceback": True}) == "gym_traceback"
    assert protocol_of("sparc_gym", {"observation": "image"}) == "gym_visual"
    assert protocol_of("sparc_hard", {}) == "single_shot"
    assert protocol_of("sparc_visual", {}) == "visual"
