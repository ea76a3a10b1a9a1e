"""One wording for a value that is not among the valid ones: list them, and name the one meant.

A user who types `-T source=smaple` should read which value was probably meant, not only the
list; the closeness test is the standard library's (`difflib`), so it is the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches

#: How alike a typo must be to its intended value (difflib's ratio) to be suggested.
CLOSE_ENOUGH = 0.6
#: The fewest letters a part of a value must have to suggest the value (`grid`, not `a`).
MIN_PART = 4


def closest(given: object, valid: Iterable[str]) -> str | None:
    """The valid value `given` most probably meant, or None when none is close: the same value
    but for case or separators (`Path-Cell-Annotated`), else the shortest value that holds `given`
    whole (`annotated`, `grid`), else the most alike by difflib's ratio (`smaple`).

    Args:
        given: the value as given.
        valid: the values accepted.

    Returns:
        The closest valid value, or None."""
    if not isinstance(given, str) or not given:
        return None
    folded = {_fold(option): str(option) for option in valid}
    typed = _fold(given)
    if typed in folded:  # a case or separator slip: "Sample" for "sample"
        return folded[typed]
    holding = [option for option in folded if len(typed) >= MIN_PART and typed in option]
    if holding:  # a part of the value: "annotated" for "path_cell_annotated"
        return folded[min(holding, key=len)]
    matches = get_close_matches(typed, list(folded), n=1, cutoff=CLOSE_ENOUGH)
    return folded[matches[0]] if matches else None


def _fold(value: str) -> str:
    """`value` in lower case with `-` and spaces read as `_`."""
    return value.lower().replace("-", "_").replace(" ", "_")


def did_you_mean(given: object, valid: Iterable[str]) -> str:
    """` (did you mean 'x'?)` when a valid value is close to `given`, else the empty string.

    Args:
        given: the value as given.
        valid: the values accepted.

    Returns:
        The hint, to append to an error message."""
    match = closest(given, valid)
    return f" (did you mean {match!r}?)" if match is not None else ""


def check_choice(given: object, valid: Iterable[str], noun: str) -> str:
    """`given` itself when it is one of `valid`, else a ValueError that names the closest valid
    value and lists them all: `Unknown <noun> 'x' (did you mean 'y'?). Valid <noun>s: a, b.`

    Args:
        given: the value as given.
        valid: the values accepted, in the order the error lists them.
        noun: what the value is, singular (`extraction`, `prompt`).

    Returns:
        `given`, unchanged."""
    choices = list(valid)
    if given not in choices:
        raise ValueError(
            f"Unknown {noun} {given!r}{did_you_mean(given, choices)}. "
            f"Valid {noun}s: {', '.join(choices)}."
        )
    return str(given)
