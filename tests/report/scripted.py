"""Real logs with scripted per-puzzle outcomes, derived from one finished `sparc` log: each
sample's `correct` is set from a script and the log's accuracy and level metrics recomputed
from it, so the report reads them as it reads any log (for the paired and fresh-gap tests)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


def rolled(grid: list[list[str]]) -> list[list[str]]:
    """Another grid of the same symbols (the top row moved to the bottom): a puzzle that is not a
    test grid. Not a turn or a mirror, which the test-grid hashes see through."""
    return [list(row) for row in grid[1:] + grid[:1]]


def rolled_twice(grid: list[list[str]]) -> list[list[str]]:
    """A third grid of the same symbols (the top two rows moved to the bottom)."""
    return [list(row) for row in grid[2:] + grid[:2]]


def sparc_mock_log(report_logs: Any, epochs: int) -> Any:
    """The suite's `sparc` log of `mockllm/model` run with `epochs` epochs, read whole: the base
    that scripted logs are derived from."""
    from inspect_ai.log import read_eval_log

    _, logs, _ = report_logs
    return read_eval_log(
        next(
            log.location
            for log in logs
            if log.eval.task.endswith("/sparc")
            and log.eval.model == "mockllm/model"
            and (log.eval.config.epochs or 1) == epochs
        )
    )


def on_puzzles(base: Any, ids: list[str], levels: list[int]) -> Any:
    """A copy of `base` whose samples are its own puzzles (test grids) cycled under `ids`,
    each with its level from the verdicts CSV: a log over any set of test puzzle ids."""
    log = base.model_copy(deep=True)
    samples = []
    for k, (pid, level) in enumerate(zip(ids, levels, strict=True)):
        sample = base.samples[k % len(base.samples)].model_copy(deep=True)
        sample.id = pid
        sample.metadata = {**sample.metadata, "level": int(level)}
        samples.append(sample)
    log.samples = samples
    return log


def scripted_log(
    base: Any,
    outcomes: dict[str, int],
    path: Path,
    *,
    model: str,
    source: str | None = None,
    id_prefix: str = "",
    started: str | None = None,
    grid: Callable[[list[list[str]]], list[list[str]]] | None = None,
    errored: Iterable[str] = (),
) -> Path:
    """Write a copy of `base` (a full EvalLog) whose samples are solved as `outcomes` says
    (sample id -> 0/1), under `model`, optionally on another source with renamed ids, with
    each puzzle's grid changed by `grid` (puzzles that are no longer test grids) and the
    samples in `errored` errored (no score, an error; left out of the metrics)."""
    from inspect_ai.log import EvalError, write_eval_log

    log = base.model_copy(deep=True)
    log.eval.model = model
    log.eval.run_id = log.eval.eval_id = f"{model}-{id_prefix}-{path.stem}"
    if source is not None:
        log.eval.task_args = {**(log.eval.task_args or {}), "source": source}
    if started:
        log.stats.started_at = started
    errored = set(errored)
    per_level: dict[int, list[int]] = defaultdict(list)
    for sample in log.samples:
        if grid is not None:
            puzzle = sample.metadata["puzzle"]
            puzzle["puzzle_array"] = grid(puzzle["puzzle_array"])
        if str(sample.id) in errored:
            sample.scores = None
            sample.error = EvalError(message="boom", traceback="", traceback_ansi="")
            sample.id = f"{id_prefix}{sample.id}"
            continue
        value = outcomes[str(sample.id)]
        score = next(iter(sample.scores.values()))
        score.value = {**score.value, "correct": value}
        per_level[sample.metadata["level"]].append(value)
        sample.id = f"{id_prefix}{sample.id}"
    everything = [v for values in per_level.values() for v in values]
    metrics = log.results.scores[0].metrics
    metrics["accuracy"].value = sum(everything) / len(everything)
    for level, values in per_level.items():
        if f"level_{level}" in metrics:
            metrics[f"level_{level}"].value = sum(values) / len(values)
    if errored:
        log.results.completed_samples = len(everything)
    write_eval_log(log, str(path))
    return path


#: A run on generated puzzles: its source, its ids' prefix and its grids (none a test grid).
GENERATED_7: dict[str, Any] = {"source": "generated:7", "id_prefix": "gen7-", "grid": rolled}


def fresh_log(base: Any, outcomes: dict[str, int], path: Path, started: str) -> Path:
    """Write model m/A's run on generated puzzles (`GENERATED_7`), solved as `outcomes` says:
    the fresh side of a gap."""
    return scripted_log(base, outcomes, path, model="m/A", started=started, **GENERATED_7)


def scripted_runs(
    base: Any, folder: Path, solves: dict[str, Iterable[int]], prefix: str = "m/"
) -> dict[str, dict[str, int]]:
    """One log per model name in `solves` (model `prefix + name`, started a minute apart in
    that order), each solving the puzzles at the given positions of the sorted ids; returns
    each model's outcomes (sample id -> 0/1)."""
    ids = sorted(str(s.id) for s in base.samples)
    outcomes = {}
    for k, (name, solved) in enumerate(solves.items()):
        outcomes[name] = {i: int(j in solved) for j, i in enumerate(ids)}
        started = f"2026-01-01T00:{k:02d}:00+00:00"
        path = folder / f"{name}.eval"
        scripted_log(base, outcomes[name], path, model=prefix + name, started=started)
    return outcomes


