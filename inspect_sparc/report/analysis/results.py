"""Results per run: n, solved, accuracy with its interval (of the value shown), levels, steps or
path length, invalid paths, tokens (per sample, per solved puzzle) and time; and, with epochs,
the accuracy's standard error split into its between- and within-puzzle parts."""

from __future__ import annotations

from math import isclose
from typing import TYPE_CHECKING, Any, cast

from inspect_sparc.contract import protocols as P
from inspect_sparc.contract import scores as K
from inspect_sparc.core.puzzle.parse import LEVELS
from inspect_sparc.report.analysis.split import (
    SplitEstimate,
    errors_as_failures_estimate,
    split_estimates,
)
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.read.reducer import reducer_of, reducer_text, reduction_of
from inspect_sparc.report.statistics.rates import (
    ci_fields,
    errors_as_failures_fields,
    puzzle_values,
    reduced_values,
)
from inspect_sparc.report.statistics.score_intervals import (
    bootstrap_ratio,
    mean_interval,
    variance_parts,
    wilson,
)
from inspect_sparc.report.table_values import known, pct, per_log, run_n, sample_means

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


def results_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per run: n, solved count, accuracy (the log's) and its 95% interval (Wilson over puzzles,
    of the value shown; counts from the samples), levels 1-5, mean path length or steps, invalid
    paths, mean output and reasoning tokens (each with its interval), time, status.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        one row per run in the logs' order (rates in percent; a subset run's accuracy and levels the
        split's estimates, with `subset_accuracy` and `estimated_from`).
    """
    import pandas as pd

    outcomes = puzzle_values(samples, [K.CORRECT])
    by_log = per_log(outcomes)
    path_means = path_lengths(samples)
    errored_of = errored_puzzles(samples)
    splits = split_estimates(runs, samples) if samples is not None else {}
    rows = []
    for _, run in runs.iterrows():
        acc = run.get(K.ACCURACY)
        per = run.get("samples") or None
        steps = run.get(K.MEAN_STEPS)
        group = by_log.get(run[C.LOG])
        values: Any = []
        if group is not None and known(acc):
            values = group.set_index(C.ID)[K.CORRECT].dropna()
        reducer = reducer_of(run)
        if reduction_of(run) != "mean" and samples is not None and len(values):
            values = reduced_values(samples, run[C.LOG], reducer)
        if values is None:  # a reducer the report cannot apply: no interval, and why
            ci: dict[str, Any] = {"ci95_low": None, "ci95_high": None}
            ci["interval"] = f"none: the {reducer} reducer has no per-puzzle interval here"
            values = []
        else:
            ci = ci_fields(values, clusters=_types(run, group, values))
        split = splits.get(str(run[C.LOG]))
        if split is not None:  # a shipped subset: the whole split's estimate, said so
            acc = split.value / 100
            ci = {"ci95_low": split.low, "ci95_high": split.high, "interval": split.interval_text}
        errored = errored_of.get(run[C.LOG], 0)
        # every puzzle errored: 0 solved of the puzzles it ran, not an unknown count
        solved = float(sum(values)) if len(values) else (0.0 if errored else None)
        row = {
            C.RUN: run[C.RUN],
            C.TASK: run[C.TASK],
            "version": run["task_version"],
            C.PROTOCOL: run[C.PROTOCOL],
            C.MODEL: run[C.MODEL],
            "n": len(values) if len(values) else run_n(run),  # puzzles scored, not epochs
            "solved": solved,
            "errored": errored,
            "epochs": run["epochs"],
            "reducer": reducer_text(run),
            "accuracy": pct(acc),
            "ci95_low": ci["ci95_low"],
            "ci95_high": ci["ci95_high"],
            "interval": ci["interval"],
            **_errors_as_failures(samples, run, split, (solved, len(values), errored)),
            **tokens_per_solved(samples, run[C.LOG], values),
            **_levels(run, split),
            "mean_steps": steps if known(steps) else None,
            "mean_path_length": None if known(steps) else path_means.get(run[C.LOG]),
            "invalid_path_rate": pct(run.get(K.INVALID_PATH_RATE)),
            **invalid_path_interval(samples, run),
            **tokens_per_sample(samples, run, "output_tokens", per),
            **tokens_per_sample(samples, run, "reasoning_tokens", per),
            "time_s": run.get("time_s"),
            "status": run["status"],
            "notes": run.get("notes") or "",
            C.LOG: run[C.LOG],  # the file the row comes from, to find it again
        }
        if splits:  # the subset runs' own rate and what their numbers are estimated from
            row[K.SUBSET_ACCURACY] = None if split is None else split.subset_accuracy
            row["estimated_from"] = "" if split is None else split.source
        rows.append(row)
    return pd.DataFrame(rows)


def _levels(run: Any, split: SplitEstimate | None) -> dict[str, Any]:
    """The row's `level_k`: the log's, or a subset run's whole-split estimate of each level."""
    if split is None:
        return {f"level_{lv}": pct(run.get(K.level_metric(lv))) for lv in LEVELS}
    return {f"level_{lv}": split.levels.get(lv, (None,))[0] for lv in LEVELS}


