"""What the page's server accepts from a browser (`core.human_input`): each malformed value is
refused with a message naming what was wrong, each well-formed one read as it was sent."""

from __future__ import annotations

import pytest

from inspect_sparc.core.human_input import (
    MAX_BODY_BYTES,
    HumanInputError,
    body_length,
    json_object,
    read_action,
    read_choice,
    read_count,
    read_field,
    read_handle,
    read_name,
    read_path,
    token_matches,
)


def test_a_path_is_read_as_sent_when_every_point_is_on_the_grid():
    assert read_path([[0, 0], [1, 0], [2, 0]], 3, 3) == ((0, 0), (1, 0), (2, 0))


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("(0,0)", "list of [x, y] pairs"),
        ([[0]], "must be a pair"),
        ([[0, 0, 0]], "must be a pair"),
        ([["0", 0]], "two integers"),
        ([[True, 0]], "two integers"),
        ([[0.5, 0]], "two integers"),
        ([[3, 0]], "off the grid"),
        ([[0, -1]], "off the grid"),
        ([[0, 0]] * 10, "more than the grid's 9 positions"),
    ],
)
def test_a_malformed_path_is_refused_saying_why(value, words):
    with pytest.raises(HumanInputError, match=words.replace("[", r"\[").replace("]", r"\]")):
        read_path(value, 3, 3)


def test_actions_choices_and_counts_are_whole_numbers_in_range():
    assert [read_action(a) for a in (0, 1, 2, 3)] == [0, 1, 2, 3]
    assert read_choice(3, 4) == 3
    assert read_count(None) == 0 and read_count(7) == 7
    for bad in (4, -1, True, "1", 1.0, None):
        with pytest.raises(HumanInputError):
            read_action(bad)
    for bad in (4, -1, False, "0"):
        with pytest.raises(HumanInputError):
            read_choice(bad, 4)
    with pytest.raises(HumanInputError, match="^moves: must be a whole number"):
        read_field({"moves": -3}, "moves", read_count)
    assert read_field({}, "undos", read_count) == 0  # an absent count is 0


def test_names_are_trimmed_and_bounded():
    assert read_name("  Ada   Lovelace ") == "Ada Lovelace"
    for bad in ("", "   ", "x" * 41, "a\x00b", 7, None):
        with pytest.raises(HumanInputError):
            read_name(bad)


def test_handles_are_short_url_safe_text():
    assert read_field({"offer": "abc-DEF_123"}, "offer", read_handle) == "abc-DEF_123"
    for bad in ("", "a/b", "a b", "x" * 65, None, 3):
        with pytest.raises(HumanInputError, match="^offer: .*malformed"):
            read_field({"offer": bad}, "offer", read_handle)
    with pytest.raises(HumanInputError, match="^participant: missing"):
        read_field({}, "participant", read_handle)


def test_bodies_are_bounded_json_objects():
    assert body_length(None) == 0 and body_length("12") == 12
    with pytest.raises(HumanInputError) as too_big:
        body_length(str(MAX_BODY_BYTES + 1))
    assert too_big.value.status == 413
    with pytest.raises(HumanInputError):
        body_length("-1")
    assert json_object(b"") == {} and json_object(b'{"a": 1}') == {"a": 1}
    for bad in (b"[1]", b"{", b"\xff", b"[" * 100_000):
        with pytest.raises(HumanInputError):
            json_object(bad)


def test_only_the_runs_token_matches():
    assert token_matches("abc", "abc")
    assert not token_matches("abd", "abc")
    assert not token_matches(None, "abc")
    assert not token_matches("", "abc")
