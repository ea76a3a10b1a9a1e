"""Answer extraction: last (A)-style letter, else last bare capital A-D, else nothing."""

from __future__ import annotations

import pytest

from inspect_sparc.algopuzzlevqa.answer import extract_letter, extract_option

FOUR = ["7:29", "1:02", "8:56", "3:17"]
TWO = ["No", "Yes"]


@pytest.mark.parametrize(
    ("text", "letter"),
    [
        ("The answer is (C).", "C"),
        ("(A) is tempting, but the answer is (D) 3:17.", "D"),
        ("So (B). Final check: option D looks wrong, A too.", "B"),  # (X) beats later bare ones
        ("The answer is B.", "B"),
        ("Between A and C, I pick C", "C"),
        ("**Answer: D**", "D"),
        ("Answer:\nA", "A"),
        ("C) 8:56", "C"),
        ("(E) is not an option letter; so A", "A"),
        ("I think the answer is 8:56.", None),
        ("Dogs And Cats, ABCD, B2, the_B", None),
        ("lowercase (b) and b do not count", None),
        ("", None),
    ],
)
def test_extract_letter(text: str, letter: str | None) -> None:
    assert extract_letter(text) == letter


def test_extract_option_maps_letter_to_text() -> None:
    choice = extract_option("Therefore the answer is (C) 8:56.", FOUR)
    assert (choice.letter, choice.option, choice.names_option) == ("C", "8:56", True)


def test_letter_beyond_the_options_names_none() -> None:
    choice = extract_option("The answer is (C).", TWO)
    assert (choice.letter, choice.option, choice.names_option) == ("C", None, False)


def test_no_letter_names_none() -> None:
    choice = extract_option("It is possible: Yes.", TWO)
    assert (choice.letter, choice.option) == (None, None)