def _errors_as_failures(
    samples: pd.DataFrame | None,
    run: Any,
    split: SplitEstimate | None,
    counts: tuple[float | None, int, int],
) -> dict[str, Any]:
    """The accuracy with errored puzzles as failures: a subset run's whole-split estimate so
    counted, else over the run's own puzzles (from the samples, or from the counts)."""
    if split is not None and samples is not None:
        found = errors_as_failures_estimate(samples, run[C.LOG], reducer_of(run), split.subset)
        if found:
            return found
    return errors_as_failures_fields(samples, run[C.LOG], reducer_of(run)) or errors_as_failures(
        *counts
    )


def errored_puzzles(samples: pd.DataFrame | None) -> dict[str, int]:
    """Per log: puzzles with no scored epoch (every attempt errored), left out of n.

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        log path -> that count (0 where every puzzle has a scored epoch), for every log with
        samples.
    """
    if samples is None or samples.empty:
        return {}
    scored = samples[K.CORRECT].notna() if K.CORRECT in samples else False
    per = samples.assign(_scored=scored).groupby([C.LOG, C.ID])["_scored"].any()
    return {str(log): int((~g).sum()) for log, g in per.groupby(level=0)}


def errors_as_failures(solved: float | None, n: int, errored: int) -> dict[str, Any]:
    """The accuracy with errored puzzles counted as failures, and its Wilson interval.

    Args:
        solved: puzzles solved (a sum of per-puzzle values), or None where unknown.
        n: puzzles scored.
        errored: puzzles whose every attempt errored.

    Returns:
        `errors_as_failures` and its interval columns (percent; None where `solved` is unknown or
        nothing ran).
    """
    total = n + errored
    if solved is None or total == 0:
        return {"errors_as_failures": None}
    interval = wilson(solved, total)
    return {
        "errors_as_failures": 100 * solved / total,
        "errors_as_failures_ci95_low": 100 * interval.low,
        "errors_as_failures_ci95_high": 100 * interval.high,
    }


