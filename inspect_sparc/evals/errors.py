"""Errors a user fixes on the command line (a bad `-T` argument, a source that cannot be loaded),
shown by `inspect eval` as their message alone instead of under a 250-line traceback.

Inspect's CLI prints an exception of its `PrerequisiteError` class as the bare message; any other
exception raised while a task is built gets the full traceback. Inspect has no public way to mark
an error this way, so `plain_errors` re-raises our errors as subclasses of both the original type
(callers still catch `ValueError`, `SourceError`, `RecordError`) and that private class. Should a
later Inspect move it, the errors are raised unchanged: the message is then the traceback's last
line, which is where the user's eye lands anyway.

Inspect prints that message through its rich console: on stdout, wrapped at the terminal width,
and not at all under `--display none` (the console is quiet there). So when one of our errors is
raised under Inspect's exception hook (its CLI and `eval()` install it), `plain_errors` puts a
hook in front of it that writes our message on stderr, one line, in every display mode. (Under
`--json` Inspect itself prints the message on stderr and exits through its `SilentException`,
which our hook passes on.) A plain Python caller keeps the usual traceback.

An error raised while a sample runs (a baseline solver in another protocol's task) cannot be
shown this way: Inspect draws every task error as a traceback panel (and none at all under
`--display none`), and `inspect eval` exits 0 after it, the log's status saying `error`. So
`say_last` prints such an error's line once more, on stderr, as Inspect's command line exits:
the last thing on the screen in every display mode (docs/protocols.md).

Inspect's own errors for a mistake on its command line end in a traceback of about 200 lines: a
solver or a model provider that no package registered (`--solver inspect_sparc/nonexistent`,
`--model nonexist/model`). In a run of this package's tasks, `plain_inspect_errors` shows them as
one line too, with the names probably meant. And `--model mockllm/model` with a task's own
solver, offline, failed in every sample under a 250-line traceback, exiting 0: Inspect's mockllm
counts tokens with tiktoken, which downloads its encoding file on first use. A task built under
Inspect's command line with that model and no `--solver` loads the encoding first, and stops
with one line naming the offline ways (`stop_mockllm_offline`).

Inspect drops a `-T` argument its task does not declare, with a warning only (none under
`--display none`), so `-T levle=5` ran all 500 puzzles and `sparc_hard -T level=3` ran level 5.
`plain_errors` therefore shows Inspect a signature that also takes any other name, and stops on
every name its task does not take: one line naming the argument probably meant, or the tasks
that do take it. (In an eval set `-T` reaches every task: give tasks that differ in their
arguments their own, from Python: `eval_set([sparc(), sparc_gym(max_steps=50)], ...)`.)

Not an error but said the same way, once as the task is built: `--limit` or `--sample-id` on a
shipped subset (`warn_if_part_of_subset`), whose split estimate then rests on part of the subset.
"""

from __future__ import annotations

import atexit
import functools
import inspect
import sys
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any, TypeVar

from inspect_sparc.core.puzzle.parse import RecordError
from inspect_sparc.core.suggest import did_you_mean
from inspect_sparc.evals.selection import ALL_PUZZLES, SELECTION_ARGUMENTS
from inspect_sparc.runtime.downloads import SourceError

try:
    # Private: Inspect has no public way to print a task error without its traceback.
    from inspect_ai._util.error import (  # inspect-evals-lint: ignore[IECQ001] -- no public one
        PrerequisiteError as _Plain,
    )
except ImportError:  # pragma: no cover - only when Inspect moves its private class

    class _Plain(Exception):  # type: ignore[no-redef]
        """Stand-in: without Inspect's class the errors keep their traceback."""


