"""Errors a user fixes on the command line (a bad `-T` argument, a source that cannot be loaded),
shown by `inspect eval` as their message alone instead of under a 250-line traceback.

Inspect's CLI prints an exception of its `PrerequisiteError` class as the bare message; any other
exception raised while a task is built gets the full traceback. Inspect has no public way to mark
an error this way, so `plain_errors` re-raises our errors as subclasses of both the original type
(callers still catch `ValueError`, `SourceError`, `RecordError`) and that private class. Should a
later Inspect move it, the errors are raised unchanged: the message is then the traceback's last
line, which is where the user's eye lands anyway.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from inspect_sparc.core.puzzle import RecordError
from inspect_sparc.evals.downloads import SourceError

try:
    # Private: Inspect has no public way to print a task error without its traceback.
    from inspect_ai._util.error import (  # inspect-evals-lint: ignore[IECQ001] -- no public one
        PrerequisiteError as _Plain,
    )
except ImportError:  # pragma: no cover - only when Inspect moves its private class

    class _Plain(Exception):  # type: ignore[no-redef]
        """Stand-in: without Inspect's class the errors keep their traceback."""


class _OneLine:
    """Mixin: the original error type's message, also as `.message` (what Inspect prints)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)  # the original type's constructor (next in the MRO)
        self.message = message


class PlainValueError(_OneLine, ValueError, _Plain):
    """A bad task argument; the message lists the valid values."""


class PlainSourceError(_OneLine, SourceError, _Plain):
    """Records could not be loaded; the message names the source and the ways out."""


class PlainRecordError(_OneLine, RecordError, _Plain):
    """A record outside the published schema; the message names the record and the field."""


#: Most specific first: a RecordError is also a ValueError.
PLAIN = (
    (RecordError, PlainRecordError),
    (SourceError, PlainSourceError),
    (ValueError, PlainValueError),
)

F = TypeVar("F", bound=Callable[..., Any])


def plain_errors(task_function: F) -> F:
    """Wrap a task function so its argument and source errors show as one line in the CLI."""

    @functools.wraps(task_function)
    def build(*args: Any, **kwargs: Any) -> Any:
        try:
            return task_function(*args, **kwargs)
        except _Plain:
            raise
        except Exception as error:
            for kind, plain in PLAIN:
                if isinstance(error, kind):
                    raise plain(str(error)) from error
            raise

    return build  # type: ignore[return-value]
