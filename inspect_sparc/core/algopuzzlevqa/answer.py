"""Reading the chosen option from a model reply (pure: no inspect_ai).

Two readings. `paper` is the authors' `get_answer`, on which the published numbers rest: the last
`(A)`-`(D)`; else the last capital A, B, C or D anywhere, even inside a word (`Do` reads as D); a
letter with no option reads as the first option. `strict` reads only standalone capitals and
never invents an option; it is the sounder choice for new work.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from inspect_sparc.core.algopuzzlevqa.prompts import option_letters
from inspect_sparc.core.suggest import check_choice

Extraction = Literal["paper", "strict"]
EXTRACTIONS: tuple[str, ...] = ("paper", "strict")

PARENTHESISED_LETTER = re.compile(r"\(([A-D])\)")
"""`(A)`-style letters: the first choice of both readings."""

BARE_LETTER = re.compile(r"(?<![A-Za-z0-9_])([A-D])(?![A-Za-z0-9_])")
"""Capital letters A-D standing alone (not inside a word): the strict fallback."""

PAPER_LETTERS = "ABCD"
"""The paper reads these capitals, wherever they are, and maps them with zip("ABCD", options)."""


@dataclass(frozen=True)
class Reading:
    """What was read from a reply, and by which rule.

    `rule`: "parenthesised" (`(X)`), "standalone" (a capital standing alone), "in_word" (a
    capital inside a word, paper only) or "none". `word` is the word holding an `in_word` letter.
    `first_option_fallback`: the letter named no option and the paper's reading took option A.
    """

    letter: str | None
    option: str | None
    rule: str
    word: str | None = None
    first_option_fallback: bool = False

    @property
    def names_option(self) -> bool:
        """Whether an option was read.

        Returns:
            True when `option` is set."""
        return self.option is not None

    def describe(self) -> str:
        """Which rule picked which letter and option, in words (for score explanations).

        Returns:
            The description, a phrase."""
        if self.letter is None:
            return "no option letter found"
        if self.rule == "parenthesised":
            how = f"parenthesised ({self.letter})"
        elif self.rule == "in_word":
            how = f"bare capital {self.letter} inside the word {self.word!r}"
        else:
            how = f"standalone capital {self.letter}"
        if self.option is None:
            return f"{how}, which names no option"
        if self.first_option_fallback:
            return f"{how}, which names no option, so the first option (A) {self.option!r}"
        return f"{how}: ({self.letter}) {self.option!r}"


def extract_letter(text: str) -> str | None:
    """The strict letter: the last `(A)`-style letter; else the last standalone capital A-D.

    Args:
        text: the model's reply.

    Returns:
        The letter, or None."""
    for pattern in (PARENTHESISED_LETTER, BARE_LETTER):
        matches: list[str] = pattern.findall(text)
        if matches:
            return matches[-1]
    return None


def read_strict(text: str, options: list[str]) -> Reading:
    """The strict reading: a letter that names no option reads as no option.

    Args:
        text: the model's reply.
        options: the question's options, in letter order.

    Returns:
        The reading."""
    parenthesised = PARENTHESISED_LETTER.findall(text)
    letter = extract_letter(text)
    rule = "none" if letter is None else "parenthesised" if parenthesised else "standalone"
    mapping = dict(zip(option_letters(len(options)), options, strict=True))
    return Reading(letter=letter, option=mapping.get(letter) if letter else None, rule=rule)


def word_around(text: str, index: int) -> str:
    """The run of letters, digits and underscores holding `text[index]`.

    Args:
        text: the text.
        index: a position in it.

    Returns:
        The word (empty when `text[index]` is no word character)."""
    start, end = index, index + 1
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[start:end]


# Opens as read_strict does (same arguments, `(X)` first); the two readings differ on purpose.
def read_paper(text: str, options: list[str]) -> Reading:
    """The authors' reading (`get_answer`): no option only when the reply holds no A-D capital.

    Args:
        text: the model's reply.
        options: the question's options, in letter order.

    Returns:
        The reading."""
    parenthesised = PARENTHESISED_LETTER.findall(text)
    word = None
    if parenthesised:
        letter, rule = parenthesised[-1], "parenthesised"
    else:
        index = max(text.rfind(letter) for letter in PAPER_LETTERS)
        if index < 0:
            return Reading(letter=None, option=None, rule="none")
        letter, word = text[index], word_around(text, index)
        rule = "standalone" if word == letter else "in_word"
    mapping = dict(zip(PAPER_LETTERS, options, strict=False))  # as zip("ABCD", options)
    fallback = letter not in mapping
    return Reading(
        letter=letter,
        option=options[0] if fallback else mapping[letter],
        rule=rule,
        word=word if rule == "in_word" else None,
        first_option_fallback=fallback,
    )


def check_extraction(extraction: str) -> Extraction:
    """`extraction` itself when valid, else a ValueError listing the valid ones.

    Args:
        extraction: the rule as given.

    Returns:
        The rule."""
    return check_choice(extraction, EXTRACTIONS, "extraction")  # type: ignore[return-value]


def read_answer(text: str, options: list[str], extraction: str = "paper") -> Reading:
    """The option read from `text` by the `extraction` rule ("paper" or "strict").

    Args:
        text: the model's reply.
        options: the question's options, in letter order.
        extraction: the reading rule.

    Returns:
        The reading: the letter, the option and the rule that picked it."""
    reader = read_paper if check_extraction(extraction) == "paper" else read_strict
    return reader(text, options)
