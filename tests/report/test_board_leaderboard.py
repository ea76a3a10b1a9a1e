"""The report with many runs of one protocol (a leaderboard): the paired matrix, the terminal
summary, the difficulty curves and the heat maps read most accurate first with labels that
keep only what tells runs apart; long tables are folded on the page with a count; heat-map
and matrix text stays legible at the page's width. Real logs with scripted outcomes, the
Holm marks checked against statsmodels."""

from __future__ import annotations

import io
import re
from typing import cast

import pytest
from scripted import scripted_log, scripted_runs

mcnemar = pytest.importorskip("statsmodels.stats.contingency_tables").mcnemar
multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests

#: Five "models" on the same 10 puzzles (which, by sorted position), started in this order:
#: not the order of their accuracy, which is 1.0, 0.8, 0.5, 0.2, 0.0.
SOLVES = {
    "frac-0.00": (),
    "frac-0.50": range(5),
    "frac-1.00": range(10),
    "frac-0.20": (8, 9),
    "frac-0.80": range(8),
}
RANKED = ["frac-1.00", "frac-0.80", "frac-0.50", "frac-0.20", "frac-0.00"]
PREFIX = "openai-api/replay/"
#: The page shows a figure at most this wide at 1280 px (body padding aside), in px.
PAGE_PX = 1248


@pytest.fixture(scope="module")
def board(base, tmp_path_factory):
    """The five runs' report, and each run's outcomes (sample id -> 0/1)."""
    from inspect_sparc.report import build_report

    folder = tmp_path_factory.mktemp("board")
    outcomes = scripted_runs(base, folder, SOLVES, prefix=PREFIX)
    return build_report(folder, tmp_path_factory.mktemp("board-report")), outcomes


def holm_marked(outcomes: dict[str, dict[str, int]]) -> set[frozenset[str]]:
    """The pairs whose McNemar score p (asymptotic, no continuity correction: the test the
    paired table uses), Holm-adjusted over all pairs, is below 0.05."""
    from itertools import combinations

    pairs = list(combinations(outcomes, 2))
    p = []
    for a, b in pairs:
        x, y = outcomes[a], outcomes[b]
        only_a = sum(x[i] and not y[i] for i in x)
        only_b = sum(y[i] and not x[i] for i in x)
        both = sum(x[i] and y[i] for i in x)
        table = [[both, only_a], [only_b, len(x) - both - only_a - only_b]]
        p.append(mcnemar(table, exact=False, correction=False).pvalue)
    adjusted = multipletests(p, method="holm")[1]
    return {frozenset(pair) for pair, q in zip(pairs, adjusted, strict=True) if q < 0.05}


def test_matrix_rows_and_columns_by_accuracy_named_by_what_differs_marked_by_holm(board):
    from inspect_sparc.report.sections.paired import paired_matrix

    report, outcomes = board
    fig = paired_matrix(report.tables["paired"])
    [ax] = [a for a in fig.axes if a.get_title()]
    rows = [t.get_text() for t in ax.get_yticklabels()]
    columns = [t.get_text() for t in ax.get_xticklabels()]
    assert rows == columns == RANKED
    marked = holm_marked(outcomes)
    assert marked  # the script makes at least one pair differ
    stars = [t for t in ax.texts if t.get_text().endswith("*")]
    assert len(stars) == 2 * len(marked)  # each marked pair in both of its cells
    for star in stars:
        col, row = star.get_position()
        assert frozenset({RANKED[round(row)], RANKED[round(col)]}) in marked


def test_terminal_summary_by_accuracy_without_shared_words_in_80_columns(board):
    from rich.console import Console

    from inspect_sparc.report.__main__ import summary_table

    report, _ = board
    console = Console(width=80, record=True, file=io.StringIO())
    console.print(summary_table(report.tables["results"]))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    named = [line.split()[0] for line in lines if line.strip().startswith("frac-")]
    assert named == RANKED
    assert PREFIX not in "".join(lines) and "single_shot" not in "".join(lines)