def tokens_per_solved(samples: pd.DataFrame | None, log: str, solved: Any) -> dict[str, Any]:
    """Output tokens per solved puzzle (the cost of a solve), with a bootstrap interval over
    puzzles of the ratio (tokens and outcome resampled together).

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.
        log: the run's log path.
        solved: the run's per-puzzle values (0-1), a Series by puzzle id (the solves counted).

    Returns:
        `tokens_per_solved` and its interval columns; `tokens_per_solved` alone, None, where
        nothing was solved; empty where the run logged no tokens.
    """
    if samples is None or samples.empty or not len(solved) or "output_tokens" not in samples:
        return {}
    rows = samples[samples[C.LOG] == log]
    tokens = rows.groupby(C.ID, sort=False)["output_tokens"].mean()
    outcome = solved if hasattr(solved, "index") else None
    if outcome is None or tokens.isna().all():
        return {}
    both = tokens.to_frame("tokens").join(outcome.rename("solved"), how="inner").dropna()
    if both.empty or both["solved"].sum() <= 0:
        return {"tokens_per_solved": None}
    interval = bootstrap_ratio(both["tokens"].to_numpy(), both["solved"].to_numpy())
    return {
        "tokens_per_solved": float(both["tokens"].sum() / both["solved"].sum()),
        "tokens_per_solved_ci95_low": interval.low,
        "tokens_per_solved_ci95_high": interval.high,
    }


def invalid_path_interval(samples: pd.DataFrame | None, run: Any) -> dict[str, Any]:
    """The 95% interval of the log's `invalid_path_rate` (Wilson over puzzles, each puzzle's
    epochs reduced as the log reduced them), only where the samples give the value shown.

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.
        run: the run's row of the runs frame.

    Returns:
        `invalid_path_rate_ci95_low/high` in percent; empty where the samples do not give the value
        shown.
    """
    shown = pct(run.get(K.INVALID_PATH_RATE))
    if shown is None or samples is None or samples.empty or K.INVALID_PATH not in samples:
        return {}
    values = reduced_values(samples, run[C.LOG], reducer_of(run), K.INVALID_PATH)
    if values is None or not len(values.dropna()):
        return {}
    if not isclose(100 * float(values.mean()), shown, abs_tol=1e-6):
        return {}  # the samples hold another number than the log's metric: no interval
    ci = ci_fields(values, "invalid_path_rate")
    return {key: value for key, value in ci.items() if "ci95" in key}


def tokens_per_sample(
    samples: pd.DataFrame | None, run: Any, column: str, per: Any
) -> dict[str, Any]:
    """Mean `column` tokens per sample (the run's usage over its samples) and, where the
    samples' own usage gives the same mean, its t interval over per-puzzle means (each
    puzzle's epochs averaged first: the puzzle is the unit).

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.
        run: the run's row of the runs frame.
        column: `output_tokens` or `reasoning_tokens`.
        per: the run's sample count (its header's), which divides its total usage; None
            where unknown.

    Returns:
        `<column>_per_sample` and, where it applies, its interval columns.
    """
    name = f"{column}_per_sample"
    shown = _per(run.get(column), per)
    out: dict[str, Any] = {name: shown}
    if shown is None or samples is None or samples.empty or column not in samples:
        return out
    rows = samples[samples[C.LOG] == run[C.LOG]].dropna(subset=[column])
    means = rows.groupby(C.ID, sort=False)[column].mean()
    if means.empty or not isclose(float(means.mean()), shown, rel_tol=1e-9, abs_tol=1e-9):
        return out  # usage outside the samples (a scorer's model): not the value shown
    interval = mean_interval(means.to_numpy(), lowest=0.0)
    return {**out, f"{name}_ci95_low": interval.low, f"{name}_ci95_high": interval.high}


def _per(total: Any, count: Any) -> float | None:
    return float(total) / float(count) if known(total) and known(count) and count else None


def path_lengths(samples: pd.DataFrame | None) -> dict[str, float]:
    """Mean points in the extracted path, over answers with a path (the papers' "Avg. Path
    Length"), per single-shot log: each sample's epochs averaged first, then the samples.

    Args:
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        log path -> mean path length in points (logs without paths left out).
    """
    if samples is None or samples.empty or C.PATH_LENGTH not in samples:
        return {}
    shot = samples[samples[C.PROTOCOL].isin(["single_shot", "visual"])]
    shot = shot[shot[C.PATH_LENGTH].fillna(0) > 0]
    if shot.empty:
        return {}
    per_sample = sample_means(shot, [], [C.PATH_LENGTH])
    return cast("dict[str, float]", per_sample.groupby(C.LOG)[C.PATH_LENGTH].mean().to_dict())


