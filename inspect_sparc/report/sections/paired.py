"""Paired comparisons of runs on the same puzzles: the 2x2 table, the difference with a paired
interval and the exact McNemar test, and the matrix of every pair within a protocol.

Each run's per-puzzle outcome is indexed by puzzle id once (`outcome_index`); a pair is then
an index join, so the cost grows with runs x runs x puzzles, never samples x samples. Pairs
are formed within a protocol (same task, protocol, source, split and subset) and, per model,
across protocols on the same puzzles (single shot against gym against agent).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from inspect_sparc.report import keys as K
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.drawing import PROTOCOL_TITLES, new_figure, short_label, styled
from inspect_sparc.report.frame import SPARC_TASKS, complete_mask
from inspect_sparc.report.page import Section
from inspect_sparc.report.stats import BOOTSTRAP, mcnemar_exact, paired_difference

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


#: Settings that decide which puzzles a run saw (runs compared must share them).
PUZZLE_SETTINGS = ("source", "split", "subset")
WITHIN = "within protocol"
ACROSS = "across protocols (same model)"


def eligible(runs: pd.DataFrame) -> pd.DataFrame:
    """Runs a comparison may use: complete model runs of SPaRC tasks with an accuracy (an
    errored or cancelled run, or a baseline solver, never enters a comparison)."""
    ok = complete_mask(runs) & ~runs["baseline"].astype(bool)
    ok &= runs["task"].isin(SPARC_TASKS) & runs[K.ACCURACY].notna()
    return runs[ok]


def outcome_index(samples: pd.DataFrame) -> dict[str, pd.Series]:
    """Per log: puzzle id -> its outcome (mean of `correct` over epochs), scored puzzles only."""
    if samples is None or samples.empty or K.CORRECT not in samples:
        return {}
    scored = samples.dropna(subset=[K.CORRECT])
    means = scored.groupby(["log", "id"], sort=False)[K.CORRECT].mean()
    return {str(log): series.droplevel(0) for log, series in means.groupby(level=0, sort=False)}


def _puzzle_key(run: Any) -> tuple[str, ...]:
    return tuple(str(run.get(k)) for k in PUZZLE_SETTINGS)


def candidate_pairs(runs: pd.DataFrame) -> list[tuple[Any, Any, str]]:
    """(run a, run b, scope) for every pair within a protocol and, per model, across
    protocols; runs in started order, so a is the earlier."""
    pairs: list[tuple[Any, Any, str]] = []
    records = [row for _, row in runs.iterrows()]
    for a, b in combinations(records, 2):
        if _puzzle_key(a) != _puzzle_key(b):
            continue
        if a["task"] == b["task"] and a["protocol"] == b["protocol"]:
            pairs.append((a, b, WITHIN))
        elif a["model"] == b["model"] and a["protocol"] != b["protocol"]:
            pairs.append((a, b, ACROSS))
    return pairs


def compare(a: pd.Series, b: pd.Series) -> dict[str, Any] | None:
    """The comparison of two runs' outcomes on the puzzles both scored (None: none shared)."""
    import numpy as np

    shared = a.index.intersection(b.index)
    if len(shared) == 0:
        return None
    x, y = a.loc[shared].to_numpy(float), b.loc[shared].to_numpy(float)
    binary = bool(np.isin(x, (0.0, 1.0)).all() and np.isin(y, (0.0, 1.0)).all())
    interval = paired_difference(x, y)
    row: dict[str, Any] = {
        "n_shared": len(shared),
        "accuracy_a": 100 * x.mean(),
        "accuracy_b": 100 * y.mean(),
        "difference": 100 * (x.mean() - y.mean()),
        "diff_ci95_low": 100 * interval.low,
        "diff_ci95_high": 100 * interval.high,
        "interval": f"paired {BOOTSTRAP}",
    }
    if binary:
        both, only_a = int((x * y).sum()), int((x * (1 - y)).sum())
        only_b, neither = int(((1 - x) * y).sum()), int(((1 - x) * (1 - y)).sum())
        row.update(both=both, only_a=only_a, only_b=only_b, neither=neither)
        row["mcnemar_p"] = mcnemar_exact(only_a, only_b)
    return row


