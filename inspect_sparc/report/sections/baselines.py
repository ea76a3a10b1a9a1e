"""Baselines: the baseline runs, each gym log's own chance, and the A* baseline and exact
chance computed on each run's puzzles at that run's own max_steps and traceback."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.baselines import baselines_table
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    pass


def baselines_section(ctx: Context) -> Section | None:
    """Baseline runs, chance levels and A* on each run's own puzzles.

    Args:
        ctx: what the section reads (frames, published rows) and writes to (`context.Context`).

    Returns:
        the section, or None where the logs hold nothing it shows.
    """
    baselines = baselines_table(ctx.runs, ctx.samples)
    if baselines.empty:
        return None
    s = Section(
        "baselines",
        "Baselines",
        "Reference marks for the puzzles in these logs: baseline runs, each gym log's "
        "exact chance level, and the A* baseline and exact chance (a uniformly random "
        "legal walk solving) computed on each run's own puzzles at its own max_steps and "
        "traceback (the gym's default limit for runs without steps; no exact chance with "
        "traceback). Errored and cancelled runs donate no row.",
    )
    ctx.add_table(s, baselines, "baselines", "Baselines on the logged puzzles")
    return s


SPEC = Spec("baselines", baselines_section)