def epochs_variance(runs: pd.DataFrame, samples: pd.DataFrame | None) -> pd.DataFrame:
    """Per run with epochs > 1: the standard error of its accuracy split into the between-
    puzzle part and the within-puzzle part, in points (Miller 2024, `stats.variance_parts`).
    More puzzles shrink both parts (each is divided by n), more epochs only the within part,
    so per added sample more puzzles narrow the interval most (no cost model says otherwise);
    under a reducer other than the mean, more epochs also change what is estimated.

    Args:
        runs: the runs frame (`read.runs.runs_frame`), one row per log.
        samples: the samples frame (`read.samples.samples_frame`), one row per sample and epoch;
            None or empty where no samples were read.

    Returns:
        one row per such run (standard errors in points, `narrows_most`); empty where no run has
        epochs.
    """
    import pandas as pd

    rows = []
    if samples is None or samples.empty or K.CORRECT not in samples:
        return pd.DataFrame()
    for _, run in runs[pd.to_numeric(runs["epochs"], errors="coerce") > 1].iterrows():
        mine = samples[samples[C.LOG] == run[C.LOG]].dropna(subset=[K.CORRECT])
        lists = [g.astype(float).tolist() for _, g in mine.groupby(C.ID)[K.CORRECT]]
        between, within = variance_parts(lists)
        if between != between:
            continue
        more = "more puzzles"  # they shrink both parts; more epochs only the within part
        reducer = reducer_of(run)
        if reduction_of(run) != "mean":
            more += f" (more epochs also change what the {reducer} reducer estimates)"
        rows.append(
            {
                C.RUN: run[C.RUN],
                "puzzles": len(lists),
                "epochs": int(run["epochs"]),
                "se_between": 100 * between**0.5,
                "se_within": 100 * within**0.5,
                "narrows_most": more,
            }
        )
    return pd.DataFrame(rows)


def _types(run: Any, group: pd.DataFrame | None, values: Any) -> Any:
    """AlgoPuzzleVQA's puzzle type of each value (its interval is clustered by type: 100
    instances per type), or None for SPaRC, whose puzzles are the units."""
    if run[C.TASK] != P.ALGOPUZZLEVQA or group is None or not len(values):
        return None
    return group.drop_duplicates(C.ID).set_index(C.ID)[C.PUZZLE].reindex(values.index).to_numpy()


#: The columns `vs_published` adds to the results table.
VS_PUBLISHED = ["vs_published", "vs_published_ci95_low", "vs_published_ci95_high"]
VS_PUBLISHED += ["published_model"]


def vs_published(results: pd.DataFrame, against: pd.DataFrame) -> pd.DataFrame:
    """The results with each run's difference from the published accuracy of its own model
    in its protocol and prompt: the `against_published` row whose model is the run's
    (`analysis.unpaired.published_table`: run - published in points, Newcombe's 95% interval),
    of several the one of the largest n; empty where none exists.

    Args:
        results: the results table (`results_table`), one row per run.
        against: each run against every published row of its protocol (`published_table`).

    Returns:
        `results` with `vs_published`, its interval and the `published_model` it is set
        against, placed after the accuracy's interval.
    """
    import pandas as pd

    empty: dict[str, Any] = dict.fromkeys(VS_PUBLISHED)
    found: dict[str, dict[str, Any]] = {}
    if len(against) and "same_model" in against:
        own = against[against["same_model"].astype(bool)]
        own = own.sort_values("n_published", ascending=False, kind="stable")
        for run, rows in own.groupby(C.RUN, sort=False):
            row = rows.iloc[0]
            setting = row.get("setting")
            named = str(row["published"])
            if isinstance(setting, str) and setting:
                named += f" [{setting}]"
            values = [row["difference"], row["diff_ci95_low"], row["diff_ci95_high"], named]
            found[str(run)] = dict(zip(VS_PUBLISHED, values, strict=True))
    added = [found.get(str(run), empty) for run in results[C.RUN]] if len(results) else []
    out = results.copy()
    at = list(out.columns).index("interval") + 1 if "interval" in out else len(out.columns)
    for offset, column in enumerate(VS_PUBLISHED):
        values = [row[column] for row in added]
        numbers = column != "published_model"  # a number column even where every cell is empty
        out.insert(at + offset, column, pd.array(values, dtype="float") if numbers else values)
    return out


