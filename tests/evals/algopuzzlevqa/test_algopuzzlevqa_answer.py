"""Answer reading: `strict` (standalone letters) and `paper` (the authors' get_answer).

The paper reading's parity with the authors' code is in test_algopuzzlevqa_reference.py."""

from __future__ import annotations

import pytest

from inspect_sparc.core.algopuzzlevqa.answer import extract_letter, read_answer

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


def test_strict_reading_maps_letter_to_text() -> None:
    choice = read_answer("Therefore the answer is (C) 8:56.", FOUR, "strict")
    assert (choice.letter, choice.option, choice.names_option) == ("C", "8:56", True)


def test_letter_beyond_the_options_names_none() -> None:
    choice = read_answer("The answer is (C).", TWO, "strict")
    assert (choice.letter, choice.option, choice.names_option) == ("C", None, False)


def test_no_letter_names_none() -> None:
    choice = read_answer("It is possible: Yes.", TWO, "strict")
    assert (choice.letter, choice.option) == (None, None)


@pytest.mark.parametrize(
    ("text", "options", "option", "rule", "described"),
    [
        ("So the answer is (C).", FOUR, "8:56", "parenthesised", "parenthesised (C): (C) '8:56'"),
        (
            "Do the counting first.",
            FOUR,
            "3:17",
            "in_word",
            "bare capital D inside the word 'Do': (D) '3:17'",
        ),
        ("It is B, I think.", FOUR, "1:02", "standalone", "standalone capital B: (B) '1:02'"),
        (
            "The answer is (C).",
            TWO,
            "No",
            "parenthesised",
            "parenthesised (C), which names no option, so the first option (A) 'No'",
        ),
        ("it is possible: yes.", TWO, None, "none", "no option letter found"),
    ],
)
def test_paper_reading_says_which_rule_picked_the_letter(
    text: str, options: list[str], option: str | None, rule: str, described: str
) -> None:
    reading = read_answer(text, options, "paper")
    assert (reading.option, reading.rule, reading.describe()) == (option, rule, described)


def test_strict_reading_never_reads_inside_words_nor_invents_an_option() -> None:
    assert read_answer("Do the counting first.", FOUR, "strict").option is None
    reading = read_answer("The answer is (C).", TWO, "strict")
    assert (reading.letter, reading.option, reading.describe()) == (
        "C",
        None,
        "parenthesised (C), which names no option",
    )


def test_unknown_extraction_lists_valid_ones() -> None:
    with pytest.raises(ValueError, match="Valid extractions: paper, strict"):
        read_answer("(A)", TWO, "loose")