def test_long_tables_are_folded_with_their_row_count_and_the_page_says_what_differs(board):
    from inspect_sparc.report.render.page import FOLD_ROWS

    report, outcomes = board
    page = report.index.read_text(encoding="utf-8")
    levels = report.tables["paired_levels"]
    assert len(levels) > FOLD_ROWS >= len(report.tables["paired"])  # 50 rows; 10 pairs
    folded = re.findall(r"<details class=\"folded\"><summary[^>]*>([^<]*)", page)
    # the runs are on test puzzles, so each is also paired with the published runs per level
    published_levels = report.tables["published_paired_levels"]
    assert folded == [
        f"Paired comparisons per level (Holm within each pair, over its levels): "
        f"{len(levels)} rows, shown when opened (",
        f"Paired against the published runs per level (Holm within each pair): "
        f"{len(published_levels)} rows, shown when opened (",
    ]
    pairs = len(report.tables["paired"])
    assert f"{len(holm_marked(outcomes))} of {pairs} tested pairs differ (Holm p &lt; 0.05)" in page


def level_frame(runs: int):
    """A long level table (as `level_table` makes) of `runs` runs, log order reversed against
    accuracy: run k solves 5k% at every level, 100 puzzles per level."""
    import pandas as pd

    rows = [
        {
            "log": f"log{k:02d}",
            "run": f"{PREFIX}frac-{k:02d} | single_shot",
            "protocol": "single_shot",
            "level": level,
            "accuracy": 5.0 * k,
            "n": 100,
            "ci95_low": max(0.0, 5.0 * k - 8),
            "ci95_high": min(100.0, 5.0 * k + 8),
        }
        for k in range(1, runs + 1)
        for level in range(1, 6)
    ]
    return pd.DataFrame(rows)


def test_difficulty_curves_of_16_runs_rank_the_legend_and_keep_error_bars_apart():
    from inspect_sparc.report.sections.levels import difficulty_curves

    fig = difficulty_curves(level_frame(16), None)
    [ax] = fig.axes
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [f"frac-{k:02d}" for k in range(16, 0, -1)]  # most accurate first
    for level in range(1, 6):  # the 16 bars of a level stand apart, and by the level
        xs = sorted(x for line in ax.lines for x in line.get_xdata() if abs(x - level) < 0.5)
        xs = sorted(set(round(x, 6) for x in xs))
        assert len(xs) == 16
        assert min(b - a for a, b in zip(xs, xs[1:], strict=False)) >= 0.035
        assert xs[-1] - xs[0] <= 0.6


def legible_px(fig, fontsize: float) -> float:
    """How tall `fontsize` points of `fig` are on the page at 1280 px (150 dpi PNG, shown at
    most `PAGE_PX` wide)."""
    width = fig.get_figwidth() * 150
    return cast(float, fontsize * 150 / 72 * min(1.0, PAGE_PX / width))


def test_heat_maps_rank_runs_and_keep_cell_text_legible(board):
    from inspect_sparc.report.sections.breaks import breaks_heatmap
    from inspect_sparc.report.sections.rules import rule_heatmap

    report, _ = board
    for fig in (
        breaks_heatmap(report.tables["rule_breaks"], report.runs),
        rule_heatmap(report.tables["rule_accuracy"], None, report.runs),
    ):
        ax = fig.axes[0]
        rows = [t.get_text() for t in ax.get_yticklabels()]
        assert [r.removeprefix(PREFIX).split(" ")[0] for r in rows] == RANKED
        sizes = {t.get_fontsize() for t in ax.texts}
        assert min(legible_px(fig, s) for s in sizes) >= 10  # the review measured ~7 px