#: The columns of the ranked chart's rows (`chart_rows`).
CHART_COLUMNS = [C.PROTOCOL, "label", "accuracy", "ci95_low", "ci95_high", "mine"]


def chart_rows(results: pd.DataFrame, published: pd.DataFrame | None) -> pd.DataFrame:
    """The ranked chart's rows: each successful run with an accuracy (`mine`), then each
    published row with one, labelled as the chart names them.

    Args:
        results: the results table (`results_table`), one row per run.
        published: the published SPaRC rows of the protocols present, or None
            (`--no-published`).

    Returns:
        one row per point: protocol, label, accuracy and its 95% interval (percent), and
        `mine` (True for a run of these logs, False for a published row).
    """
    import pandas as pd

    mine = results.dropna(subset=["accuracy"])
    mine = mine.assign(mine=True, label=run_labels(mine))
    mine = mine[mine["status"] == "success"] if "status" in mine else mine
    parts = [mine[CHART_COLUMNS]]
    if published is not None and not published.empty:
        pub = published.dropna(subset=["accuracy"])
        settings = pub["setting"] if "setting" in pub else [None] * len(pub)
        pub = pub.assign(
            mine=False,
            label=[
                f"{m}{f' [{p}]' if isinstance(p, str) and p else ''} (published)"
                for m, p in zip(pub[C.MODEL], settings, strict=True)
            ],
        )
        parts.append(pub[CHART_COLUMNS])
    return pd.concat(parts, ignore_index=True)


def run_labels(results: pd.DataFrame) -> list[str]:
    """Each run's label in the ranked chart; a subset run's says its point is an estimate, and
    from how many puzzles (`100 puzzles (informative:100)` -> `(estimate from 100 puzzles)`).

    Args:
        results: the results table, one row per run.

    Returns:
        one label per row of `results`, in its order.
    """
    if "estimated_from" not in results:
        return [str(run) for run in results[C.RUN]]
    return [
        f"{run} (estimate from {source.split(' (')[0]})"
        if isinstance(source, str) and source
        else str(run)
        for run, source in zip(results[C.RUN], results["estimated_from"], strict=True)
    ]


def most_accurate_first(results: pd.DataFrame) -> pd.DataFrame:
    """The results as the page lists them: most accurate first (ties in the logs' order,
    unknown accuracy last; the CSV keeps the logs' order), without the log path.

    Args:
        results: the results table, one row per run.

    Returns:
        the same rows reordered, without the `log` column.
    """
    ranked = results.sort_values("accuracy", ascending=False, kind="stable", na_position="last")
    return ranked.drop(columns=[C.LOG], errors="ignore")


def subset_runs(results: pd.DataFrame) -> list[tuple[str, str]]:
    """The runs on a shipped subset, each with what its counts are of: n and solved count the
    subset's puzzles, while its accuracy is the whole split's estimate.

    Args:
        results: the results table (`results_table`), one row per run.

    Returns:
        (run label, `100 puzzles (informative:100)`) per subset run, in the table's order;
        empty where no run is on a subset.
    """
    if "estimated_from" not in results:
        return []
    return [
        (str(run), source)
        for run, source in zip(results[C.RUN], results["estimated_from"], strict=True)
        if isinstance(source, str) and source
    ]