class _OneLine(Exception):
    """Mixin: the original error type's message, also as `.message` (what Inspect prints)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)  # the original type's constructor (next in the MRO)
        self.message: Any = message  # Inspect types it as a rich renderable


class PlainValueError(_OneLine, ValueError, _Plain):
    """A bad task argument; the message lists the valid values."""


class PlainTypeError(_OneLine, TypeError, _Plain):
    """An argument name the task does not take; the message names the one probably meant."""


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

#: The module of Inspect's exception hook (`inspect_ai._util.error.exception_hook`).
_INSPECT_HOOK_MODULE = "inspect_ai._util.error"


def _message_on_stderr(hook: Callable[..., Any]) -> Callable[..., None]:
    """An exception hook that prints our errors' message, and Inspect's of `INSPECT_NAME_ERRORS`,
    alone on stderr (one line), else defers to `hook`."""

    def show(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        if isinstance(error, _OneLine):
            print(" ".join(str(error).split()), file=sys.stderr, flush=True)
        elif _is_name_error(error, trace):
            line = " ".join(f"{error}{_names_meant(str(error))}".split())
            print(line, file=sys.stderr, flush=True)
        else:
            hook(kind, error, trace)

    show.one_line = True  # type: ignore[attr-defined]
    return show


def _hook_is_ours() -> bool:
    """True when `_message_on_stderr`'s hook is the one in charge."""
    return bool(getattr(sys.excepthook, "one_line", False))


def show_in_every_display() -> None:
    """Put `_message_on_stderr` in front of Inspect's exception hook, when that one is in charge."""
    if not _hook_is_ours() and getattr(sys.excepthook, "__module__", None) == _INSPECT_HOOK_MODULE:
        sys.excepthook = _message_on_stderr(sys.excepthook)


#: The module only Inspect's command line loads (`inspect eval`, `python -m inspect_ai eval`).
_INSPECT_CLI_MODULE = "inspect_ai._cli.main"
#: The lines `say_last` prints at exit, in the order first said (samples fail in threads too).
_last_lines: list[str] = []
_last_lines_lock = threading.Lock()


def _print_last_lines() -> None:
    """Print every line `say_last` collected, on stderr."""
    for line in _last_lines:
        print(line, file=sys.stderr, flush=True)


def say_last(message: str) -> None:
    """Under Inspect's command line, print `message` (as one line) on stderr when it exits, once.

    For errors raised inside a running sample, which Inspect shows under a traceback, or not at
    all under `--display none`. Elsewhere (Python's `eval()`, tests) the log's error says it.

    Args:
        message: the error's message; its whitespace runs (line breaks included) become single
            spaces, and a line already collected is not printed twice."""
    if _INSPECT_CLI_MODULE not in sys.modules:
        return
    line = " ".join(message.split())
    with _last_lines_lock:
        if not _last_lines:
            atexit.register(_print_last_lines)
        if line not in _last_lines:
            _last_lines.append(line)


def plain_errors(task_function: F) -> F:
    """Wrap a task function so its argument and source errors show as one line in the CLI, and
    an argument name it does not take stops it (see the module's docstring).

    Args:
        task_function: A `@task` function of this package (its signature names its arguments).

    Returns:
        The wrapped function, with a signature Inspect passes every `-T` argument to.
    """
    name = task_function.__name__
    signature = inspect.signature(task_function)
    _TASK_ARGUMENTS[name] = tuple(signature.parameters)

    @functools.wraps(task_function)
    def build(*args: Any, **kwargs: Any) -> Any:
        warn_if_openai_too_old()
        plain_inspect_errors()
        try:
            task = task_function(*args, **_declared(name, kwargs))
            stop_mockllm_offline()  # once the task's own arguments and records are good
            warn_if_part_of_subset(str(kwargs.get("puzzles", ALL_PUZZLES)))
            return task
        except _Plain:
            show_in_every_display()
            raise
        except Exception as error:
            for kind, plain in PLAIN:
                if isinstance(error, kind):
                    show_in_every_display()
                    raise plain(str(error)) from error
            raise

    # Inspect passes every -T argument to a task whose signature takes `**kwargs`.
    others = inspect.Parameter(_OTHERS, inspect.Parameter.VAR_KEYWORD, annotation=Any)
    build.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[*signature.parameters.values(), others]
    )
    return build  # type: ignore[return-value]


