"""The paper's prompt text (pure: no inspect_ai)."""

from __future__ import annotations

import string
from typing import Literal

PromptStyle = Literal["describe", "cot"]

PROMPT_ENDINGS: dict[str, str] = {
    "describe": "Answer: Let's describe the image first and think step by step.",
    "cot": "Answer: Let's think step by step.",
}
"""Last line of the user message: `describe` is the paper's eCoT (default), `cot` plain CoT."""


def option_letters(count: int) -> list[str]:
    """The letters A, B, ... of `count` options."""
    if not 1 <= count <= len(string.ascii_uppercase):
        raise ValueError(f"Cannot letter {count} options.")
    return list(string.ascii_uppercase[:count])


def check_prompt_style(prompt: str) -> PromptStyle:
    """`prompt` itself when it names a prompt style, else a ValueError listing the valid ones."""
    if prompt not in PROMPT_ENDINGS:
        raise ValueError(f"Unknown prompt {prompt!r}. Valid prompts: {', '.join(PROMPT_ENDINGS)}.")
    return prompt  # type: ignore[return-value]


def build_prompt(question: str, options: list[str], prompt: str = "describe") -> str:
    """The text of the user message (sent after the image), exactly as in the paper."""
    ending = PROMPT_ENDINGS[check_prompt_style(prompt)]
    lines = [f"Question: {question}", "Options:"]
    letters = option_letters(len(options))
    lines += [f"({letter}) {option}" for letter, option in zip(letters, options, strict=True)]
    return "\n".join(lines) + "\n\n" + ending


def follow_up_prompt(option_count: int) -> str:
    """The second user turn, asked when no option can be read from the first answer."""
    letters = " ".join(f"({letter})" for letter in option_letters(option_count))
    return f"Therefore, among {letters}, the answer is:"
