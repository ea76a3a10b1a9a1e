"""Tokens: mean output (and reasoning) tokens per sample by level, and accuracy against
output tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.core.puzzle import LEVELS
from inspect_sparc.report import keys as K
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.drawing import (
    error_extents,
    new_figure,
    plot_runs,
    series_styles,
    short_label,
    styled,
)
from inspect_sparc.report.frame import SPARC_TASKS
from inspect_sparc.report.page import Section
from inspect_sparc.report.sections.results import results_of

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


def tokens_by_level(samples: pd.DataFrame) -> pd.DataFrame:
    """Mean output (and reasoning) tokens per sample by level, per model run with tokens."""
    import pandas as pd

    sparc = samples[samples["task"].isin(SPARC_TASKS)] if not samples.empty else samples
    if sparc.empty or sparc["output_tokens"].isna().all():
        return pd.DataFrame()
    sparc = sparc[sparc["output_tokens"].notna()]
    cols = ["output_tokens", "reasoning_tokens", K.CORRECT]
    sparc = sparc.assign(**{c: float("nan") for c in cols if c not in sparc})
    table = sparc.groupby(["log", "run", "protocol", "level"])[cols].mean().reset_index()
    table[K.CORRECT] = 100 * table[K.CORRECT]
    return table.rename(columns={K.CORRECT: "accuracy"})


@styled
def tokens_figure(tokens: pd.DataFrame, results: pd.DataFrame) -> Figure | None:
    """Left: mean output tokens by level per run; right: accuracy (95% interval) against
    output tokens. Both axes start at 0."""
    if tokens.empty:
        return None
    fig = new_figure(9, 5.2)
    left, right = fig.subplots(1, 2)
    plot_runs(left, tokens, "output_tokens", errors=False)
    left.set_xticks(LEVELS)
    left.set_xlabel("difficulty level")
    left.set_ylabel("output tokens per sample")
    left.set_ylim(bottom=0)
    left.set_title("Tokens by level")
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
    known = results.dropna(subset=["output_tokens_per_sample", "accuracy"]).reset_index(drop=True)
    # each run keeps the colour and marker it has on the left; runs only on the right follow
    order = list(dict.fromkeys([*tokens.drop_duplicates("log")["run"], *known["run"]]))
    styles = dict(zip(order, series_styles(), strict=False))
    for i, row in known.iterrows():
        colour, marker, _ = styles[row["run"]]
        err = error_extents(known.loc[[i]], "accuracy", "ci95_low", "ci95_high")
        right.errorbar(
            [row["output_tokens_per_sample"]],
            [row["accuracy"]],
            yerr=err,
            marker=marker,
            color=colour,
            capsize=2,
            linestyle="none",
            label=short_label(row["run"]),
        )
    right.set_xlabel("output tokens per sample")
    right.set_ylabel("accuracy (%), 95% interval")
    right.set_xlim(left=0)
    right.set_ylim(-2, 102)
    right.set_title("Accuracy against tokens")
    right.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), frameon=False)
    return fig


def tokens_section(ctx: Context) -> Section | None:
    """Output tokens by level, and accuracy against tokens."""
    tokens = tokens_by_level(ctx.samples)
    if tokens.empty:
        return None
    s = Section("tokens", "Tokens")
    caption = "Output tokens by level; accuracy against tokens"
    ctx.add_figure(s, tokens_figure(tokens, results_of(ctx)), "tokens", caption)
    ctx.add_table(s, tokens, "tokens_by_level", "Mean tokens per sample by level")
    return s


SPEC = Spec("tokens", tokens_section, ("samples",))