def paired_table(runs: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """One row per pair of runs sharing puzzles: scope, the runs, how many puzzles each
    scored and how many they share, the 2x2 table (both, only a, only b, neither), accuracy
    of each on the shared puzzles, the difference a - b in points with its paired 95%
    interval, and the exact McNemar p (the 2x2 and p only where every outcome is 0 or 1)."""
    import pandas as pd

    index = outcome_index(samples)
    rows = []
    for a, b, scope in candidate_pairs(eligible(runs)):
        ia, ib = index.get(a["log"]), index.get(b["log"])
        if ia is None or ib is None:
            continue
        found = compare(ia, ib)
        if found is None:
            continue
        rows.append(
            {
                "scope": scope,
                "run_a": a["run"],
                "run_b": b["run"],
                "protocol_a": a["protocol"],
                "protocol_b": b["protocol"],
                "n_a": len(ia),
                "n_b": len(ib),
                **found,
            }
        )
    columns = ["run_a", "run_b", "scope", "protocol_a", "protocol_b", "n_a", "n_b", "n_shared"]
    columns += ["both", "only_a", "only_b", "neither", "accuracy_a", "accuracy_b"]
    columns += ["difference", "diff_ci95_low", "diff_ci95_high", "mcnemar_p", "interval"]
    table = pd.DataFrame(rows)
    return table[[c for c in columns if c in table]] if len(table) else table


def paired_of(ctx: Context) -> pd.DataFrame:
    """The paired table of `ctx`, made once (the protocol deltas read it too)."""
    return ctx.shared("paired", lambda c: paired_table(c.runs, c.samples))


#: Runs in one protocol from which the pairs are drawn as a matrix (fewer: the table says it).
MATRIX_FROM = 4


@styled
def paired_matrix(paired: pd.DataFrame) -> Figure | None:
    """Per protocol with at least `MATRIX_FROM` runs: the paired difference (row - column,
    points) of every pair, a diverging colour-blind-safe map; `*` marks McNemar p < 0.05."""
    import numpy as np

    if paired.empty:
        return None
    within = paired[paired["scope"] == WITHIN]
    groups = []
    for protocol, group in within.groupby("protocol_a", sort=False):
        runs = list(dict.fromkeys([*group["run_a"], *group["run_b"]]))
        if len(runs) >= MATRIX_FROM:
            groups.append((protocol, runs, group))
    if not groups:
        return None
    size = max(len(r) for _, r, _ in groups)
    fig = new_figure(2.5 + 0.5 * size, (1.5 + 0.42 * size) * len(groups))
    axes = np.atleast_1d(fig.subplots(len(groups), 1, squeeze=False).ravel())
    for ax, (protocol, runs, group) in zip(axes, groups, strict=True):
        at = {r: i for i, r in enumerate(runs)}
        matrix = np.full((len(runs), len(runs)), np.nan)
        stars = np.zeros_like(matrix, dtype=bool)
        for _, row in group.iterrows():
            i, j = at[row["run_a"]], at[row["run_b"]]
            matrix[i, j], matrix[j, i] = row["difference"], -row["difference"]
            p = row.get("mcnemar_p")
            stars[i, j] = stars[j, i] = p is not None and p == p and p < 0.05
        top = max(1.0, float(np.nanmax(np.abs(matrix))))
        image = ax.imshow(matrix, cmap="PuOr", vmin=-top, vmax=top)
        for (i, j), value in np.ndenumerate(matrix):
            if value == value:
                text = (f"{value:+.0f}" if round(value) else "0") + ("*" if stars[i, j] else "")
                dark = abs(value) > 0.6 * top
                ax.text(
                    j,
                    i,
                    text,
                    ha="center",
                    va="center",
                    fontsize=6,
                    color="white" if dark else "black",
                )
        labels = [short_label(r, 36) for r in runs]
        ax.set_xticks(range(len(runs)), labels, rotation=35, ha="right", fontsize=6)
        ax.set_yticks(range(len(runs)), labels, fontsize=6)
        ax.set_title(f"{PROTOCOL_TITLES.get(protocol, protocol)}: row minus column (points)")
        fig.colorbar(image, ax=ax, shrink=0.8, label="difference (points)")
    return fig


#: The paired table on the page: the counts, then the difference and the test.
PAIRED_PAGE = [
    ["run_a", "run_b", "scope", "n_a", "n_b", "n_shared", "both", "only_a", "only_b", "neither"],
    ["run_a", "run_b", "accuracy_a", "accuracy_b", "difference", "mcnemar_p", "interval"],
]


def paired_section(ctx: Context) -> Section | None:
    """Paired comparisons of runs on the same puzzles (within and across protocols)."""
    paired = paired_of(ctx)
    if paired.empty:
        return None
    s = Section(
        "paired",
        "Paired comparisons",
        "Runs that share puzzles, compared puzzle by puzzle: within a protocol (same task, "
        "source, split, subset) and per model across protocols. both / only_a / only_b / "
        "neither count the shared puzzles each run solved; the difference a - b (points) has "
        "a paired 95% interval (a bootstrap over the shared puzzles, pairs kept together) and "
        "mcnemar_p is the exact McNemar test (a binomial test on the discordant puzzles). "
        "n_a, n_b and n_shared say how many puzzles each scored and share. Errored, "
        "cancelled and baseline runs are left out.",
    )
    caption = "Paired differences, row minus column (* McNemar p < 0.05)"
    ctx.add_figure(s, paired_matrix(paired), "paired_matrix", caption)
    parts = [[c for c in part if c in paired] for part in PAIRED_PAGE]
    ctx.add_table(s, paired, "paired", "Paired comparisons on shared puzzles", page=parts)
    return s


SPEC = Spec("paired", paired_section, ("samples",))
