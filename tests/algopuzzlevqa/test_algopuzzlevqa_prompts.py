"""The prompt text is exactly the paper's protocol."""

from __future__ import annotations

import pytest

from inspect_sparc.algopuzzlevqa.prompts import build_prompt, follow_up_prompt, option_letters


def test_describe_prompt_is_the_papers_ecot_text() -> None:
    text = build_prompt("What time is it?", ["7:29", "1:02", "8:56", "3:17"])
    assert text == (
        "Question: What time is it?\n"
        "Options:\n"
        "(A) 7:29\n"
        "(B) 1:02\n"
        "(C) 8:56\n"
        "(D) 3:17\n"
        "\n"
        "Answer: Let's describe the image first and think step by step."
    )


def test_cot_prompt_and_two_options() -> None:
    text = build_prompt("Is it possible?\nAnswer Yes or No.", ["No", "Yes"], prompt="cot")
    assert text == (
        "Question: Is it possible?\nAnswer Yes or No.\n"
        "Options:\n"
        "(A) No\n"
        "(B) Yes\n"
        "\n"
        "Answer: Let's think step by step."
    )


def test_follow_up_names_only_existing_letters() -> None:
    assert follow_up_prompt(4) == "Therefore, among (A) (B) (C) (D), the answer is:"
    assert follow_up_prompt(2) == "Therefore, among (A) (B), the answer is:"
    assert option_letters(3) == ["A", "B", "C"]


def test_unknown_prompt_lists_valid_ones() -> None:
    with pytest.raises(ValueError, match="describe, cot"):
        build_prompt("q", ["a", "b"], prompt="ecot")
