"""`--rescore`: score the logged answers again with the installed scorers (for logs written by
an older version), through Inspect's own `score`, one log in memory at a time."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_sparc.report.read.logs import LogEntry, short_task

if TYPE_CHECKING:  # pragma: no cover
    from inspect_ai.scorer import Scorer


def _sparc_scorer() -> Any:
    from inspect_sparc.evals.sparc.scorer import sparc_scorer

    return sparc_scorer


def _gym_scorer() -> Any:
    from inspect_sparc.evals.sparc.gym.scorer import gym_scorer

    return gym_scorer


def _agent_scorer() -> Any:
    from inspect_sparc.evals.sparc.agent.scorer import agent_scorer

    return agent_scorer


def _algopuzzlevqa_scorer() -> Any:
    from inspect_sparc.evals.algopuzzlevqa.scorer import algopuzzlevqa_scorer

    return algopuzzlevqa_scorer


#: Each scorer of the package by registry name -> its factory, imported from the one module
#: that defines it only when asked for (never a task module, never the whole registry): the
#: one place the report reaches the evals' code (`tests/test_layers.py` names it).
SCORERS: dict[str, Callable[[], Any]] = {
    "sparc_scorer": _sparc_scorer,
    "gym_scorer": _gym_scorer,
    "agent_scorer": _agent_scorer,
    "algopuzzlevqa_scorer": _algopuzzlevqa_scorer,
}


def installed_scorer(name: str, params: dict[str, Any] | None) -> Scorer:
    """The installed scorer of that registry name (`inspect_sparc/sparc_scorer`), imported from
    the one module that defines it (a KeyError for a scorer the package does not have).

    Args:
        name: the scorer's registry name as a log's `results.scores[0].scorer` holds it.
        params: the arguments the log's scorer was made with (`results.scores[0].params`), or
            None.

    Returns:
        The scorer, made with those arguments.

    Raises:
        KeyError: for a name not in `SCORERS`."""
    made: Scorer = SCORERS[short_task(name)]()(**(params or {}))
    return made


def rescore_logs(entries: list[LogEntry], out_dir: Path) -> tuple[list[str], list[str]]:
    """Rescored copies of our logs under `out_dir` (the originals are never written), and one
    line per log that could not be rescored (it is reported as logged).

    Args:
        entries: the logs `read_headers` found; only readable ones of our tasks are rescored.
        out_dir: the folder the copies are written to (made if missing), each named
            `<index>-<original name>`.

    Returns:
        (the path to read per log of ours: the rescored copy, or the original where rescoring
        failed; one line per failure with the error)."""
    from inspect_ai import score
    from inspect_ai.log import read_eval_log, write_eval_log

    out_dir.mkdir(parents=True, exist_ok=True)
    paths, problems = [], []
    for i, entry in enumerate(entries):
        if not entry.ours:
            continue
        try:
            header = entry.header
            assert header is not None and header.results is not None
            first = header.results.scores[0]
            scorer = installed_scorer(first.scorer, first.params)
            log = read_eval_log(entry.path)
            rescored = score(log, scorers=[scorer], action="overwrite", display="none")
            target = out_dir / f"{i:03d}-{Path(entry.path).name}"
            write_eval_log(rescored, str(target))
            paths.append(str(target))
            del log, rescored
        except Exception as error:  # noqa: BLE001 - a log we cannot rescore is kept as logged
            problems.append(f"{entry.path}: not rescored ({type(error).__name__}: {error})")
            paths.append(entry.path)
    return paths, problems
