"""The fresh-puzzle gap: a model's accuracy on the public test split against fresh puzzles
from the generator (`source=generated:SEED`, calibrated to the split level by level).

The test side is a run on the benchmark's test puzzles, recognised by content (the shipped
test-grid hashes), the largest where there are several. Per level, and overall with the fresh
set re-weighted to the test split's level mix (so a different level mix cannot make a gap),
with exact tests and the intervals that invert them (`exact.two_sets` per level: the exact
unconditional test; `exact.two_sets_stratified` overall: the exact conditional test over
levels), on each log's per-puzzle values reduced as it reduced them. Runs of several seeds
pool into one fresh set; a puzzle met in several runs is one unit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import scores as K
from inspect_sparc.core.puzzle.parse import LEVELS
from inspect_sparc.core.sources import GENERATED
from inspect_sparc.report.analysis.outcomes import eligible
from inspect_sparc.report.analysis.split import subset_name
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.reducer import reduction_of
from inspect_sparc.report.statistics.exact import two_sets, two_sets_stratified
from inspect_sparc.report.statistics.score_intervals import stratified_difference

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


#: Settings a test run and a fresh run must share (besides the model) to be compared.
SAME = (C.TASK, C.PROTOCOL, "prompt", "max_steps", "observation", "plot", "extraction")


OVERALL = "all (fresh re-weighted to the test mix)"

#: How `test_side` ends for a run on a shipped subset (`on`: `on_puzzles`).
SUBSET_SIDE = "a shipped subset: test accuracy and gap on {on}, not split estimates"


def overall_label(levels: list[int], on: str = "") -> str:
    """The overall row's label: `all` when it covers every level, else the levels it covers
    (`levels 1-2`, `levels 1, 3`), so a partial run is never read as the whole split.

    Args:
        levels: the levels both sides have, ascending.
        on: where the test side is a shipped subset, what its puzzles are (`on_puzzles`):
            the fresh set is re-weighted to their level mix, not the split's ("" otherwise).

    Returns:
        the label.
    """
    if on:
        covered = "all" if set(levels) >= set(LEVELS) else overall_label(levels).split(" (")[0]
        return f"{covered} (fresh re-weighted to the level mix of {on})"
    if set(levels) >= set(LEVELS):
        return OVERALL
    ranged = levels == list(range(levels[0], levels[-1] + 1)) and len(levels) > 1
    text = f"{levels[0]}-{levels[-1]}" if ranged else ", ".join(map(str, levels))
    word = "level" if len(levels) == 1 else "levels"
    return f"{word} {text} (fresh re-weighted to the test mix)"


def is_fresh(source: Any) -> bool:
    """True for a run on generated puzzles.

    Args:
        source: a run's `source` setting (`generated:7`, `sample`, a path).

    Returns:
        whether it names generated puzzles.
    """
    return str(source).startswith(GENERATED)


def test_side(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """The runs on the benchmark's test puzzles, recognised by content: every puzzle's grid is
    one of the 500 shipped test-grid hashes (a run on generated puzzles, or on a local file of
    them, never is), with `n_puzzles` each.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        those runs' rows with `n_puzzles` (scored puzzles, each once); no rows where the samples
        have no grid hashes.
    """
    if "test_grid" not in samples:
        return runs.iloc[0:0].assign(n_puzzles=0)
    scored = samples.dropna(subset=[K.CORRECT])
    per_log = scored.groupby(C.LOG)["test_grid"].agg(
        lambda v: bool(v.notna().all() and v.astype(bool).all())
    )
    counts = scored.groupby(C.LOG)[C.ID].nunique()
    test_logs = {str(log) for log, ok in per_log.items() if ok}
    chosen = runs[runs[C.LOG].isin(test_logs) & ~runs["source"].map(is_fresh)]
    return chosen.assign(n_puzzles=chosen[C.LOG].map(counts).fillna(0).astype(int))


def pick_test_run(tests: pd.DataFrame) -> tuple[Any, str]:
    """The largest test-side run (the latest of equals), and a line saying which and why.

    Args:
        tests: test-side runs of one model and setting (`test_side`), at least one.

    Returns:
        (the chosen run's row, the words that say why it was chosen).
    """
    ordered = tests.sort_values(["n_puzzles", "started_at"], kind="stable")
    chosen = ordered.iloc[-1]
    why = f"{chosen['n_puzzles']} test puzzles"
    if len(tests) > 1:
        why = f"the largest of {len(tests)} runs on test puzzles ({why})"
    return chosen, why


def on_puzzles(test: Any) -> str:
    """What a test-side run on a shipped subset was compared on: `these 100 puzzles of
    informative:100` (its test accuracy and gaps are on them, not estimates for the split);
    "" for a run on the split or part of it that is no shipped subset.

    Args:
        test: the test-side run's row (`test_side`, with `n_puzzles`).

    Returns:
        the words, or "".
    """
    subset = subset_name(test)
    return f"these {int(test['n_puzzles'])} puzzles of {subset}" if subset else ""


def puzzle_key(samples: pd.DataFrame) -> pd.Series:
    """What makes two samples the same puzzle, whichever log they come from: the grid's hash
    where known, else the source and id.

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        one key per sample, on the samples' index.
    """
    fallback = samples["source"].astype(str) + "/" + samples[C.ID].astype(str)
    if "grid" not in samples:
        return fallback
    return samples["grid"].where(samples["grid"].notna(), fallback)


def level_values(
    samples: pd.DataFrame, logs: list[str], runs: pd.DataFrame | None = None
) -> dict[int, list[float]]:
    """Per level: each puzzle's outcome over the given logs, one value per puzzle: each log's
    epochs reduced as its run's log reduced them (the mean without `runs`; a log whose
    reducer the report cannot apply is left out), then the same puzzle in several logs
    averaged (one unit: its runs are epochs).

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.
        logs: the log paths whose samples are pooled.
        runs: the runs frame, for each log's reducer; None reduces every log by the mean.

    Returns:
        level -> one value per puzzle (0-1); empty where no log gives values.
    """
    import pandas as pd

    chosen = samples[samples[C.LOG].isin(logs)].dropna(subset=[K.CORRECT])
    chosen = chosen.assign(_puzzle=puzzle_key(chosen))
    how = {str(log): "mean" for log in logs}
    chosen_runs = runs[runs[C.LOG].isin(logs)] if runs is not None else None
    for _, run in chosen_runs.iterrows() if chosen_runs is not None else ():
        how[str(run[C.LOG])] = reduction_of(run) or ""
    parts = []
    for log, group in chosen.groupby(C.LOG, sort=False):
        if not how.get(str(log)):
            continue  # a reducer the report cannot apply: not the value the log shows
        parts.append(
            group.groupby("_puzzle", sort=False).agg(
                level=(C.LEVEL, "first"), correct=(K.CORRECT, how[str(log)])
            )
        )
    if not parts:
        return {}

    per = (
        pd.concat(parts)
        .groupby(level=0, sort=False)
        .agg(level=(C.LEVEL, "first"), correct=("correct", "mean"))
    )
    return {int(lv): g["correct"].tolist() for lv, g in per.groupby(C.LEVEL) if lv == lv}


def gap_rows(
    test: Any, why: str, fresh: pd.DataFrame, samples: pd.DataFrame, runs: Any = None
) -> list[dict[str, Any]]:
    """Per level and overall: test accuracy, fresh accuracy (seeds pooled, each puzzle once),
    the gap with the interval and p of one exact test (per level the exact unconditional
    test, overall the exact conditional test stratified by level), the test's name or why
    there is none (per-puzzle means).

    Args:
        test: the test-side run's row (`pick_test_run`).
        why: why that run is the test side, for `test_side`.
        fresh: the runs on generated puzzles compared with it.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.
        runs: the runs frame, for each log's reducer (None: the mean).

    Returns:
        one row per shared level and one overall (accuracies and gap in points); empty where the two
        sides share no level.
    """
    mine = level_values(samples, [test[C.LOG]], runs)
    theirs = level_values(samples, list(fresh[C.LOG]), runs)
    levels = sorted(set(mine) & set(theirs))
    base = {
        C.MODEL: test[C.MODEL],
        C.PROTOCOL: test[C.PROTOCOL],
        "test_run": test[C.RUN],
        "test_side": why,
        "fresh_runs": "; ".join(fresh[C.RUN]),
        "seeds": ", ".join(sorted({str(s).removeprefix(GENERATED) for s in fresh["source"]})),
    }
    on = on_puzzles(test)
    if on:  # a shipped subset: every figure of the row is on its puzzles, none the split's
        base["test_side"] = f"{why}, {SUBSET_SIDE.format(on=on)}"
        base["on_puzzles"] = on
    rows: list[dict[str, Any]] = []
    if not levels:  # the runs share no level: nothing to compare, not a row of zeros
        return rows
    parts: list[tuple[int | str, list[int]]] = [(lv, [lv]) for lv in levels]
    for level, strata in [*parts, (overall_label(levels, on), levels)]:
        first, second = [mine[lv] for lv in strata], [theirs[lv] for lv in strata]
        a, b, _ = stratified_difference(first, second)
        if isinstance(level, str):
            found = two_sets_stratified(first, second)
        else:
            found = two_sets(first[0], second[0])
        rows.append(
            {
                **base,
                C.LEVEL: level,
                "n_test": sum(len(mine[lv]) for lv in strata),
                "test_accuracy": 100 * a,
                "n_fresh": sum(len(theirs[lv]) for lv in strata),
                "fresh_accuracy": 100 * b,
                "gap": 100 * (a - b),
                "gap_ci95_low": 100 * found.interval.low,
                "gap_ci95_high": 100 * found.interval.high,
                "gap_p": found.p,
                "gap_test": found.test,
            }
        )
    return rows


def subset_sides(gaps: pd.DataFrame) -> list[str]:
    """What each test side on a shipped subset was compared on (`on_puzzles`), each once.

    Args:
        gaps: the fresh-gap table (`fresh_gap_table`).

    Returns:
        e.g. `["these 100 puzzles of informative:100"]`; empty where every test side is a
        run on the split (or part of it that is no shipped subset).
    """
    if "on_puzzles" not in gaps:
        return []
    return [str(on) for on in dict.fromkeys(gaps["on_puzzles"].dropna()) if on]


def fresh_gap_table(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """The gap for every model with runs on the test puzzles and on generated puzzles under
    the same protocol settings (the largest test-side run; every fresh run pooled).

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch.

    Returns:
        the rows of `gap_rows` for every such model and setting; empty where none has both sides.
    """
    import pandas as pd

    runs = eligible(runs)
    if runs.empty or samples is None or samples.empty:
        return pd.DataFrame()
    keys = [k for k in SAME if k in runs]
    runs = runs.assign(_key=[tuple(str(r.get(k)) for k in keys) for _, r in runs.iterrows()])
    tests_all = test_side(runs, samples)
    rows: list[dict[str, Any]] = []
    for _, group in runs.groupby([C.MODEL, "_key"], sort=False):
        fresh = group[group["source"].map(is_fresh)]
        tests = tests_all[tests_all[C.LOG].isin(set(group[C.LOG]))]
        if fresh.empty or tests.empty:
            continue
        test, why = pick_test_run(tests)
        rows += gap_rows(test, why, fresh, samples, runs)
    return pd.DataFrame(rows)
