"""Logs -> the sample frame: one row per sample and epoch (the run's identity and settings, the
puzzle's facts, every score key, tokens, time), each log's sample summaries streamed without
messages or events, so no log is ever held whole.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import protocols as P
from inspect_sparc.contract import scores as K
from inspect_sparc.core.puzzle.rules import RULES
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.logs import LogEntry
from inspect_sparc.report.read.puzzles import RULE_COLUMNS, PuzzleCache, is_test_grid_hash
from inspect_sparc.report.read.registry import SETTINGS
from inspect_sparc.report.read.runs import SPARC_TASKS, run_steps, runs_frame, sum_known

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from inspect_ai.log import EvalSampleSummary

#: The rules a scorer reports breaking, in the scorers' order (`breaks_<rule>` keys and metrics).
BREAK_RULES = RULES


def score_values(sample: Any) -> tuple[dict[str, Any], dict[str, Any], str | None]:
    """The first score's value keys (rule keys as `breaks_<rule>`, either spelling), its
    metadata and answer.

    Args:
        sample: an `EvalSampleSummary` or `EvalSample`; read is its `scores` (scorer name ->
            `Score`), the first scorer's only.

    Returns:
        (the score's `value` as a dict: a dict value's keys with bare rule names renamed
        `breaks_<rule>`, a scalar value as `correct`; the score's `metadata`; its `answer`);
        ({}, {}, None) for an unscored sample."""
    if not sample.scores:
        return {}, {}, None
    score = next(iter(sample.scores.values()))
    value = score.value if isinstance(score.value, Mapping) else {K.CORRECT: score.value}
    out: dict[str, Any] = {}
    for key, v in value.items():
        name = K.breaks_key(key) if key in BREAK_RULES else key
        out[name] = v
    return out, dict(score.metadata or {}), score.answer


def sample_row(
    run: Mapping[str, Any], sample: Any, facts: Mapping[str, Any] | None
) -> dict[str, Any]:
    """One sample-epoch (an `EvalSampleSummary` or `EvalSample`): the run's identity and
    settings, the puzzle (`facts`: rule kinds, baselines), scores, tokens, time.

    Args:
        run: the run's row of the run frame (`log`, `run`, `task`, `model`, settings ...).
        sample: the sample; read are `id`, `epoch`, `metadata` (`level`, `puzzle`,
            `categories`, the human solver's `participant`, `seconds`, `gave_up`), `scores`,
            `model_usage`, `working_time` and `error`.
        facts: the puzzle's facts from `PuzzleCache.get`, or None where unknown.

    Returns:
        Column -> value: the run's identity and settings, `id`, `epoch`, `level`, tokens,
        `working_time` (seconds), `error` (its message), every score key, and for SPaRC tasks
        the rule kinds (`rules`, `has_<kind>`), `grid`, `test_grid`, `astar_solves`,
        `chance_exact` and `path_length` (counted from the answer where not logged)."""
    kinds = facts["rules"] if facts else None
    values, score_meta, answer = score_values(sample)
    meta = sample.metadata or {}
    usage = sample.model_usage or {}
    error = sample.error
    row: dict[str, Any] = {
        C.LOG: run[C.LOG],
        C.RUN: run[C.RUN],
        C.TASK: run[C.TASK],
        "task_version": run["task_version"],
        C.MODEL: run[C.MODEL],
        "baseline": run["baseline"],
        C.PROTOCOL: run[C.PROTOCOL],
        **{key: run.get(key) for key in SETTINGS},
        C.ID: str(sample.id),
        C.EPOCH: sample.epoch,
        C.LEVEL: meta.get(C.LEVEL),
        C.PUZZLE: meta.get("puzzle") if run[C.TASK] == P.ALGOPUZZLEVQA else None,
        C.CATEGORIES: ",".join(meta.get("categories") or ()) or None,
        "rules": None,
        "answer": answer,
        C.ENDED: score_meta.get(K.ENDED),
        C.PATH_LENGTH: score_meta.get(K.PATH_LENGTH),
        "input_tokens": sum(u.input_tokens for u in usage.values()) if usage else None,
        "output_tokens": sum(u.output_tokens for u in usage.values()) if usage else None,
        "reasoning_tokens": sum_known(u.reasoning_tokens for u in usage.values()),
        "working_time": sample.working_time,
        "error": getattr(error, "message", error),
        # the human solver's answers (`inspect_sparc/human`): who, in how many seconds
        "participant": meta.get("participant"),
        "answer_seconds": meta.get("seconds"),
        "gave_up": meta.get("gave_up"),
    }
    if run[C.TASK] in SPARC_TASKS:
        row["rules"] = ",".join(kinds) if kinds is not None else None
        row.update({f"has_{k}": (k in kinds) if kinds is not None else None for k in RULE_COLUMNS})
        row["grid"] = facts.get("grid") if facts else None
        row["test_grid"] = is_test_grid_hash(row["grid"])
        row["astar_solves"] = facts["astar"] if facts else None
        row["chance_exact"] = facts["chance"] if facts else None
        if row[C.PATH_LENGTH] is None and answer is not None:
            row[C.PATH_LENGTH] = answer_points(answer)
    row.update(values)
    return row


#: A point `(x, y)` of an answer, and the tail the scorer writes after 200 points.
POINT = re.compile(r"\(\s*-?\d+\s*,\s*-?\d+\s*\)")
MORE_POINTS = re.compile(r"\((\d+) more points\)\s*$")


def answer_points(answer: str) -> int:
    """Points in a logged answer (for logs without `path_length`): the `(x, y)` pairs, plus
    the N of a `... (N more points)` tail the scorer writes after 200 points.

    Args:
        answer: the score's `answer` text.

    Returns:
        The number of points."""
    more = MORE_POINTS.search(answer)
    return len(POINT.findall(answer)) + (int(more.group(1)) if more else 0)


def read_summaries(path: str) -> list[EvalSampleSummary]:
    """A log's sample summaries (scores, metadata, usage, times; no messages): what the report
    reads of every sample. A cancelled log has the samples it finished.

    Args:
        path: the log file.

    Returns:
        Inspect's `EvalSampleSummary` per sample and epoch."""
    from inspect_ai.log import read_eval_log_sample_summaries

    return read_eval_log_sample_summaries(path)


def samples_frame(
    logs: str | Path | Iterable[str | Path] | list[LogEntry],
    runs: pd.DataFrame | None = None,
    progress: Callable[[int, int], None] | None = None,
    problems: list[str] | None = None,
) -> pd.DataFrame:
    """One row per sample and epoch of every log of our tasks (scalars only: ids, settings,
    level, rule kinds present, every score key, gym ending and steps, path length, tokens,
    working time). Logs of other tasks and unreadable logs are skipped (see `read_headers`).

    Args:
        logs: log files or folders, or `read_headers` entries (read only where `runs` is None).
        runs: the run frame of those logs, or None to read it from `logs`.
        progress: called after each log with (logs read, logs in all), or None.
        problems: a list that gets one line per log whose samples were cut short (the rows
            read before the break are kept); None to say nothing.

    Returns:
        The sample frame (`sample_row` columns), with `correct` all NaN where no sample was
        scored; empty for no log.

    Raises:
        ImportError: where the installed inspect-ai cannot read samples by id."""
    import pandas as pd

    if runs is None:
        runs = runs_frame(logs)
    rows: list[dict[str, Any]] = []
    records = runs.to_dict("records")
    cache = PuzzleCache()
    for i, run in enumerate(records):
        try:
            summaries = read_summaries(run[C.LOG])
            source = str(run.get("source"))
            steps, traceback = run_steps(run)
            if run[C.TASK] in SPARC_TASKS:
                cache.fill(run[C.LOG], source, summaries)
            for summary in summaries:
                facts = cache.get(source, summary.id, steps, traceback)
                rows.append(sample_row(run, summary, facts))
        except ImportError:  # a missing Inspect feature stops the report, never shrinks it
            raise
        except Exception as error:  # noqa: BLE001 - a truncated stream keeps what was read
            if problems is not None:
                problems.append(f"{run['log']}: samples cut short ({type(error).__name__})")
        if progress:
            progress(i + 1, len(records))
    frame = pd.DataFrame(rows)
    if len(frame) and K.CORRECT not in frame:  # no sample scored (every one errored)
        frame[K.CORRECT] = float("nan")
    return frame
