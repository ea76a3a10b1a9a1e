"""`plain_errors`: user mistakes become one-line CLI errors; everything else is left alone.

What users rely on: the types they catch (`ValueError`, `SourceError`, `RecordError`) still
match, the original error stays attached as the cause, Inspect prints the message alone (its
`PrerequisiteError`), and a bug in the package (any other exception) keeps its full traceback.
"""

from __future__ import annotations

import inspect
import sys

import pytest
from inspect_ai._util.error import PrerequisiteError

from inspect_sparc.core.generate.generator import GenerateError
from inspect_sparc.core.puzzle.parse import RecordError
from inspect_sparc.evals.errors import (
    PlainRecordError,
    PlainSourceError,
    PlainValueError,
    plain_errors,
)
from inspect_sparc.runtime.downloads import SourceError


def raising(error: BaseException):
    @plain_errors
    def build(level: int = 1, *, source: str = "sample") -> str:
        """Build a task."""
        raise error

    return build


@pytest.mark.parametrize(
    ("error", "plain", "kinds"),
    [
        (ValueError("level must be one of 1, 2, 3, 4, 5; got 7"), PlainValueError, (ValueError,)),
        (SourceError("could not load 'x'"), PlainSourceError, (SourceError,)),
        (RecordError("record 3: no 'id'"), PlainRecordError, (RecordError, ValueError)),
        # any subclass counts, as the package's own GenerateError
        (GenerateError("n must be a positive whole number"), PlainValueError, (ValueError,)),
    ],
)
def test_user_errors_become_plain_keeping_type_message_and_cause(error, plain, kinds):
    with pytest.raises(PrerequisiteError) as raised:
        raising(error)()
    made = raised.value
    assert type(made) is plain  # the most specific one: a RecordError is also a ValueError
    assert all(isinstance(made, kind) for kind in kinds)
    assert str(made) == str(error) and made.message == str(error)
    assert made.__cause__ is error


@pytest.mark.parametrize(
    "error", [KeyError("level"), TypeError("bug"), RuntimeError("bug"), ZeroDivisionError()]
)
def test_other_errors_pass_through_unchanged(error):
    """A bug is not a user mistake: the same exception, with its traceback, not made plain."""
    with pytest.raises(type(error)) as raised:
        raising(error)()
    assert raised.value is error and not isinstance(raised.value, PrerequisiteError)


def test_an_error_already_plain_is_not_wrapped_again():
    error = PlainValueError("prompt must be one of paper, correct; got 'x'")
    with pytest.raises(PlainValueError) as raised:
        raising(error)()
    assert raised.value is error and raised.value.__cause__ is None


def test_the_wrapped_task_keeps_its_name_signature_and_result():
    """Inspect registers and documents a task by its function: name, docstring, parameters."""
    calls = []

    def sparc_like(level: int = 1, *, source: str = "sample") -> str:
        """Doc of the task."""
        calls.append((level, source))
        return f"task {level} {source}"

    wrapped = plain_errors(sparc_like)
    assert wrapped.__name__ == "sparc_like" and wrapped.__doc__ == "Doc of the task."
    own, shown = inspect.signature(sparc_like), inspect.signature(wrapped)
    # Every declared parameter as declared, then a catch-all, so Inspect passes on any -T name.
    assert list(shown.parameters.values())[:-1] == list(own.parameters.values())
    assert list(shown.parameters.values())[-1].kind is inspect.Parameter.VAR_KEYWORD
    assert shown.return_annotation == own.return_annotation
    assert wrapped(3, source="x") == "task 3 x" and wrapped() == "task 1 sample"
    assert calls == [(3, "x"), (1, "sample")]


def test_under_inspects_hook_the_message_goes_to_stderr_on_one_line(monkeypatch, capsys):
    """Inspect's hook prints through its rich console: stdout, wrapped, silent under
    `--display none`. Ours prints the message alone on stderr and leaves other errors to it."""
    from inspect_ai._util.error import exception_hook

    monkeypatch.setattr(sys, "excepthook", exception_hook())
    long = "level must be one of 1, 2, 3, 4, 5, a list of them (-T level=1,2) " * 3 + "[got 7]"
    with pytest.raises(PlainValueError) as raised:
        raising(ValueError(long))()
    error = raised.value
    sys.excepthook(type(error), error, error.__traceback__)
    shown = capsys.readouterr()
    assert shown.out == "" and shown.err == long.strip() + "\n"  # brackets kept: no markup

    bug = KeyError("level")
    sys.excepthook(KeyError, bug, None)  # not ours: Inspect's hook, the full report
    assert "KeyError" in capsys.readouterr().err


def test_without_inspects_hook_a_python_caller_keeps_the_traceback(monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    with pytest.raises(PlainValueError):
        raising(ValueError("level must be one of 1, 2, 3, 4, 5; got 7"))()
    assert sys.excepthook is sys.__excepthook__


def test_under_inspects_hook_other_errors_reach_the_hook_below_unchanged(monkeypatch):
    """A bug raised after one of our errors still gets Python's full report: the hook under
    Inspect's is handed the very type, error and traceback, as `sys.excepthook` would be."""
    from inspect_ai._util.error import exception_hook

    handed = []
    monkeypatch.setattr(sys, "excepthook", lambda *args: handed.append(args))
    monkeypatch.setattr(sys, "excepthook", exception_hook())  # Inspect's, over the recorder
    with pytest.raises(PlainValueError):
        raising(ValueError("level must be one of 1, 2, 3, 4, 5; got 7"))()
    try:
        {}["level"]
    except KeyError as error:
        bug, trace = error, error.__traceback__
    sys.excepthook(KeyError, bug, trace)
    assert len(handed) == 1
    assert handed[0][0] is KeyError and handed[0][1] is bug and handed[0][2] is trace


def test_a_hook_without_a_module_name_is_left_alone(monkeypatch):
    """Another tool's hook may be any callable, one without `__module__` too (a method
    wrapper): the user's error is still raised plain, and that hook stays in charge."""
    hook = sys.__excepthook__.__call__
    assert not hasattr(hook, "__module__")
    monkeypatch.setattr(sys, "excepthook", hook)
    with pytest.raises(PlainValueError):
        raising(ValueError("level must be one of 1, 2, 3, 4, 5; got 7"))()
    assert sys.excepthook is hook
