"""The fresh-puzzle gap: a model's accuracy on the public test split against fresh puzzles
from the generator (`source=generated:SEED`, calibrated to the split level by level).

The test side is a run on the benchmark's test puzzles, recognised by content (the shipped
test-grid hashes), the largest where there are several. Per level, and overall with the fresh
set re-weighted to the test split's level mix (so a different level mix cannot make a gap),
with Newcombe's score interval and a Cochran-Mantel-Haenszel p stratified by level. Runs of
several seeds pool into one fresh set; a puzzle met in several runs is one unit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.contract import scores as K
from inspect_sparc.core.sources import GENERATED
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.drawing import (
    PROTOCOL_TITLES,
    error_extents,
    new_figure,
    series_styles,
    short_label,
    styled,
)
from inspect_sparc.report.page import Section
from inspect_sparc.report.sections.paired import eligible
from inspect_sparc.report.stats import cmh, stratified_difference

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


#: Settings a test run and a fresh run must share (besides the model) to be compared.
SAME = ("task", "protocol", "prompt", "max_steps", "observation", "plot", "extraction")
OVERALL = "all (fresh re-weighted to the test mix)"
#: What a gap does and does not show, as the page says it.
MEANING = (
    "A model that scores higher on the public test puzzles than on fresh puzzles of the same "
    "levels may have seen the test puzzles (or their solutions) in training: that is what a "
    "gap whose interval excludes 0 is consistent with. It does not prove it: the generator "
    "matches the split level by level, yet its puzzles may still be easier or harder in ways "
    "the levels do not capture (rule mix, grid size, solution length), and a gap inside its "
    "interval is no evidence either way. No gap does not show that a model never saw the "
    "test split."
)


def is_fresh(source: Any) -> bool:
    """True for a run on generated puzzles."""
    return str(source).startswith(GENERATED)


def test_side(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """The runs on the benchmark's test puzzles, recognised by content: every puzzle's grid is
    one of the 500 shipped test-grid hashes (a run on generated puzzles, or on a local file of
    them, never is), with `n_puzzles` each."""
    if "test_grid" not in samples:
        return runs.iloc[0:0].assign(n_puzzles=0)
    scored = samples.dropna(subset=[K.CORRECT])
    per_log = scored.groupby("log")["test_grid"].agg(
        lambda v: bool(v.notna().all() and v.astype(bool).all())
    )
    counts = scored.groupby("log")["id"].nunique()
    test_logs = {str(log) for log, ok in per_log.items() if ok}
    chosen = runs[runs["log"].isin(test_logs) & ~runs["source"].map(is_fresh)]
    return chosen.assign(n_puzzles=chosen["log"].map(counts).fillna(0).astype(int))


def pick_test_run(tests: pd.DataFrame) -> tuple[Any, str]:
    """The largest test-side run (the latest of equals), and a line saying which and why."""
    ordered = tests.sort_values(["n_puzzles", "started_at"], kind="stable")
    chosen = ordered.iloc[-1]
    why = f"{chosen['n_puzzles']} test puzzles"
    if len(tests) > 1:
        why = f"the largest of {len(tests)} runs on test puzzles ({why})"
    return chosen, why


def puzzle_key(samples: pd.DataFrame) -> pd.Series:
    """What makes two samples the same puzzle, whichever log they come from: the grid's hash
    where known, else the source and id."""
    fallback = samples["source"].astype(str) + "/" + samples["id"].astype(str)
    if "grid" not in samples:
        return fallback
    return samples["grid"].where(samples["grid"].notna(), fallback)


def level_values(samples: pd.DataFrame, logs: list[str]) -> dict[int, list[float]]:
    """Per level: each puzzle's outcome over the given logs, one value per puzzle (the same
    puzzle in several logs is one unit: its runs are epochs, all averaged)."""
    chosen = samples[samples["log"].isin(logs)].dropna(subset=[K.CORRECT])
    chosen = chosen.assign(_puzzle=puzzle_key(chosen))
    per = chosen.groupby("_puzzle", sort=False).agg(
        level=("level", "first"), correct=(K.CORRECT, "mean")
    )
    return {int(lv): g["correct"].tolist() for lv, g in per.groupby("level") if lv == lv}


def gap_rows(
    test: Any, why: str, fresh: pd.DataFrame, samples: pd.DataFrame
) -> list[dict[str, Any]]:
    """Per level and overall: test accuracy, fresh accuracy (seeds pooled, each puzzle once),
    the gap with its Newcombe interval and the CMH p-value (stratified by level overall)."""
    mine = level_values(samples, [test["log"]])
    theirs = level_values(samples, list(fresh["log"]))
    levels = sorted(set(mine) & set(theirs))
    base = {
        "model": test["model"],
        "protocol": test["protocol"],
        "test_run": test["run"],
        "test_side": why,
        "fresh_runs": "; ".join(fresh["run"]),
        "seeds": ", ".join(sorted({str(s).removeprefix(GENERATED) for s in fresh["source"]})),
    }
    rows: list[dict[str, Any]] = []
    if not levels:  # the runs share no level: nothing to compare, not a row of zeros
        return rows
    parts: list[tuple[int | str, list[int]]] = [(lv, [lv]) for lv in levels]
    for level, strata in [*parts, (OVERALL, levels)]:
        first, second = [mine[lv] for lv in strata], [theirs[lv] for lv in strata]
        a, b, interval = stratified_difference(first, second)
        rows.append(
            {
                **base,
                "level": level,
                "n_test": sum(len(mine[lv]) for lv in strata),
                "test_accuracy": 100 * a,
                "n_fresh": sum(len(theirs[lv]) for lv in strata),
                "fresh_accuracy": 100 * b,
                "gap": 100 * (a - b),
                "gap_ci95_low": 100 * interval.low,
                "gap_ci95_high": 100 * interval.high,
                "gap_p": cmh(first, second)[1],
            }
        )
    return rows


def fresh_gap_table(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """The gap for every model with runs on the test puzzles and on generated puzzles under
    the same protocol settings (the largest test-side run; every fresh run pooled)."""
    import pandas as pd

    runs = eligible(runs)
    if runs.empty or samples is None or samples.empty:
        return pd.DataFrame()
    keys = [k for k in SAME if k in runs]
    runs = runs.assign(_key=[tuple(str(r.get(k)) for k in keys) for _, r in runs.iterrows()])
    tests_all = test_side(runs, samples)
    rows: list[dict[str, Any]] = []
    for _, group in runs.groupby(["model", "_key"], sort=False):
        fresh = group[group["source"].map(is_fresh)]
        tests = tests_all[tests_all["log"].isin(set(group["log"]))]
        if fresh.empty or tests.empty:
            continue
        test, why = pick_test_run(tests)
        rows += gap_rows(test, why, fresh, samples)
    return pd.DataFrame(rows)


@styled
def fresh_gap_figure(gaps: pd.DataFrame) -> Figure | None:
    """Per model and protocol: the gap (test split minus fresh puzzles, points) per level and
    overall, with its 95% interval; 0 drawn as a line."""
    if gaps.empty:
        return None
    groups = list(gaps.groupby(["model", "protocol"], sort=False))
    fig = new_figure(7.5, 2.8 * len(groups))
    axes = fig.subplots(len(groups), 1, squeeze=False).ravel()
    for ax, ((model, protocol), group) in zip(axes, groups, strict=True):
        group = group.reset_index(drop=True)
        err = error_extents(group, "gap", "gap_ci95_low", "gap_ci95_high")
        ticks = [str(lv) if isinstance(lv, int) else "all\n(re-weighted)" for lv in group["level"]]
        colour, marker, _ = next(series_styles())
        ax.errorbar(
            range(len(group)),
            group["gap"],
            yerr=err,
            marker=marker,
            color=colour,
            capsize=3,
            linestyle="none",
        )
        ax.axhline(0, color="black", linewidth=0.6)
        ax.set_xticks(range(len(group)), ticks)
        ax.set_xlabel("difficulty level")
        ax.set_ylabel("test - fresh (points)")
        ax.set_title(short_label(f"{model} | {PROTOCOL_TITLES.get(protocol, protocol)}", 70))
        ax.grid(axis="y", color="0.92")
    return fig


def fresh_section(ctx: Context) -> Section | None:
    """The fresh-puzzle gap: test split against generated puzzles of the same levels."""
    gaps = fresh_gap_table(ctx.runs, ctx.samples)
    if gaps.empty:
        return None
    s = Section(
        "fresh",
        "Fresh-puzzle gap",
        "Per model and protocol with a run on the benchmark's test puzzles (recognised by "
        "content: every grid is one of the 500 test-split grids; the largest such run, named "
        "in test_side) and runs on generated puzzles (source=generated:SEED; seeds pool, and a "
        "puzzle met in several runs counts once, its runs as epochs): accuracy on each per "
        "level, and the gap test - fresh with Newcombe's hybrid score 95% interval; overall, "
        "the fresh set is re-weighted to the test split's level mix (each side's interval at "
        "Kish's effective n), and gap_p is the Cochran-Mantel-Haenszel test stratified by "
        "level. " + MEANING,
    )
    caption = "Test split minus fresh puzzles, per level and overall (95% intervals)"
    ctx.add_figure(s, fresh_gap_figure(gaps), "fresh_gap", caption)
    ctx.add_table(s, gaps, "fresh_gap", "Fresh-puzzle gap (points)")
    return s


SPEC = Spec("fresh", fresh_section, ("samples",))
