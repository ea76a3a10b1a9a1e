"""Prompts are byte-identical to sparc-puzzle 0.7.0 (the test-only oracle) for both kinds."""

from __future__ import annotations

from typing import Any

import pytest
from sparc.prompts import single_shot, single_shot_paper

from inspect_sparc.core.prompts.single_shot import SYSTEM_PROMPT, user_prompt

REFERENCE = {"paper": single_shot_paper.get_prompt, "corrected": single_shot.get_prompt}


@pytest.mark.parametrize("kind", ["paper", "corrected"])
def test_prompts_match_reference_on_every_shipped_puzzle(
    kind: str, sparc_records: list[dict[str, Any]]
):
    for record in sparc_records:
        reference = REFERENCE[kind](record)
        assert reference["system"] == SYSTEM_PROMPT
        assert user_prompt(record, kind) == reference["user"], record["id"]


def test_paper_and_corrected_prompts_differ_only_in_rule_wording(
    sparc_records: list[dict[str, Any]],
):
    record = sparc_records[0]
    paper, corrected = user_prompt(record, "paper"), user_prompt(record, "corrected")
    assert paper != corrected
    assert "Any rule symbol can be the partner" in corrected
    assert "Any rule symbol can be the partner" not in paper


def test_paper_prompt_lengths_are_in_the_published_range(sparc_records: list[dict[str, Any]]):
    lengths = [len(SYSTEM_PROMPT) + len(user_prompt(r, "paper")) for r in sparc_records]
    assert len(SYSTEM_PROMPT) == 43
    # The issue reports 7,478 to 8,589 characters (system + user) on the whole test split.
    assert 7478 <= min(lengths) and max(lengths) <= 8589


def test_unknown_prompt_kind_is_a_clear_error(sparc_records: list[dict[str, Any]]):
    with pytest.raises(ValueError, match="paper, corrected"):
        user_prompt(sparc_records[0], "fancy")
