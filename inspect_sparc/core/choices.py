"""One wording for a value that is not among the valid ones: list them, and name the one meant.

A user who types `-T source=smaple` should read which value was probably meant, not only the
list; the closeness test is the standard library's (`difflib`), so it is the same everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches

#: How alike a typo must be to its intended value (difflib's ratio) to be suggested.
CLOSE_ENOUGH = 0.6


def closest(given: object, valid: Iterable[str]) -> str | None:
    """The valid value `given` most probably meant, or None when none is close."""
    if not isinstance(given, str) or not given:
        return None
    options = [str(option) for option in valid]
    folded = {option.lower(): option for option in options}
    if given.lower() in folded:  # a case slip: "Sample" for "sample"
        return folded[given.lower()]
    matches = get_close_matches(given.lower(), list(folded), n=1, cutoff=CLOSE_ENOUGH)
    return folded[matches[0]] if matches else None


def did_you_mean(given: object, valid: Iterable[str]) -> str:
    """` (did you mean 'x'?)` when a valid value is close to `given`, else the empty string."""
    match = closest(given, valid)
    return f" (did you mean {match!r}?)" if match is not None else ""
