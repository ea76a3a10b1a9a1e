"""Logs -> tidy frames: one row per run (header and the log's own metrics) and one per sample.

Built on Inspect's own log reading: a log's header first (`header_only`), its samples only when
asked, streamed one at a time without messages or events, so no log is ever held whole.
Both frames live here (a little over 500 lines) because each sample row is built from its run's
row (settings, protocol, label, step limit): split, the two halves would import each other.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import registry as R
from inspect_sparc.contract import scores as K
from inspect_sparc.contract.registry import FILTERS, SETTINGS
from inspect_sparc.core.rules import RULES
from inspect_sparc.report.logs import TASKS, LogEntry, read_headers, short_task

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from inspect_ai.log import EvalLog

#: SPaRC tasks (scored as SPaRC: levels, rules, paths).
SPARC_TASKS = frozenset(TASKS) - {"algopuzzlevqa"}
#: The rules a scorer reports breaking, in the scorers' order (`breaks_<rule>` keys and metrics).
BREAK_RULES = RULES
#: Rule kinds a puzzle can contain in the order of the Spatial-Gym rule tables (the report's
#: columns; `core.records.RULE_KINDS` holds the same kinds in the rule engine's order).
RULE_COLUMNS = ("dot", "gap", "polyshape", "ylop", "star", "square", "triangle")
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
)
#: Filters whose unset value means every one (an all-levels run reads `levels=all`, not `-`).
ALL_WHEN_UNSET = frozenset({"levels", "puzzles"})
#: Sample fields never read: the bulk of a log, and nothing the report shows needs them.
EXCLUDED_SAMPLE_FIELDS = {"messages", "events", "attachments", "store"}
#: Solvers that answer without a model, shown as baselines.
BASELINE_SOLVERS = {
    R.SEARCH_SOLVER: "search (exact)",
    R.GYM_ASTAR: "A* baseline",
    R.GYM_RANDOM: "random baseline",
    R.AGENT_ASTAR: "A* baseline",
    R.AGENT_RANDOM: "random baseline",
}


def settings_of(header: EvalLog) -> dict[str, Any]:
    """The protocol settings of a run: task arguments over the task's own metadata."""
    spec = header.eval
    merged: dict[str, Any] = {}
    merged.update(spec.metadata or {})
    merged.update({k: v for k, v in (spec.task_args or {}).items() if v is not None})
    settings = {key: merged.get(key) for key in SETTINGS}
    for arg, column in FILTERS.items():
        value = merged.get(arg)
        settings[column] = ",".join(map(str, value)) if isinstance(value, list) else value
    return settings


def protocol_of(task: str, settings: Mapping[str, Any]) -> str:
    """The paper protocol a run follows: single_shot, gym, gym_traceback, gym_visual, visual,
    agent or algopuzzlevqa (the published tables are keyed the same way)."""
    if task in ("sparc", "sparc_hard"):
        return "single_shot"
    if task == "sparc_visual":
        return "visual"
    if task == "sparc_gym":
        if settings.get("observation") == "image":
            return "gym_visual"
        return "gym_traceback" if settings.get("traceback") else "gym"
    if task == "sparc_agent":
        return "agent"
    return task


def model_of(header: EvalLog) -> tuple[str, bool]:
    """The model shown for a run, and whether it is a no-model baseline (named by its solver)."""
    spec = header.eval
    solver = short_task(spec.solver or "")
    if solver in BASELINE_SOLVERS:
        return BASELINE_SOLVERS[solver], True
    return spec.model, False


#: The epochs reducers that take the mean: Inspect's and the SPaRC tasks' (the same values).
MEAN_REDUCERS = ("mean", K.EPOCHS_REDUCER)


def metrics_of(header: EvalLog) -> dict[str, float]:
    """The log's own metrics (as Inspect computed and reduced them), first scorer's names bare.

    With several epoch reducers (`--epochs-reducer max,mean`) a scorer has one set of metrics
    per reducer: the mean set (Inspect's `mean` or the SPaRC tasks' `inspect_sparc/mean`) is
    taken where there is one (the reducer the tables counted from samples use), else the first;
    `metrics_reducer` says which."""
    values: dict[str, float] = {}
    results = header.results
    if results is None:
        return values
    chosen: dict[str, Any] = {}
    for score in results.scores:
        if score.name not in chosen or (
            score.reducer in MEAN_REDUCERS and chosen[score.name].reducer not in MEAN_REDUCERS
        ):
            chosen[score.name] = score
    for i, score in enumerate(chosen.values()):
        for name, metric in score.metrics.items():
            key = name if i == 0 else f"{score.name}/{name}"
            values.setdefault(key, metric.value)
    if chosen:
        values["metrics_reducer"] = next(iter(chosen.values())).reducer or "mean"  # type: ignore[assignment]
    return values