def test_matrix_text_of_16_runs_stays_legible():
    import pandas as pd

    from inspect_sparc.report.analysis.paired import WITHIN
    from inspect_sparc.report.sections.paired import paired_matrix

    runs = [f"{PREFIX}frac-{k:02d} | single_shot" for k in range(16)]
    rows = [
        {
            "scope": WITHIN,
            "protocol_a": "single_shot",
            "run_a": a,
            "run_b": b,
            "accuracy_a": 3.0 * i,
            "accuracy_b": 3.0 * j,
            "difference": 3.0 * (i - j),
            "p_holm": 0.01,
        }
        for i, a in enumerate(runs)
        for j, b in enumerate(runs)
        if i < j
    ]
    fig = paired_matrix(pd.DataFrame(rows))
    [ax] = [a for a in fig.axes if a.get_title()]
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        f"frac-{k:02d}" for k in range(15, -1, -1)
    ]
    assert legible_px(fig, min(t.get_fontsize() for t in ax.texts)) >= 10
    assert legible_px(fig, ax.get_yticklabels()[0].get_fontsize()) >= 10


def test_an_interval_is_never_broken_on_the_page_and_labels_break_only_between_words(board):
    from inspect_sparc.report.render.page import breakable

    report, _ = board
    page = report.index.read_text(encoding="utf-8")
    results = report.tables["results"]
    for _, row in results.dropna(subset=["ci95_low"]).iterrows():  # each on one line
        interval = f"({row['ci95_low']:.1f}–{row['ci95_high']:.1f})"
        assert f'<span class="interval">{interval}</span>' in page
    assert "span.interval { white-space: nowrap; }" in page
    assert str(breakable("-3.0 (-1.6 to 42.0) <b>")) == (
        '-3.0 <span class="interval">(-1.6 to 42.0)</span> &lt;b&gt;'
    )
    label = f"{PREFIX}frac-1.00 | single_shot"
    assert str(breakable(label)) == "openai-api/<wbr>replay/<wbr>frac-1.00 |<wbr> single_<wbr>shot"
    assert f'<td class="text run">{breakable(label)}</td>' in page  # a run's cell is wide


def test_the_folding_note_appears_only_where_a_table_is_folded(board, base, tmp_path):
    from inspect_sparc.report import build_report

    report, _ = board
    note = "rows are folded: click to open them."
    assert note in report.index.read_text(encoding="utf-8")  # 50 per-level rows
    ids = sorted(str(s.id) for s in base.samples)
    for k, name in enumerate(("a", "b")):  # one pair: 5 per-level rows, nothing folded
        outcomes = {i: int(j % (k + 2) == 0) for j, i in enumerate(ids)}
        scripted_log(base, outcomes, tmp_path / f"{name}.eval", model=f"m/{name}")
    # without the published rows (each run on test puzzles meets every published run, per level
    # too, which folds): this is about the paired section's own tables
    small = build_report(tmp_path, tmp_path / "report", published=False)
    page = small.index.read_text(encoding="utf-8")
    assert "Paired comparisons" in page and note not in page
    assert '<details class="folded"' not in page


def test_rows_without_a_known_accuracy_come_last_in_their_order():
    import pandas as pd

    from inspect_sparc.report.render.figures import most_accurate_first

    runs = pd.DataFrame({"run": ["a", "b", "c", "d"], "accuracy": [0.2, None, 0.9, 0.2]})
    rows = pd.DataFrame({"run": ["x", "a", "b", "c", "d"], "value": range(5)})
    assert most_accurate_first(rows, runs)["run"].tolist() == ["c", "a", "d", "x", "b"]
    assert most_accurate_first(rows, runs.drop(columns="accuracy")).equals(rows)


#: Sixteen runs whose names share a long middle (what a sweep of one model's settings makes),
#: started in this order; run k solves the first (7k mod 11) of the 10 puzzles.
LONG = "claude-sonnet-4-20250514-extended-thinking-budget-16384-temperature-1.0-seed-"
SWEEP = {f"{LONG}{k:02d}": range((7 * k) % 11) for k in range(16)}
#: Most accurate first, ties in the order the runs started (the oracle: the script itself).
SWEEP_RANKED = sorted(SWEEP, key=lambda name: -len(SWEEP[name]))


