"""The page's sections in order, and the walk that builds them: adding a section is one
module under `sections/` (table, figure, text, `SPEC`) and one line here."""

from __future__ import annotations

from collections.abc import Callable

from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.render.page import Section
from inspect_sparc.report.sections import (
    algopuzzlevqa,
    baselines,
    breaks,
    deltas,
    endings,
    fresh,
    human,
    levels,
    paired,
    published_paired,
    results,
    rules,
    tokens,
    unpaired,
    visual,
)

#: The page's sections, in order: (name, builder, the frames it needs).
SECTIONS: tuple[Spec, ...] = (
    results.SPEC,
    levels.SPEC,
    paired.SPEC,
    published_paired.SPEC,
    human.SPEC,
    unpaired.SPEC,
    fresh.SPEC,
    rules.SPEC,
    deltas.SPEC,
    endings.SPEC,
    breaks.SPEC,
    tokens.SPEC,
    visual.SPEC,
    baselines.SPEC,
    algopuzzlevqa.SPEC,
)


def build_sections(
    ctx: Context,
    specs: tuple[Spec, ...] = SECTIONS,
    progress: Callable[[int, int], None] | None = None,
) -> list[Section]:
    """Walk `specs` in order: each builder whose frames are not empty, each section it made;
    `progress(done, total)` before the first and after each (the build is most of the time
    a report takes).

    Args:
        ctx: the frames and writers every builder reads (`runs`, `samples` ...).
        specs: the sections to build, in page order; a spec is skipped when one of the frames
            it `needs` is empty.
        progress: called as `progress(done, total)` with specs walked and specs in all, or
            None.

    Returns:
        The sections made, in order (a builder that returns None adds none)."""
    sections = []
    if progress:
        progress(0, len(specs))
    for done, spec in enumerate(specs, start=1):
        if not any(getattr(ctx, need).empty for need in spec.needs):
            section = spec.builder(ctx)
            if section is not None:
                sections.append(section)
        if progress:
            progress(done, len(specs))
    return sections