def seconds_between(start: str | None, end: str | None) -> float | None:
    """Wall time of a run from the header's ISO stamps."""
    from datetime import datetime

    if not start or not end:
        return None
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def run_row(entry: LogEntry) -> dict[str, Any]:
    """One run's row: identity, settings, size, tokens, time and every metric of its log."""
    header = entry.header
    assert header is not None
    spec = header.eval
    settings = settings_of(header)
    model, baseline = model_of(header)
    usage = header.stats.model_usage or {}
    results = header.results
    row: dict[str, Any] = {
        "log": entry.path,
        "run_id": spec.run_id,
        "eval_id": spec.eval_id,
        "task": entry.task,
        "task_version": str(spec.task_version),
        "model": model,
        "baseline": baseline,
        "solver": short_task(spec.solver) if spec.solver and not baseline else None,
        "protocol": protocol_of(entry.task or "", settings),
        **settings,
        "epochs": spec.config.epochs or 1,
        "epochs_reducer": ",".join(spec.config.epochs_reducer or ["mean"]),
        "status": header.status,
        "complete": header.status == "success",
        "samples": results.completed_samples if results else None,
        "total_samples": results.total_samples if results else None,
        "input_tokens": sum(u.input_tokens for u in usage.values()) if usage else None,
        "output_tokens": sum(u.output_tokens for u in usage.values()) if usage else None,
        "reasoning_tokens": _sum_known(u.reasoning_tokens for u in usage.values()),
        "time_s": seconds_between(header.stats.started_at, header.stats.completed_at),
        "started_at": header.stats.started_at,
        "notes": "; ".join(entry.notes),
    }
    row.update(metrics_of(header))
    return row


def _sum_known(values: Iterable[int | None]) -> int | None:
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def label_runs(runs: pd.DataFrame) -> pd.DataFrame:
    """Add `run`, a label for display (tables and figures group by `log`, never by it): model,
    protocol and non-default settings, the settings that differ between runs of one model and
    task (source, split, subset, levels ...), `xN` for epochs, and `#k` whenever the text
    would otherwise repeat (repeated runs are labelled, never merged)."""
    runs = runs.sort_values(["started_at", "log"], kind="stable").reset_index(drop=True)
    varying: dict[tuple[str, str], list[str]] = {}
    if "status" not in runs:
        runs = runs.assign(status="success")
    complete = runs[runs["status"] == "success"]  # a failed run's settings never relabel others
    for (model, task), group in complete.groupby(["model", "task"], dropna=False, sort=False):
        varying[(str(model), str(task))] = [
            key
            for key in DISTINGUISHING
            if key in group and group[key].map(_setting_text).nunique(dropna=False) > 1
        ]
    texts = []
    for _, row in runs.iterrows():
        parts = [str(row["model"]), setting_label(row)]
        label = " | ".join(p for p in parts if p)
        solver = row.get("solver")
        if isinstance(solver, str) and solver:  # not the task's own solver: say which
            label += f" solver={solver}"
        for key in varying.get((str(row["model"]), str(row["task"])), []):
            text = _setting_text(row.get(key))
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
    runs.insert(0, "run", labels)
    return runs


def _setting_text(value: Any) -> str:
    """A setting as label text: a path by its file name, missing as `-`."""
    if value is None or _isnan(value):
        return "-"
    text = str(value)
    return Path(text).name if ("/" in text or os.sep in text) else text


def setting_label(row: Mapping[str, Any]) -> str:
    """Short text for a run's protocol and non-default settings."""
    parts = [str(row["protocol"])]
    if row.get("task") == "sparc_hard":
        parts.append("hard")
    prompt = row.get("prompt")
    if prompt not in (None, "paper", "describe"):
        parts.append(f"prompt={prompt}")
    if row.get("protocol") in ("visual", "gym_visual") and row.get("plot") not in (
        None,
        "original",
    ):
        parts.append(f"plot={row['plot']}")
    from inspect_sparc.core.gym import DEFAULT_MAX_STEPS

    steps = row.get("max_steps")
    if steps is not None and not _isnan(steps) and int(steps) != DEFAULT_MAX_STEPS:
        parts.append(f"max_steps={int(steps)}")
    return " ".join(parts)


def _isnan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def runs_frame(
    logs: str | Path | Iterable[str | Path] | list[LogEntry],
) -> pd.DataFrame:
    """One row per readable log of our tasks: header, settings, the log's metrics, a label."""
    import pandas as pd

    if isinstance(logs, list) and all(isinstance(e, LogEntry) for e in logs) and logs:
        entries = [e for e in logs if isinstance(e, LogEntry)]
    else:
        entries = read_headers(logs)[0]  # type: ignore[arg-type]
    rows = [run_row(e) for e in entries if e.ours]
    if not rows:
        return pd.DataFrame(columns=["run", "log", "task", "model", "protocol"])
    frame = pd.DataFrame(rows)
    for column in ALWAYS_METRICS:  # an errored run's header has no results, so no metrics
        if column not in frame:
            frame[column] = float("nan")
    return label_runs(frame)


