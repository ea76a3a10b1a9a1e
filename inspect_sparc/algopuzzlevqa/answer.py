"""Reading the chosen option from a model answer, as in the paper (pure: no inspect_ai)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspect_sparc.algopuzzlevqa.prompts import option_letters

PARENTHESISED_LETTER = re.compile(r"\(([A-D])\)")
"""`(A)`-style letters: the first choice."""

BARE_LETTER = re.compile(r"(?<![A-Za-z0-9_])([A-D])(?![A-Za-z0-9_])")
"""Bare capital letters A-D standing alone (not inside a word): the fallback."""


@dataclass(frozen=True)
class Extraction:
    """The letter read from an answer and the option it names (None when it names none)."""

    letter: str | None
    option: str | None

    @property
    def names_option(self) -> bool:
        """Whether the letter names one of the options."""
        return self.option is not None


def extract_letter(text: str) -> str | None:
    """The last `(A)`-style letter in `text`; else the last bare capital A-D; else None."""
    for pattern in (PARENTHESISED_LETTER, BARE_LETTER):
        matches = pattern.findall(text)
        if matches:
            return matches[-1]
    return None


def extract_option(text: str, options: list[str]) -> Extraction:
    """The letter in `text` and the option it names among `options`."""
    letter = extract_letter(text)
    mapping = dict(zip(option_letters(len(options)), options, strict=True))
    return Extraction(letter=letter, option=mapping.get(letter) if letter else None)
