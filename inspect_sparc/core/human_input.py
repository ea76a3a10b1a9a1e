"""What a participant's browser may send to the human-baseline page, checked before any use.

The page's server (`evals/human/server.py`) reads every request body through these functions, so
a malformed, oversized or hostile request is refused with a message saying what was wrong (a
`HumanInputError`, answered as HTTP 4xx) before it can touch a puzzle or an answer. Pure logic:
no Inspect imports.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from inspect_sparc.core.puzzle.parse import Point

#: Largest request body read, in bytes: a path on the largest grid (13x13 positions, a few
#: characters a point) is under 2 KB, so 64 KB leaves room and refuses floods.
MAX_BODY_BYTES = 65_536
#: Longest participant name, in characters.
MAX_NAME_CHARS = 40
#: Largest move or undo count a page may report (far above any real play).
MAX_COUNT = 1_000_000
#: Longest opaque handle (participant, offer) a request may carry.
MAX_HANDLE_CHARS = 64

T = TypeVar("T")


class HumanInputError(ValueError):
    """A request the page's server refuses; `status` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def body_length(header: str | None) -> int:
    """The request's Content-Length, checked: a non-negative integer at most `MAX_BODY_BYTES`.

    Args:
        header: The Content-Length header's text, None when absent.

    Returns:
        The number of bytes to read (0 without a header).
    """
    if header is None or header.strip() == "":
        return 0
    text = header.strip()
    if not text.isdecimal():
        raise HumanInputError(f"Content-Length must be a whole number of bytes; got {text!r}")
    length = int(text)
    if length > MAX_BODY_BYTES:
        raise HumanInputError(
            f"request body too large: {length} bytes (at most {MAX_BODY_BYTES})", status=413
        )
    return length


def json_object(raw: bytes) -> dict[str, Any]:
    """A request body as a JSON object; an empty body is an empty object.

    Args:
        raw: The body's bytes (UTF-8 JSON).

    Returns:
        The decoded object.
    """
    if not raw.strip():
        return {}
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise HumanInputError(f"the request body is not valid JSON: {error}") from None
    if not isinstance(value, dict):
        raise HumanInputError("the request body must be a JSON object")
    return value


def _whole(value: object) -> int | None:
    """`value` when it is an integer (not a bool), else None."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def read_path(value: object, columns: int, rows: int) -> tuple[Point, ...]:
    """A submitted path: a list of `[x, y]` integer pairs, every one inside the grid, no more
    points than the grid has positions (a path visits each at most once).

    Args:
        value: The body's `path` field.
        columns: Grid positions per row.
        rows: Grid rows.

    Returns:
        The path as points.
    """
    if not isinstance(value, list):
        raise HumanInputError("path must be a list of [x, y] pairs")
    if len(value) > columns * rows:
        raise HumanInputError(
            f"path has {len(value)} points, more than the grid's {columns * rows} positions"
        )
    points: list[Point] = []
    for number, pair in enumerate(value):
        if not isinstance(pair, list) or len(pair) != 2:
            raise HumanInputError(f"path point {number} must be a pair [x, y]; got {pair!r:.40}")
        x, y = _whole(pair[0]), _whole(pair[1])
        if x is None or y is None:
            raise HumanInputError(f"path point {number} must hold two integers; got {pair!r:.40}")
        if not (0 <= x < columns and 0 <= y < rows):
            raise HumanInputError(f"path point {number} ({x}, {y}) lies off the grid")
        points.append((x, y))
    return tuple(points)


def read_action(value: object) -> int:
    """A step-by-step move: 0 right, 1 up, 2 left, 3 down (the gym's action numbers).

    Args:
        value: The body's `action` field.

    Returns:
        The action number.
    """
    action = _whole(value)
    if action is None or not 0 <= action <= 3:
        raise HumanInputError(f"action must be 0, 1, 2 or 3; got {value!r:.40}")
    return action


def read_choice(value: object, count: int) -> int:
    """A multiple-choice answer: the option's index, 0 to `count - 1`.

    Args:
        value: The body's `choice` field.
        count: How many options the question has.

    Returns:
        The option index.
    """
    choice = _whole(value)
    if choice is None or not 0 <= choice < count:
        raise HumanInputError(
            f"choice must be an option number 0 to {count - 1}; got {value!r:.40}"
        )
    return choice


def read_count(value: object) -> int:
    """A count the page reports (moves, undos): a whole number 0 to `MAX_COUNT`; absent is 0.

    Args:
        value: The field's value (read through `read_field`, which names it in a refusal).

    Returns:
        The count.
    """
    if value is None:
        return 0
    count = _whole(value)
    if count is None or not 0 <= count <= MAX_COUNT:
        raise HumanInputError(f"must be a whole number 0 to {MAX_COUNT}; got {value!r:.40}")
    return count


def read_name(value: object) -> str:
    """A participant's name: 1 to `MAX_NAME_CHARS` printable characters, spaces trimmed.

    Args:
        value: The body's `name` field.

    Returns:
        The name.
    """
    if not isinstance(value, str):
        raise HumanInputError("name must be text")
    name = " ".join(value.split())
    if not name:
        raise HumanInputError("name must not be empty")
    if len(name) > MAX_NAME_CHARS:
        raise HumanInputError(f"name is longer than {MAX_NAME_CHARS} characters")
    if not name.isprintable():
        raise HumanInputError("name must hold printable characters only")
    return name


# Documented like read_count: every field reader takes one value that read_field names in a refusal.
def read_handle(value: object) -> str:
    """An opaque handle the server gave out (a participant's, a puzzle offer's).

    Args:
        value: The field's value (read through `read_field`, which names it in a refusal).

    Returns:
        The handle.
    """
    if not isinstance(value, str) or not value or len(value) > MAX_HANDLE_CHARS:
        raise HumanInputError("missing or malformed")
    if not all(c.isalnum() or c in "-_" for c in value):
        raise HumanInputError("malformed")
    return value


def read_field(body: Mapping[str, object], name: str, reader: Callable[[object], T]) -> T:
    """One field of a request body read by `reader`, for readers shared by several fields
    (`read_count`, `read_handle`): a refusal says which field was wrong.

    Args:
        body: The request's JSON object (`json_object`).
        name: The field's name (an absent field reads as None).
        reader: The field's reader.

    Returns:
        What `reader` read.
    """
    try:
        return reader(body.get(name))
    except HumanInputError as error:
        raise HumanInputError(f"{name}: {error}", error.status) from None


def token_matches(given: str | None, expected: str) -> bool:
    """True when `given` is the run's token (compared in constant time).

    Args:
        given: The token a request carried, None when it carried none.
        expected: The run's token.

    Returns:
        Whether they are equal.
    """
    if given is None:
        return False
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))