@functools.cache
def warn_if_openai_too_old() -> None:
    """One line when the installed `openai` is older than Inspect's OpenAI providers need (the
    `train-verifiers` extra pins openai < 3): those models would fail, and with
    `display="none"` without a word. Once a process, when the first task is built: Inspect is
    loaded by then, and importing the package stays free of it."""
    import importlib.metadata
    import importlib.util
    import sys

    if importlib.util.find_spec("openai") is None:
        return
    try:
        # Inspect's own minimum openai version (it differs between Inspect releases); no public
        # API says it, and a rename only silences this check (the first except below)
        from inspect_ai.model._providers import (  # inspect-evals-lint: ignore[IECQ001] -- no API
            providers,
        )

        check = providers.validate_openai_client
    except (ImportError, AttributeError):
        return
    try:
        check("Inspect's OpenAI providers")
    except Exception as error:  # noqa: BLE001 - Inspect's PrerequisiteError: the version
        need = str(getattr(error, "message", error)).split("requires at least version ")[-1]
        sys.stderr.write(
            f"inspect-sparc: openai {importlib.metadata.version('openai')} is installed, but "
            f"Inspect's openai/ and openai-api/ models need {need.split(' of ')[0]}: the "
            "train-verifiers extra (verifiers 0.4) pins openai<3; evaluate from an environment "
            "without it\n"
        )


#: The name of the catch-all parameter Inspect sees (never a real task argument).
_OTHERS = "other_task_arguments"
#: Every wrapped task's argument names, by task: a name one of them declares is no typo.
_TASK_ARGUMENTS: dict[str, tuple[str, ...]] = {}