#: Metric columns every run frame has (missing where no log computed them).
ALWAYS_METRICS = (K.ACCURACY, K.STDERR)


def complete_mask(runs: pd.DataFrame) -> pd.Series:
    """True for runs that finished (frames built by hand may lack the column: all finished)."""
    if "complete" in runs:
        return runs["complete"].astype(bool)
    if "status" in runs:
        return runs["status"] == "success"
    return runs.index.to_series().map(lambda _: True).astype(bool)


def rule_kinds(record: Any) -> list[str]:
    """The rule kinds a SPaRC puzzle record contains, counted by the rule engine's own
    `core.records.rule_counts` (none for a grid with a symbol it does not know)."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except ValueError:
            return []
    if not isinstance(record, Mapping):
        return []
    from inspect_sparc.core.records import rule_counts

    try:
        counts = rule_counts(record.get("puzzle_array") or ())
    except (KeyError, TypeError, IndexError):  # a symbol the rule engine does not know
        return []
    return [kind for kind in RULE_COLUMNS if counts.get(kind)]


def score_values(sample: Any) -> tuple[dict[str, Any], dict[str, Any], str | None]:
    """The first score's value keys (rule keys as `breaks_<rule>`, either spelling), its
    metadata and answer."""
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
    settings, the puzzle (`facts`: rule kinds, baselines), scores, tokens, time."""
    kinds = facts["rules"] if facts else None
    values, score_meta, answer = score_values(sample)
    meta = sample.metadata or {}
    usage = sample.model_usage or {}
    error = sample.error
    row: dict[str, Any] = {
        "log": run["log"],
        "run": run["run"],
        "task": run["task"],
        "task_version": run["task_version"],
        "model": run["model"],
        "baseline": run["baseline"],
        "protocol": run["protocol"],
        **{key: run.get(key) for key in SETTINGS},
        "id": str(sample.id),
        "epoch": sample.epoch,
        "level": meta.get("level"),
        "puzzle": meta.get("puzzle") if run["task"] == "algopuzzlevqa" else None,
        "categories": ",".join(meta.get("categories") or ()) or None,
        "rules": None,
        "answer": answer,
        "ended": score_meta.get(K.ENDED),
        "path_length": score_meta.get(K.PATH_LENGTH),
        "input_tokens": sum(u.input_tokens for u in usage.values()) if usage else None,
        "output_tokens": sum(u.output_tokens for u in usage.values()) if usage else None,
        "reasoning_tokens": _sum_known(u.reasoning_tokens for u in usage.values()),
        "working_time": sample.working_time,
        "error": getattr(error, "message", error),
    }
    if run["task"] in SPARC_TASKS:
        row["rules"] = ",".join(kinds) if kinds is not None else None
        row.update({f"has_{k}": (k in kinds) if kinds is not None else None for k in RULE_COLUMNS})
        row["grid"] = facts.get("grid") if facts else None
        row["test_grid"] = is_test_grid_hash(row["grid"])
        row["astar_solves"] = facts["astar"] if facts else None
        row["chance_exact"] = facts["chance"] if facts else None
        if row["path_length"] is None and answer is not None:
            row["path_length"] = answer_points(answer)
    row.update(values)
    return row


def is_test_grid_hash(grid: str | None) -> bool | None:
    """Whether a grid hash is one of the 500 test-split grids (the shipped hashes); None for
    a puzzle whose grid is unknown."""
    if grid is None:
        return None
    from inspect_sparc.core.grid_hashes import shipped_test_hashes

    return grid in shipped_test_hashes()


#: A point `(x, y)` of an answer, and the tail the scorer writes after 200 points.
POINT = re.compile(r"\(\s*-?\d+\s*,\s*-?\d+\s*\)")
MORE_POINTS = re.compile(r"\((\d+) more points\)\s*$")


def answer_points(answer: str) -> int:
    """Points in a logged answer (for logs without `path_length`): the `(x, y)` pairs, plus
    the N of a `... (N more points)` tail the scorer writes after 200 points."""
    more = MORE_POINTS.search(answer)
    return len(POINT.findall(answer)) + (int(more.group(1)) if more else 0)


#: Full samples read at once to learn rule kinds (bounds memory: never a whole log).
CHUNK = 50


