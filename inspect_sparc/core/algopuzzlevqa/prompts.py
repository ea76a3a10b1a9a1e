"""The prompt text, byte for byte as the authors' evaluation code sent it (pure: no inspect_ai).

The authors' `ChainThoughtMultiChoicePrompter` (declare-lab/LLM-PuzzleTest, AlgoPuzzleVQA) writes
`Question: {question.rstrip()}`, `Options:`, one line per letter A-D (an empty line where a
puzzle has fewer options), an empty line and the cue, joined by newlines.
"""

from __future__ import annotations

import string
from typing import Literal

from inspect_sparc.core.suggest import check_choice

PromptStyle = Literal["describe", "cot"]

PROMPT_ENDINGS: dict[str, str] = {
    "describe": "Answer: Let's describe the image first and think step by step.",
    "cot": "Answer: Let's think step by step.",
}
"""Last line of the user message: `describe` is the paper's eCoT (default), `cot` plain CoT."""

PROMPT_LETTERS = "ABCD"
"""The prompt always has these four option lines (empty ones where options are missing)."""

NO_DIRECT_ANSWER = " Do not directly give the final answer."
"""Appended to the question in the authors' Gemini runs (`prevent_direct_answer`)."""

SIZE_OPTIONS = frozenset({"small", "medium", "large"})
"""Options for which the authors' follow-up names only (A) (B) (C) (absent in AlgoPuzzleVQA)."""


def option_letters(count: int) -> list[str]:
    """The letters A, B, ... of `count` options.

    Args:
        count: how many options.

    Returns:
        The letters."""
    if not 1 <= count <= len(string.ascii_uppercase):
        raise ValueError(f"Cannot letter {count} options.")
    return list(string.ascii_uppercase[:count])


# Shaped like answer.check_extraction: each narrows to its Literal; both use suggest.check_choice.
def check_prompt_style(prompt: str) -> PromptStyle:
    """`prompt` itself when it names a prompt style, else a ValueError listing the valid ones.

    Args:
        prompt: the style as given.

    Returns:
        The style."""
    return check_choice(prompt, PROMPT_ENDINGS, "prompt")  # type: ignore[return-value]


def build_prompt(
    question: str,
    options: list[str],
    prompt: str = "describe",
    prevent_direct_answer: bool = False,
) -> str:
    """The text of the user message (sent before the image), exactly as the authors' code.

    Args:
        question: the record's question.
        options: its options, in letter order.
        prompt: `describe` (the paper's eCoT) or `cot`.
        prevent_direct_answer: append the authors' Gemini sentence.

    Returns:
        The prompt text."""
    ending = PROMPT_ENDINGS[check_prompt_style(prompt)]
    if len(options) > len(PROMPT_LETTERS):
        raise ValueError(f"Expected at most {len(PROMPT_LETTERS)} options, got {len(options)}.")
    question = question.rstrip() + (NO_DIRECT_ANSWER if prevent_direct_answer else "")
    lines = [f"Question: {question}", "Options:"]
    for index, letter in enumerate(PROMPT_LETTERS):
        lines.append(f"({letter}) {options[index]}" if index < len(options) else "")
    lines += ["", ending]
    return "\n".join(lines)


def paper_follow_up_letters(options: list[str]) -> str:
    """`(A) (B) (C) (D)`, as the authors' follow-up names them whatever the option count.

    Args:
        options: the question's options (three letters for the size options, else four,
            whatever their count, as the authors' code wrote them).

    Returns:
        The letters as the follow-up writes them."""
    letters = "ABC" if set(options) == SIZE_OPTIONS else "ABCD"
    return " ".join(f"({letter})" for letter in letters)


def paper_follow_up(first_prompt: str, first_reply: str, options: list[str]) -> str:
    """The single new prompt the authors sent when the first reply held no letter.

    Args:
        first_prompt: the first prompt's text.
        first_reply: the model's first reply.
        options: the question's options.

    Returns:
        The follow-up prompt's text."""
    return (
        f"{first_prompt}\n{first_reply}\n\n"
        f"Therefore, among {paper_follow_up_letters(options)}, the answer is:"
    )


def follow_up_prompt(option_count: int) -> str:
    """The strict follow-up, a second chat turn naming only the letters that exist.

    Args:
        option_count: how many options the question has.

    Returns:
        The follow-up's text."""
    letters = " ".join(f"({letter})" for letter in option_letters(option_count))
    return f"Therefore, among {letters}, the answer is:"