def _declared(task: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """`kwargs`, once every name in it is one `task` declares; else a PlainTypeError naming, for
    each other name, the tasks that take it or the argument probably meant."""
    own = _TASK_ARGUMENTS[task]
    unknown = [key for key in kwargs if key not in own]
    if unknown:
        named = "; ".join(_not_taken(key, own) for key in unknown)
        raise PlainTypeError(
            f"{task} takes no argument {named}; its arguments are {', '.join(own)}"
        )
    return kwargs


def _not_taken(key: str, own: tuple[str, ...]) -> str:
    """`'key' (sparc, sparc_gym take it)` for another task's argument, else `'key' (did you
    mean ...?)`."""
    _register_every_task()
    takers = [name for name, names in _TASK_ARGUMENTS.items() if key in names]
    if takers:
        verb = "takes" if len(takers) == 1 else "take"
        return f"{key!r} ({', '.join(sorted(takers, key=_task_order))} {verb} it)"
    return f"{key!r}{did_you_mean(key, own)}"


def _register_every_task() -> None:
    """Import every task of the package (through its Inspect entry point, the registry module),
    so `_TASK_ARGUMENTS` knows them all: only when an argument is refused."""
    from importlib.metadata import entry_points

    for point in entry_points(group="inspect_ai", name=__name__.split(".")[0]):
        point.load()


def _task_order(task: str) -> tuple[int, str]:
    """The tasks in the order the package lists them (sparc first), else by name."""
    order = list(SELECTION_ARGUMENTS)
    return (order.index(task) if task in order else len(order), task)


#: Inspect's errors for a name on its command line that nothing registered: (the Inspect function
#: raising it, the start of its message).
INSPECT_NAME_ERRORS = (
    ("solver_from_spec", "Unknown solver"),
    ("get_model", "Model API"),
    ("get_model", "Model name"),
)


def command_line() -> dict[str, Any] | None:
    """The parameters of the running `inspect eval` or `inspect eval-set` (Click's context), when
    it runs one of this package's tasks; None elsewhere (Python's `eval()`, other packages').

    Returns:
        Click's parameters of the command by name (`tasks`, `model`, `solver`, ...), or None."""
    if _INSPECT_CLI_MODULE not in sys.modules:
        return None
    import click

    context = click.get_current_context(silent=True)
    if context is None:
        return None
    package = __name__.split(".")[0] + "/"
    tasks = context.params.get("tasks") or ()
    if not any(str(task).startswith(package) for task in tasks):
        return None
    return dict(context.params)


def plain_inspect_errors() -> None:
    """In a run of this package's tasks from Inspect's command line, put `_message_on_stderr` in
    front of the exception hook: Inspect's errors of `INSPECT_NAME_ERRORS` show as one line on
    stderr (the process still exits 1). Called when Inspect loads the entry point, and as a task
    is built."""
    if not _hook_is_ours() and command_line() is not None:
        sys.excepthook = _message_on_stderr(sys.excepthook)


def _is_name_error(error: BaseException, trace: TracebackType | None) -> bool:
    """True for a ValueError of `INSPECT_NAME_ERRORS`, raised in Inspect's function named there."""
    if not isinstance(error, ValueError) or trace is None:
        return False
    while trace.tb_next is not None:
        trace = trace.tb_next
    code = trace.tb_frame.f_code
    module = str(trace.tb_frame.f_globals.get("__name__", ""))
    return module.startswith("inspect_ai.") and any(
        code.co_name == function and str(error).startswith(start)
        for function, start in INSPECT_NAME_ERRORS
    )


def _names_meant(message: str) -> str:
    """For an unknown solver of this package, `; did you mean ...?` and the package's solvers;
    else "" (Inspect's model error names the format already)."""
    if not message.startswith("Unknown solver "):
        return ""
    asked = message.split()[2]
    package = __name__.split(".")[0] + "/"
    try:
        # Private: Inspect has no public list of the registered solvers.
        from inspect_ai._util.registry import (  # inspect-evals-lint: ignore[IECQ001] -- no API
            registry_find,
            registry_info,
        )

        found = registry_find(lambda info: info.type in ("solver", "agent"))
        ours = sorted(n for n in (registry_info(o).name for o in found) if n.startswith(package))
    except (ImportError, AttributeError):
        return ""
    if not asked.startswith(package) or not ours:
        return ""
    short = [name.removeprefix(package) for name in ours]
    meant = did_you_mean(asked.removeprefix(package), short).replace(" '", f" '{package}")
    return f"{meant}; this package's solvers: {', '.join(ours)}"


#: The encoding Inspect's `mockllm` counts tokens in, with tiktoken (inspect_ai.model._tokens).
TIKTOKEN_ENCODING = "o200k_base"


#: Inspect's own solvers that call the model (`--solver generate`): with mockllm offline they
#: fail as the task's own solver does.
MODEL_SOLVERS = frozenset({"generate", "self_critique", "multiple_choice", "basic_agent", "react"})


def stop_mockllm_offline() -> None:
    """Under Inspect's command line, with `--model mockllm/...` and a solver that calls the model
    (the task's own, or one of MODEL_SOLVERS), a PlainValueError when tiktoken cannot load its
    encoding file (offline, not cached): else every sample fails under a traceback. This
    package's baselines and a solver of the user's own are left to run."""
    params = command_line()
    if params is None or params.get("run_config"):
        return
    solver = str(params.get("solver") or "")
    if solver and solver.removeprefix("inspect_ai/") not in MODEL_SOLVERS:
        return
    # --model (or INSPECT_EVAL_MODEL, which Click reads for it): one model or several, by commas
    mockllm = [m for m in str(params.get("model") or "").split(",") if m.startswith("mockllm/")]
    if not mockllm:
        return
    model = mockllm[0]
    try:
        import tiktoken

        tiktoken.get_encoding(TIKTOKEN_ENCODING)
    except ImportError:
        return
    except Exception as error:  # requests' or tiktoken's own, whichever failed
        raise PlainValueError(
            f"{model} counts tokens with tiktoken, which could not load its {TIKTOKEN_ENCODING} "
            f"encoding file ({type(error).__name__}; offline?): offline, answer with "
            "--model inspect_sparc/replay or run a baseline solver "
            "(--solver inspect_sparc/search_solver)"
        ) from error


def warn_if_part_of_subset(puzzles: str) -> None:
    """Under Inspect's command line, one line on stderr when `--limit` or `--sample-id` runs part
    of a shipped subset: they keep the subset's first or named puzzles, not a random part of each
    stratum, so the split estimate the log headlines rests on fewer puzzles than the subset was
    drawn for (and a stratum with none is estimated from the others).

    Args:
        puzzles: `puzzles=` of the task: "all" (nothing to say) or a shipped subset's name.
    """
    options = command_line() or {}
    part = [
        f"--{o.replace('_', '-')} {options[o]}" for o in ("limit", "sample_id") if options.get(o)
    ]
    if puzzles == ALL_PUZZLES or not part:
        return
    print(
        f"inspect-sparc: {' and '.join(part)} runs part of puzzles={puzzles}, not a random part "
        "of each stratum: the split estimate (accuracy) from it may be biased and rests on fewer "
        "puzzles than the subset holds. Run the whole subset (informative:50 is the smallest)",
        file=sys.stderr,
        flush=True,
    )