def puzzle_facts(record: Any) -> dict[str, Any]:
    """What the report keeps of a SPaRC puzzle record: its rule kinds and the parsed puzzle
    (None where the installed parser rejects it), for the baselines at any setting."""
    facts: dict[str, Any] = {"rules": rule_kinds(record), "puzzle": None, "grid": None}
    try:
        from inspect_sparc.core.grid_hashes import grid_hash

        mapping = json.loads(record) if isinstance(record, str) else record
        facts["grid"] = grid_hash(mapping)
    except Exception:  # noqa: BLE001 - a record without a grid has no hash
        pass
    try:
        from inspect_sparc.core.puzzle import parse_puzzle

        facts["puzzle"] = parse_puzzle(json.loads(record) if isinstance(record, str) else record)
    except Exception:  # noqa: BLE001 - a record the installed parser rejects has no baselines
        pass
    return facts


def baseline_facts(puzzle: Any, max_steps: int, traceback: bool) -> dict[str, Any]:
    """Whether the A* baseline solves `puzzle` within `max_steps`, and the exact chance that a
    uniformly random legal walk does (None with traceback: not computable exactly)."""
    from inspect_sparc.core.baselines import astar_solves, chance_of_solving

    if puzzle is None:
        return {"astar": None, "chance": None}
    try:
        astar = int(astar_solves(puzzle, max_steps))
    except Exception:  # noqa: BLE001 - a puzzle the A* engine cannot walk has no A* mark
        astar = None
    chance = None if traceback else chance_of_solving(puzzle, max_steps)
    return {"astar": astar, "chance": chance}


def run_steps(run: Mapping[str, Any]) -> tuple[int, bool]:
    """The step limit and traceback the baselines of a run are computed at: the run's own
    (the gym default limit for a protocol without steps)."""
    from inspect_sparc.core.gym import DEFAULT_MAX_STEPS

    steps = run.get("max_steps")
    steps = DEFAULT_MAX_STEPS if steps is None or _isnan(steps) else int(steps)
    traceback = run.get("traceback")
    return steps, bool(traceback) and not _isnan(traceback)


class PuzzleCache:
    """Facts per puzzle (`puzzle_facts`), read once per (source, id) across all logs: sample
    summaries leave the puzzle record out, so only puzzles not seen yet are read in full. The
    baselines are computed once per puzzle and setting (max_steps, traceback)."""

    def __init__(self) -> None:
        self.kinds: dict[tuple[str, str], dict[str, Any]] = {}
        self.baselines: dict[tuple[str, str, int, bool], dict[str, Any]] = {}

    def fill(self, path: str, source: str, summaries: list[Any]) -> None:
        """Read the full samples (no messages or events) of the puzzles not known yet."""
        try:
            from inspect_ai.log import read_eval_log_samples_by_id
        except ImportError as error:
            raise ImportError(
                "the report needs inspect-ai 0.3.262 or later (read_eval_log_samples_by_id): "
                "pip install --upgrade inspect-ai"
            ) from error

        wanted: dict[str, tuple[Any, int]] = {}
        for summary in summaries:
            key = (source, str(summary.id))
            puzzle = (summary.metadata or {}).get("puzzle")
            if key in self.kinds or str(summary.id) in wanted:
                continue
            if isinstance(puzzle, Mapping):
                self.kinds[key] = puzzle_facts(puzzle)
            else:
                wanted[str(summary.id)] = (summary.id, summary.epoch)
        todo = list(wanted.values())
        for i in range(0, len(todo), CHUNK):
            for sample in read_eval_log_samples_by_id(
                path, todo[i : i + CHUNK], exclude_fields=EXCLUDED_SAMPLE_FIELDS
            ):
                record = (sample.metadata or {}).get("puzzle")
                self.kinds[(source, str(sample.id))] = puzzle_facts(record)

    def get(
        self, source: str, sample_id: Any, max_steps: int, traceback: bool
    ) -> dict[str, Any] | None:
        """Rule kinds and the baselines at this setting of one puzzle (None if never read)."""
        facts = self.kinds.get((source, str(sample_id)))
        if facts is None:
            return None
        key = (source, str(sample_id), max_steps, traceback)
        if key not in self.baselines:
            self.baselines[key] = baseline_facts(facts["puzzle"], max_steps, traceback)
        return {"rules": facts["rules"], "grid": facts["grid"], **self.baselines[key]}


def read_summaries(path: str) -> list[Any]:
    """A log's sample summaries (scores, metadata, usage, times; no messages): what the report
    reads of every sample. A cancelled log has the samples it finished."""
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
    working time). Logs of other tasks and unreadable logs are skipped (see `read_headers`)."""
    import pandas as pd

    if runs is None:
        runs = runs_frame(logs)
    rows: list[dict[str, Any]] = []
    records = runs.to_dict("records")
    cache = PuzzleCache()
    for i, run in enumerate(records):
        try:
            summaries = read_summaries(run["log"])
            source = str(run.get("source"))
            steps, traceback = run_steps(run)
            if run["task"] in SPARC_TASKS:
                cache.fill(run["log"], source, summaries)
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
