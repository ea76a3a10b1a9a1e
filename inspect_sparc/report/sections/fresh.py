"""The fresh-puzzle gap: a model's accuracy on the public test split against fresh puzzles
from the generator (`source=generated:SEED`, calibrated to the split level by level).

Per level, and overall with the fresh set re-weighted to the test split's level mix (so a
different level mix cannot make a gap), with 95% intervals from a bootstrap that resamples
puzzles within each level of each set. Runs of several seeds pool into one fresh set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from inspect_sparc.core.sources import GENERATED
from inspect_sparc.report import keys as K
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
from inspect_sparc.report.stats import stratified_difference

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


def is_test_split(run: Any) -> bool:
    """True for a run on the published test split (all of it, or a level selection)."""
    split, subset = run.get("split"), run.get("subset")
    return (
        not is_fresh(run.get("source"))
        and str(split) in ("test", "None", "nan")
        and str(subset) in ("all", "None", "nan")
    )


def level_values(samples: pd.DataFrame, logs: list[str]) -> dict[int, list[float]]:
    """Per level: each puzzle's outcome (epochs averaged) over the given logs, pooled."""
    chosen = samples[samples["log"].isin(logs)].dropna(subset=[K.CORRECT])
    per = chosen.groupby(["log", "id"], sort=False).agg(
        level=("level", "first"), correct=(K.CORRECT, "mean")
    )
    return {int(lv): g["correct"].tolist() for lv, g in per.groupby("level") if lv == lv}


def gap_rows(test: Any, fresh: pd.DataFrame, samples: pd.DataFrame) -> list[dict[str, Any]]:
    """Per level and overall: test accuracy, pooled fresh accuracy, gap and its interval."""
    mine = level_values(samples, [test["log"]])
    theirs = level_values(samples, list(fresh["log"]))
    levels = sorted(set(mine) & set(theirs))
    base = {
        "model": test["model"],
        "protocol": test["protocol"],
        "test_run": test["run"],
        "fresh_runs": "; ".join(fresh["run"]),
        "seeds": ", ".join(str(s).removeprefix(GENERATED) for s in fresh["source"]),
    }
    rows = []
    for level in [*levels, OVERALL]:
        strata = levels if level == OVERALL else [level]
        a, b, interval = stratified_difference(
            [mine[lv] for lv in strata], [theirs[lv] for lv in strata]
        )
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
            }
        )
    return rows


def fresh_gap_table(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """The gap for every model with runs on the test split and on generated puzzles under the
    same protocol settings (the latest test run; every fresh run pooled)."""
    import pandas as pd

    runs = eligible(runs)
    if runs.empty or samples is None or samples.empty:
        return pd.DataFrame()
    keys = [k for k in SAME if k in runs]
    runs = runs.assign(_key=[tuple(str(r.get(k)) for k in keys) for _, r in runs.iterrows()])
    rows: list[dict[str, Any]] = []
    for _, group in runs.groupby(["model", "_key"], sort=False):
        fresh = group[group["source"].map(is_fresh)]
        tests = group[[is_test_split(r) for _, r in group.iterrows()]]
        if fresh.empty or tests.empty:
            continue
        rows += gap_rows(tests.sort_values("started_at").iloc[-1], fresh, samples)
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
        "Per model and protocol with runs on the test split and on generated puzzles "
        "(source=generated:SEED; several seeds pool): accuracy on each per level, and the "
        "gap test - fresh with a 95% interval (a bootstrap over puzzles within each level of "
        "each set); overall, the fresh set is re-weighted to the test split's level mix. "
        + MEANING,
    )
    caption = "Test split minus fresh puzzles, per level and overall (95% intervals)"
    ctx.add_figure(s, fresh_gap_figure(gaps), "fresh_gap", caption)
    ctx.add_table(s, gaps, "fresh_gap", "Fresh-puzzle gap (points)")
    return s


SPEC = Spec("fresh", fresh_section, ("samples",))