@pytest.fixture(scope="module")
def board16(base, tmp_path_factory):
    """The 16 runs' report, with every progress call `build_report` made."""
    from inspect_sparc.report import build_report

    folder = tmp_path_factory.mktemp("board16")
    outcomes = scripted_runs(base, folder, SWEEP, prefix=PREFIX)
    calls: list[tuple[str, int, int]] = []
    report = build_report(
        folder,
        tmp_path_factory.mktemp("board16-report"),
        progress=lambda stage, done, total: calls.append((stage, done, total)),
    )
    return report, outcomes, calls


def page_table(page: str, caption: str) -> list[list[str]]:
    """The cells (tags stripped) of each row of the page's table under `caption`."""
    from html import unescape

    if caption not in page:
        return []
    start = page.index(caption)
    body = page[page.index("<tbody>", start) : page.index("</tbody>", start)]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)
    return [
        [unescape(re.sub(r"<[^>]+>", "", cell)) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in rows
    ]


def seed(label: str) -> str:
    """The run's number in a label of `SWEEP` (`...seed-07 | single_shot`, `claude-…07`)."""
    return label.split(" |")[0][-2:]


def test_results_come_first_and_the_list_of_logs_folds(board16):
    report, _, _ = board16
    page = report.index.read_text(encoding="utf-8")
    head = page[: page.index('<h2 id="results"')]
    logs = re.search(r'<details class="logs">(.*?)</details>', head, flags=re.S)
    assert logs is not None and '<details class="logs" open' not in page
    assert logs.group(1).count(".eval</code>") == 16  # every log, when opened
    assert ".eval" not in head.replace(logs.group(0), "")  # nothing else before the results


def test_levels_pairs_and_tokens_tables_list_runs_most_accurate_first(board16):
    report, _, _ = board16
    page = report.index.read_text(encoding="utf-8")
    order = [name[-2:] for name in SWEEP_RANKED]
    levels = page_table(page, "Accuracy (%) by level, 95% interval and n (")
    assert [seed(row[0]) for row in levels] == order
    tokens = page_table(page, "Mean tokens per sample by level")
    if tokens:  # the scripted logs keep the base log's token counts
        assert list(dict.fromkeys(seed(row[0]) for row in tokens)) == order
    rank = {s: i for i, s in enumerate(order)}
    pairs = page_table(page, "Paired comparisons on shared puzzles")
    keys = [sorted((rank[seed(row[0])], rank[seed(row[1])])) for row in pairs]
    assert keys == sorted(keys) and len(keys) == 16 * 15 // 2
    levels = page_table(page, "Paired comparisons per level")
    keys = [sorted((rank[seed(row[0])], rank[seed(row[1])])) for row in levels]
    assert keys == sorted(keys)


def test_one_row_per_pair_holds_its_counts_difference_and_reading(board16):
    report, outcomes, _ = board16
    page = report.index.read_text(encoding="utf-8")
    rows = page_table(page, "Paired comparisons on shared puzzles")
    header = page[page.index("Paired comparisons on shared puzzles") :]
    header = re.sub(r"<[^>]+>", "", header[header.index("<thead>") : header.index("</thead>")])
    assert "both / only_a / only_b / neither" in header and "reading" in header
    csv = {
        (seed(r["run_a"]), seed(r["run_b"])): r for r in report.tables["paired"].to_dict("records")
    }
    for row in rows:
        a, b = seed(row[0]), seed(row[1])
        x, y = outcomes[f"{LONG}{a}"], outcomes[f"{LONG}{b}"]
        counts = [
            sum(x[i] and y[i] for i in x),
            sum(x[i] and not y[i] for i in x),
            sum(y[i] and not x[i] for i in x),
            sum(not x[i] and not y[i] for i in x),
        ]
        assert " / ".join(map(str, counts)) in row  # the script's own counts, on the pair's row
        difference = 100 * (sum(x.values()) - sum(y.values())) / len(x)
        assert any(cell.startswith(f"{difference:.1f}") for cell in row)
        reading = csv[(a, b)]["reading"]
        assert reading is None or reading == reading and reading in row


def test_the_paired_section_leads_with_how_many_pairs_differ(board16):
    report, _, _ = board16
    page = report.index.read_text(encoding="utf-8")
    paired = report.tables["paired"].dropna(subset=["p"])
    differ = int((multipletests(paired["p"], method="holm")[1] < 0.05).sum())
    section = page[page.index('<h2 id="paired"') :]
    first = re.search(r"<p>(.*?)</p>", section, flags=re.S).group(1)
    assert first.startswith(f"{differ} of {len(paired)} tested pairs differ (Holm p &lt; 0.05)")
    assert len(first) < 600  # the method is folded below, not in the lead
    assert '<details class="method">' in section[: section.index("<figure")]


def test_terminal_summary_keeps_labels_whole_when_names_share_a_long_part(board16):
    from rich.console import Console

    from inspect_sparc.report.__main__ import summary_table
    from inspect_sparc.report.render.figures import distinct_labels

    report, _, _ = board16
    results = report.tables["results"]
    for width in (80, 100, 160):
        console = Console(width=width, record=True, file=io.StringIO())
        console.print(summary_table(results, width))
        text = console.export_text()
        assert max(len(line) for line in text.splitlines()) <= width
        assert "…" not in text  # a label wraps between words, never cut
        for label in distinct_labels([str(r) for r in results["run"]]):
            pieces = [p for p in re.split(r"\s+|(?<=-)", label) if p]  # wrapped only here
            assert all(piece in text for piece in pieces), label
    assert len(set(results["run"])) == 16 and not results["run"].str.contains("#").any()


def test_progress_covers_the_build_not_only_the_reading(board16):
    from inspect_sparc.report.__main__ import STAGES
    from inspect_sparc.report.contents import SECTIONS

    _, _, calls = board16
    stages = list(dict.fromkeys(stage for stage, _, _ in calls))
    assert stages == ["headers", "samples", "sections", "page"]
    assert set(stages) <= set(STAGES)  # each named on the bar
    building = [(done, total) for stage, done, total in calls if stage == "sections"]
    assert [done for done, _ in building] == list(range(len(SECTIONS) + 1))
    assert {total for _, total in building} == {len(SECTIONS)}
    assert calls[-1] == ("page", 1, 1)  # the bar is full only once the page is written


@pytest.mark.parametrize(("scale", "half_range"), [(0.05, 5.0), (3.0, 20.0)])
def test_the_matrix_colour_bar_runs_in_points_of_accuracy(scale, half_range):
    """The bar's range and label agree: points of accuracy, the largest difference rounded up to
    5 points (a one-point difference was once the darkest colour of a -1..1 bar)."""
    import pandas as pd

    from inspect_sparc.report.analysis.paired import WITHIN
    from inspect_sparc.report.sections.paired import paired_matrix

    runs = [f"{PREFIX}m-{k} | single_shot" for k in range(5)]
    rows = [
        {"scope": WITHIN, "protocol_a": "single_shot", "run_a": a, "run_b": b,
         "accuracy_a": 0.0, "accuracy_b": 0.0, "difference": scale * (i - j) * (1 + i),
         "p_holm": 0.5}
        for i, a in enumerate(runs) for j, b in enumerate(runs) if i < j
    ]  # fmt: skip
    largest = max(abs(row["difference"]) for row in rows)
    fig = paired_matrix(pd.DataFrame(rows))
    [bar] = [a for a in fig.axes if not a.get_title()]
    low, high = bar.get_ylim()
    assert (low, high) == (-half_range, half_range) and high >= largest
    assert "points of accuracy" in bar.get_ylabel()
