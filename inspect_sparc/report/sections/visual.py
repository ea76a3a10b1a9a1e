"""Visual: image runs by plot type and prompt, beside the published visual runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspect_sparc.report.analysis.visual import visual_table
from inspect_sparc.report.context import Context, Spec
from inspect_sparc.report.published import visual_settings, with_wilson
from inspect_sparc.report.read import columns as C
from inspect_sparc.report.render.figures import dot_chart
from inspect_sparc.report.render.page import Section

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure


def visual_bars(visual: pd.DataFrame, published: pd.DataFrame | None) -> Figure | None:
    """Accuracy by plot type (and prompt), 95% intervals: image runs, then the published
    visual runs (muted)."""
    import pandas as pd

    if visual.empty:
        return None
    title = "Visual: accuracy by plot type"
    rows = visual.assign(
        label=[f"{r} [{p}]" for r, p in zip(visual[C.RUN], visual["plot"], strict=True)],
        published=False,
    )
    if published is not None and not published.empty:
        pub = with_wilson(published).assign(published=True)
        models = set(pub[C.MODEL])
        one_model = len(models) == 1
        pub["label"] = published_visual_labels(pub, with_model=not one_model)
        rows = pd.concat([rows, pub], ignore_index=True)
        if one_model:  # the published runs are all of one model: say it once, in the title
            title = f"Visual: accuracy by plot type\n(published: {models.pop()})"
    return dot_chart(rows, "accuracy", title, "accuracy (%)", label_width=72)


def published_visual_labels(pub: pd.DataFrame, with_model: bool = True) -> list[str]:
    """`model [plot, prompt, ...] (published)` (without the model when the title names it): the
    published setting that tells the runs apart (`published.visual_settings`)."""
    settings = pub["setting"] if "setting" in pub else visual_settings(pub)
    return [
        f"{m + ' ' if with_model else ''}[{setting}] (published)"
        for m, setting in zip(pub[C.MODEL], settings, strict=True)
    ]


def visual_section(ctx: Context) -> Section | None:
    """Image runs by plot type, with the published visual runs."""
    visual = visual_table(ctx.runs, ctx.samples)
    if visual.empty:
        return None
    s = Section("visual", "Visual")
    pub_visual = ctx.shipped("sparc_visual")
    if pub_visual is not None:
        pub_visual = pub_visual[pub_visual[C.PROTOCOL] == "visual"]
    ctx.add_figure(s, visual_bars(visual, pub_visual), "visual", "Accuracy by plot type")
    ctx.add_table(s, visual, "visual", "Image runs by plot type")
    return s


SPEC = Spec("visual", visual_section)