def epochs_log(
    base: Any,
    solved: dict[tuple[str, int], int],
    path: Path,
    *,
    model: str,
    started: str,
    reducer: str = "max",
    source: str | None = None,
    id_prefix: str = "",
    grid: Callable[[list[list[str]]], list[list[str]]] | None = None,
    errored: Iterable[tuple[str, int]] = (),
) -> Path:
    """Write a copy of `base` (a log with epochs) whose sample (id, epoch) is solved as `solved`
    says (missing: unsolved), reduced over epochs by `reducer` (`max` or `mean`): the header's
    reducer and its accuracy and level metrics set as Inspect sets them; optionally on another
    source with renamed ids and each grid changed by `grid` (as `scripted_log`), and the
    sample-epochs in `errored` errored (no score; the metrics over the epochs scored, and
    `completed_samples` counting the sample-epochs that completed, as Inspect counts them)."""
    from inspect_ai.log import EvalError, write_eval_log

    errored = set(errored)
    log = base.model_copy(deep=True)
    if source is not None:
        log.eval.task_args = {**(log.eval.task_args or {}), "source": source}
    log.eval.model = model
    log.eval.run_id = log.eval.eval_id = f"{model}-{path.stem}"
    log.stats.started_at = started
    values: dict[str, list[int]] = defaultdict(list)
    levels: dict[str, int] = {}
    for sample in log.samples:
        if (str(sample.id), sample.epoch) in errored:
            sample.scores = None
            sample.error = EvalError(message="boom", traceback="", traceback_ansi="")
            continue
        value = solved.get((str(sample.id), sample.epoch), 0)
        score = next(iter(sample.scores.values()))
        score.value = {**score.value, "correct": value}
        values[str(sample.id)].append(value)
        levels[str(sample.id)] = sample.metadata["level"]
    for sample in log.samples:
        if grid is not None:
            puzzle = sample.metadata["puzzle"]
            puzzle["puzzle_array"] = grid(puzzle["puzzle_array"])
        sample.id = f"{id_prefix}{sample.id}"
    reduce = max if reducer == "max" else (lambda v: sum(v) / len(v))
    per_puzzle = {i: reduce(v) for i, v in values.items()}
    metrics = log.results.scores[0].metrics
    metrics["accuracy"].value = sum(per_puzzle.values()) / len(per_puzzle)
    for level in set(levels.values()):
        at = [per_puzzle[i] for i, lv in levels.items() if lv == level]
        metrics[f"level_{level}"].value = sum(at) / len(at)
    log.eval.config.epochs_reducer = [reducer]
    log.results.scores[0].reducer = reducer
    log.results.completed_samples = sum(len(v) for v in values.values())
    write_eval_log(log, str(path))
    return path
