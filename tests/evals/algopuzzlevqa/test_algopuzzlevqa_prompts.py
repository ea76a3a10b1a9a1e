"""The prompt text in the authors' layout (byte parity on real instances: test_..._reference)."""

from __future__ import annotations

import pytest

from inspect_sparc.core.algopuzzlevqa.prompts import (
    build_prompt,
    follow_up_prompt,
    option_letters,
    paper_follow_up,
)


def test_describe_prompt_is_the_papers_ecot_text() -> None:
    text = build_prompt("What time is it?  \n", ["7:29", "1:02", "8:56", "3:17"])
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


def test_two_options_keep_empty_c_and_d_lines() -> None:
    text = build_prompt("Is it possible?\nAnswer Yes or No.", ["No", "Yes"], prompt="cot")
    assert text == (
        "Question: Is it possible?\nAnswer Yes or No.\n"
        "Options:\n"
        "(A) No\n"
        "(B) Yes\n"
        "\n"
        "\n"
        "\n"
        "Answer: Let's think step by step."
    )


def test_prevent_direct_answer_suffix_follows_the_stripped_question() -> None:
    text = build_prompt("Which? \n", ["a", "b", "c", "d"], prevent_direct_answer=True)
    assert text.startswith("Question: Which? Do not directly give the final answer.\nOptions:\n")


def test_paper_follow_up_names_four_letters_whatever_the_options() -> None:
    assert paper_follow_up("P", "R", ["No", "Yes"]) == (
        "P\nR\n\nTherefore, among (A) (B) (C) (D), the answer is:"
    )
    sizes = ["large", "small", "medium"]
    assert paper_follow_up("P", "R", sizes).endswith("among (A) (B) (C), the answer is:")


def test_strict_follow_up_names_only_existing_letters() -> None:
    assert follow_up_prompt(4) == "Therefore, among (A) (B) (C) (D), the answer is:"
    assert follow_up_prompt(2) == "Therefore, among (A) (B), the answer is:"
    assert option_letters(3) == ["A", "B", "C"]


def test_unknown_prompt_lists_valid_ones() -> None:
    with pytest.raises(ValueError, match="describe, cot"):
        build_prompt("q", ["a", "b"], prompt="ecot")
