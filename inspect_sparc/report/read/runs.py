"""Logs -> the run frame: one row per readable log of the package's tasks (its header's
identity, settings, size, tokens, time and the log's own metrics) and a display label per run.

Built on Inspect's own log reading: a log's header only (`header_only`), never its samples.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import protocols as P
from inspect_sparc.contract import scores as K
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read import registry as R
from inspect_sparc.report.read.logs import TASKS, LogEntry, read_headers, short_task
from inspect_sparc.report.read.reducer import decided_reducer, reducer_columns, shown_scores
from inspect_sparc.report.read.registry import FILTERS, SETTINGS

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from inspect_ai.log import EvalLog

#: SPaRC tasks (scored as SPaRC: levels, rules, paths).
SPARC_TASKS = frozenset(TASKS) - {P.ALGOPUZZLEVQA}
#: Settings that tell runs of one model and task apart in their labels when they differ.
DISTINGUISHING = (
    "source",
    "split",
    "subset",
    "levels",
    "puzzles",
    "extraction",
    "prevent_direct_answer",
    "max_image_size",
    "plot",
    "sample_ids",
    "limit",
)
#: Filters whose unset value means every one (an all-levels run reads `levels=all`, not `-`),
#: unless the run chose its puzzles another way (`--sample-id`, `--limit`: said instead).
ALL_WHEN_UNSET = frozenset({"levels", "puzzles"})
#: Sample ids named in a label before the rest are counted (`ids=a,b +3`).
IDS_SHOWN = 2
#: Solvers that answer without a model, shown as baselines.
BASELINE_SOLVERS = {
    R.SEARCH_SOLVER: "search (exact)",
    R.GYM_ASTAR: "A* baseline",
    R.GYM_RANDOM: "random baseline",
    R.AGENT_ASTAR: "A* baseline",
    R.AGENT_RANDOM: "random baseline",
}


def settings_of(header: EvalLog) -> dict[str, Any]:
    """The protocol settings of a run: task arguments over the task's own metadata.

    Args:
        header: the log's header; read are `eval.task_args` (the arguments given, None ones
            ignored) over `eval.metadata` (what the task recorded).

    Returns:
        Each of `registry.SETTINGS` (None where unset), and the filter columns of
        `registry.FILTERS` (`levels`, `puzzles`), a list argument joined by commas."""
    spec = header.eval
    merged: dict[str, Any] = {}
    merged.update(spec.metadata or {})
    merged.update({k: v for k, v in (spec.task_args or {}).items() if v is not None})
    settings = {key: merged.get(key) for key in SETTINGS}
    for arg, column in FILTERS.items():
        value = merged.get(arg)
        if value is None and settings.get(column) is not None:
            continue  # two tasks' arguments fill one column: the one this task has wins
        settings[column] = ",".join(map(str, value)) if isinstance(value, list) else value
    return settings


def model_of(header: EvalLog) -> tuple[str, bool]:
    """The model shown for a run, and whether it is a no-model baseline (named by its solver).

    Args:
        header: the log's header; read are `eval.solver` (registry name) and `eval.model`.

    Returns:
        (the baseline's name for a package baseline solver ("A* baseline" ...), "human" for
        the human solver, else `eval.model` such as `openai/gpt-4o`; whether it is a baseline)."""
    spec = header.eval
    solver = short_task(spec.solver or "")
    if solver in BASELINE_SOLVERS:
        return BASELINE_SOLVERS[solver], True
    if solver == "human":  # people on the page (`inspect_sparc/human`): a run like a model's
        return "human", False
    return spec.model, False


def metrics_of(header: EvalLog) -> dict[str, float]:
    """The log's own metrics (as Inspect computed and reduced them), first scorer's names bare:
    with several epoch reducers, the set `reducer.shown_scores` chooses; `metrics_reducer`
    says which.

    Args:
        header: the log's header; read is `results.scores` (each scorer's metrics per reducer).

    Returns:
        Metric name -> value as logged (rates as fractions: `accuracy`, `level_3` ...), later
        scorers' as `<scorer>/<metric>`, and `metrics_reducer` (the chosen set's reducer);
        empty for a log without results."""
    values: dict[str, float] = {}
    chosen = shown_scores(header.results)
    for i, score in enumerate(chosen):
        for name, metric in score.metrics.items():
            key = name if i == 0 else f"{score.name}/{name}"
            values.setdefault(key, metric.value)
    if chosen:
        values[C.REDUCER] = chosen[0].reducer or "mean"  # type: ignore[assignment]
    return values


def seconds_between(start: str | None, end: str | None) -> float | None:
    """Wall time of a run from the header's ISO stamps.

    Args:
        start: `stats.started_at` (ISO 8601), or None.
        end: `stats.completed_at`, or None (a run that never finished).

    Returns:
        The seconds from start to end; None where either stamp is missing."""
    from datetime import datetime

    if not start or not end:
        return None
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def run_row(entry: LogEntry) -> dict[str, Any]:
    """One run's row: identity, settings, size, tokens, time and every metric of its log.

    Args:
        entry: a readable log of our tasks (`LogEntry.ours`: its header is set).

    Returns:
        Column -> value: the log path, ids, task, model, protocol, settings, `sample_ids`,
        `limit`, `epochs`, `epochs_reducer` (joined by commas), `status`, `complete`, sample
        counts, summed tokens, `time_s`, `started_at`, `notes`, every metric (`metrics_of`)
        and the two reducer columns."""
    header = entry.header
    assert header is not None
    spec = header.eval
    settings = settings_of(header)
    model, baseline = model_of(header)
    usage = header.stats.model_usage or {}
    results = header.results
    row: dict[str, Any] = {
        C.LOG: entry.path,
        "run_id": spec.run_id,
        "eval_id": spec.eval_id,
        C.TASK: entry.task,
        "task_version": str(spec.task_version),
        C.MODEL: model,
        "baseline": baseline,
        "solver": short_task(spec.solver) if spec.solver and not baseline else None,
        C.PROTOCOL: P.protocol_of(entry.task or "", settings),
        **settings,
        "sample_ids": ids_text(spec.config.sample_id),
        "limit": limit_text(spec.config.limit),
        "epochs": spec.config.epochs or 1,
        "epochs_reducer": ",".join(spec.config.epochs_reducer or ["mean"]),
        "status": header.status,
        "complete": header.status == "success",
        "samples": results.completed_samples if results else None,
        "total_samples": results.total_samples if results else None,
        "input_tokens": sum(u.input_tokens for u in usage.values()) if usage else None,
        "output_tokens": sum(u.output_tokens for u in usage.values()) if usage else None,
        "reasoning_tokens": sum_known(u.reasoning_tokens for u in usage.values()),
        "time_s": seconds_between(header.stats.started_at, header.stats.completed_at),
        "started_at": header.stats.started_at,
        "notes": "; ".join(entry.notes),
    }
    row.update(metrics_of(header))
    row.update(reducer_columns(decided_reducer(row["epochs_reducer"], row.get(C.REDUCER))))
    return row


def ids_text(ids: Any) -> str | None:
    """The sample ids a run was limited to (`--sample-id`), as a label says them: the first
    `IDS_SHOWN` and how many more (`3f2a,91c0 +4`); None where it ran without.

    Args:
        ids: the log's `eval.config.sample_id`: one id, a list of them, or None.

    Returns:
        The text, or None."""
    if ids is None:
        return None
    listed = [str(i) for i in (ids if isinstance(ids, list | tuple) else [ids])]
    more = len(listed) - IDS_SHOWN
    return ",".join(listed[:IDS_SHOWN]) + (f" +{more}" if more > 0 else "")


def limit_text(limit: Any) -> str | int | None:
    """`--limit` as a setting: a count, or a range of samples as `10-20`.

    Args:
        limit: the log's `eval.config.limit`: a count, a (start, end) pair, or None.

    Returns:
        The count (or None) as it is, a pair as "start-end"."""
    return "-".join(map(str, limit)) if isinstance(limit, tuple | list) else limit


def sum_known(values: Iterable[int | None]) -> int | None:
    """A total that stays unknown where no part is known (reasoning tokens: a provider that
    never reports them gives None, not 0).

    Args:
        values: the parts (one per model's usage); None for a part not reported.

    Returns:
        The sum of the known parts; None where none is known."""
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def label_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """Add `run`, a label for display (tables and figures group by `log`, never by it): model,
    protocol and non-default settings, the settings that differ between runs of one model and
    task (source, split, subset, levels ...), `xN` for epochs, and `#k` whenever the text
    would otherwise repeat (repeated runs are labelled, never merged).

    Args:
        runs: the run frame without labels (one row per log: `model`, `task`, `protocol`,
            `epochs`, `started_at`, `log`, settings; `status` taken as "success" if absent).

    Returns:
        A copy sorted by start time then log, with `run` as its first column."""
    runs = runs.sort_values(["started_at", C.LOG], kind="stable").reset_index(drop=True)
    varying: dict[tuple[str, str], list[str]] = {}
    if "status" not in runs:
        runs = runs.assign(status="success")
    complete = runs[runs["status"] == "success"]  # a failed run's settings never relabel others
    for (model, task), group in complete.groupby([C.MODEL, C.TASK], dropna=False, sort=False):
        varying[(str(model), str(task))] = [
            key
            for key in DISTINGUISHING
            if key in group and group[key].map(_setting_text).nunique(dropna=False) > 1
        ]
    texts = []
    for _, row in runs.iterrows():
        parts = [str(row[C.MODEL]), setting_label(row)]
        label = " | ".join(p for p in parts if p)
        solver = row.get("solver")
        if isinstance(solver, str) and solver:  # not the task's own solver: say which
            label += f" solver={solver}"
        chosen = any(_setting_text(row.get(k)) != "-" for k in ("sample_ids", "limit"))
        for key in varying.get((str(row[C.MODEL]), str(row[C.TASK])), []):
            text = _setting_text(row.get(key))
            if text == "-" and (key not in ALL_WHEN_UNSET or chosen):
                continue  # unset: the run is told apart by what it did set
            label += f" {key}={'all' if key in ALL_WHEN_UNSET and text == '-' else text}"
        if row["epochs"] and int(row["epochs"]) > 1:
            label += f" x{int(row['epochs'])} epochs"
        if row["status"] != "success":  # numbered apart: a failed run never renumbers others
            label += f" [{row['status']}]"
        texts.append(label)
    from collections import Counter

    counts = Counter(texts)
    seen: Counter[str] = Counter()
    labels = []
    for text in texts:
        seen[text] += 1
        labels.append(f"{text} #{seen[text]}" if counts[text] > 1 else text)
    runs.insert(0, C.RUN, labels)
    return runs


def _setting_text(value: Any) -> str:
    """A setting as label text: a path by its file name, missing as `-`."""
    if value is None or _isnan(value):
        return "-"
    if isinstance(value, float) and value.is_integer():  # a count read as float: 5, not 5.0
        value = int(value)
    text = str(value)
    return Path(text).name if ("/" in text or os.sep in text) else text


def setting_label(row: Mapping[str, Any]) -> str:
    """Short text for a run's protocol and non-default settings.

    Args:
        row: a run row (`protocol`, `task`, `prompt`, `plot`, `max_steps`).

    Returns:
        The protocol, then "hard", `prompt=`, `plot=` (visual protocols) and `max_steps=`
        where they are not the defaults, joined by spaces."""
    parts = [str(row[C.PROTOCOL])]
    if row.get(C.TASK) == P.SPARC_HARD:
        parts.append("hard")
    prompt = row.get("prompt")
    if prompt not in (None, "paper", "describe"):
        parts.append(f"prompt={prompt}")
    if row.get(C.PROTOCOL) in ("visual", "gym_visual") and row.get("plot") not in (
        None,
        "original",
    ):
        parts.append(f"plot={row['plot']}")
    from inspect_sparc.core.episode.stepper import DEFAULT_MAX_STEPS

    steps = row.get("max_steps")
    if steps is not None and not _isnan(steps) and int(steps) != DEFAULT_MAX_STEPS:
        parts.append(f"max_steps={int(steps)}")
    return " ".join(parts)


def _isnan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def runs_frame(
    logs: str | Path | Iterable[str | Path] | list[LogEntry],
) -> pd.DataFrame:
    """One row per readable log of our tasks: header, settings, the log's metrics, a label.

    Args:
        logs: log files or folders (read with `read_headers`), or the entries `read_headers`
            already made.

    Returns:
        The labelled run frame (`run_row` columns, `accuracy` and `stderr` always present); an
        empty frame with `run`, `log`, `task`, `model` and `protocol` where no log is ours."""
    import pandas as pd

    if isinstance(logs, list) and all(isinstance(e, LogEntry) for e in logs) and logs:
        entries = [e for e in logs if isinstance(e, LogEntry)]
    else:
        entries = read_headers(logs)[0]  # type: ignore[arg-type]
    rows = [run_row(e) for e in entries if e.ours]
    if not rows:
        return pd.DataFrame(columns=[C.RUN, C.LOG, C.TASK, C.MODEL, C.PROTOCOL])
    frame = pd.DataFrame(rows)
    for column in ALWAYS_METRICS:  # an errored run's header has no results, so no metrics
        if column not in frame:
            frame[column] = float("nan")
    return label_runs(frame)


#: Metric columns every run frame has (missing where no log computed them).
ALWAYS_METRICS = (K.ACCURACY, K.STDERR)


def complete_mask(runs: pd.DataFrame) -> pd.Series:
    """True for runs that finished (frames built by hand may lack the column: all finished).

    Args:
        runs: a run frame.

    Returns:
        A boolean Series on the frame's index: `complete`, else `status` == "success", else
        all True."""
    if "complete" in runs:
        return runs["complete"].astype(bool)
    if "status" in runs:
        return runs["status"] == "success"
    return runs.index.to_series().map(lambda _: True).astype(bool)


def run_steps(run: Mapping[str, Any]) -> tuple[int, bool]:
    """The step limit and traceback the baselines of a run are computed at: the run's own
    (the gym default limit for a protocol without steps).

    Args:
        run: a run row (its `max_steps` and `traceback` settings; None or NaN when unset).

    Returns:
        (the step limit, `DEFAULT_MAX_STEPS` when unset; whether traceback is on)."""
    from inspect_sparc.core.episode.stepper import DEFAULT_MAX_STEPS

    steps = run.get("max_steps")
    steps = DEFAULT_MAX_STEPS if steps is None or _isnan(steps) else int(steps)
    traceback = run.get("traceback")
    return steps, bool(traceback) and not _isnan(traceback)
