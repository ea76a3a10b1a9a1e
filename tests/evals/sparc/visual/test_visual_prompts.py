"""Visual prompts are byte-identical to sparc-puzzle 0.7.0 on real puzzles, every variant."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from sparc.prompts import PROMPT_REGISTRY

from inspect_sparc.core.prompts.episode import gym_visual_system_prompt
from inspect_sparc.evals.sparc.visual.prompts import (
    VISUAL_PROMPT_KINDS,
    VISUAL_SYSTEM_PROMPT,
    check_visual_prompt_kind,
    visual_user_prompt,
)

SINGLE_SHOT = {
    "paper": "single_shot_visual_paper",
    "corrected": "single_shot_visual",
    "prompt_engineering": "single_shot_visual_prompt_engineering",
}
GYM = {
    ("paper", False): "gym_visual_paper",
    ("corrected", False): "gym_visual",
    ("paper", True): "gym_visual_traceback_paper",
    ("corrected", True): "gym_visual_traceback",
}


def single_shot_mismatches(records: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(puzzle id, kind) of every single-shot visual prompt that differs from the reference."""
    bad = []
    for record in records:
        for kind, name in SINGLE_SHOT.items():
            # The reference's prompt_engineering path rewrites the record in place: give it a copy.
            reference = PROMPT_REGISTRY[name](copy.deepcopy(record))
            ours = (VISUAL_SYSTEM_PROMPT, visual_user_prompt(record, kind))
            if ours != (reference["system"], reference["user"]):
                bad.append((record["id"], kind))
    return bad


def gym_mismatches(records: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(puzzle id, reference name) of every step-by-step visual system prompt that differs."""
    bad = []
    for record in records:
        for (kind, traceback), name in GYM.items():
            reference = PROMPT_REGISTRY[name](copy.deepcopy(record))["system"]
            if gym_visual_system_prompt(record, kind, traceback) != reference:
                bad.append((record["id"], name))
    return bad


def test_every_single_shot_visual_prompt_matches_the_reference(sparc_records):
    assert set(VISUAL_PROMPT_KINDS) == set(SINGLE_SHOT)
    assert any(r["polyshapes"] not in ("", "{}") for r in sparc_records)  # shapes block exercised
    assert single_shot_mismatches(sparc_records) == []


def test_every_step_by_step_visual_system_prompt_matches_the_reference(sparc_records):
    assert gym_mismatches(sparc_records) == []


def test_the_prompt_variants_really_differ(sparc_records):
    record = sparc_records[0]
    texts = {kind: visual_user_prompt(record, kind) for kind in VISUAL_PROMPT_KINDS}
    assert len(set(texts.values())) == 3
    assert record["text_visualization"] in texts["paper"]
    assert record["text_visualization"] not in texts["prompt_engineering"]  # image only


def test_an_unknown_prompt_kind_is_a_clear_error(sparc_records):
    with pytest.raises(ValueError, match="paper, corrected, prompt_engineering"):
        check_visual_prompt_kind("papr")
    with pytest.raises(ValueError, match="paper, corrected"):
        gym_visual_system_prompt(sparc_records[0], "prompt_engineering")


@pytest.mark.slow
def test_all_visual_prompts_match_the_reference_on_the_500_test_puzzles(sparc_test_split):
    assert single_shot_mismatches(sparc_test_split) == []
    assert gym_mismatches(sparc_test_split) == []
