"""The published results shipped with the package (see data/README.md for every number's source),
and the SPaRC rows shown beside the runs of each protocol (with Wilson intervals from their n).

Percentages as the papers print them (15.8 means 15.8%); every row names its paper and table.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from inspect_sparc.contract.protocols import PROTOCOLS
from inspect_sparc.core.puzzle.parse import LEVELS

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: The shipped files, by the name the report uses.
FILES = {
    "sparc": "sparc_published.csv",
    "sparc_by_rule": "sparc_published_by_rule.csv",
    "sparc_visual": "sparc_published_visual.csv",
    "algopuzzlevqa": "algopuzzlevqa_published.csv",
    "algopuzzlevqa_by_category": "algopuzzlevqa_published_by_category.csv",
    "sparc_rebuttal": "spatial_gym_rebuttal.csv",
}
#: Our `prompt` setting -> the published `prompt` values it reproduces (single shot and gym).
PROMPT_MATCH = {"paper": ("default", "default (reasoning on)")}
#: Our AlgoPuzzleVQA `prompt` setting -> the paper's setup column.
ALGOPUZZLEVQA_SETUP = {"describe": "eCoT", "cot": "CoT"}


@cache
def _read(name: str) -> pd.DataFrame:
    import pandas as pd

    with files("inspect_sparc.report.data").joinpath(FILES[name]).open("rb") as handle:
        return pd.read_csv(handle)


def published(name: str) -> pd.DataFrame:
    """One shipped table (a copy: callers may change it), placeholder model names replaced
    by what is known (`display_model`).

    Args:
        name: a key of `FILES` (`sparc`, `sparc_visual`, `sparc_rebuttal`, `algopuzzlevqa` ...).

    Returns:
        The CSV's rows as the papers print them (accuracies in percent), with `named` beside
        `model`, `prompt` taken from the notes where the file has none, and `setting`
        (`visual_settings`) for the visual runs.

    Raises:
        KeyError: for a name not in `FILES`."""
    table = _read(name).copy()
    if "model" in table:
        table["model"] = [
            display_model(m, t) for m, t in zip(table["model"], _tables(table), strict=True)
        ]
        table["named"] = [named(m) for m in table["model"]]
    if "prompt" not in table and "notes" in table:  # the visual runs say it in their notes
        table["prompt"] = table["notes"].str.extract(r"prompt_type=([^;]+)", expand=False)
    if "plot_type" in table:
        table["setting"] = visual_settings(table)
    return table


def _note_field(note: str, name: str) -> str:
    """`name=value` of a published row's notes (`seed=42; run=...`), or ""."""
    found = re.search(rf"{name}=(\w+)", note)
    return found.group(1) if found else ""


def visual_settings(table: pd.DataFrame) -> list[str]:
    """What tells a published visual run apart: `plot, prompt`, and where that repeats its
    seed (or its run stamp where the seeds repeat too, or its note) from the notes.

    Args:
        table: published visual rows (`plot_type`, and `prompt` and `notes` where present).

    Returns:
        One setting per row, in the table's order (`original, prompt_engineering, seed 42`)."""
    prompts = table["prompt"] if "prompt" in table else [None] * len(table)
    notes = [str(n) for n in (table["notes"] if "notes" in table else [""] * len(table))]
    bases = [
        ", ".join(str(x) for x in (plot, prompt) if isinstance(x, str))
        for plot, prompt in zip(table["plot_type"], prompts, strict=True)
    ]
    settings = []
    for base, note in zip(bases, notes, strict=True):
        group = [n for b, n in zip(bases, notes, strict=True) if b == base]
        if len(group) > 1:
            seeds = [_note_field(n, "seed") for n in group]
            name = "seed" if len(set(seeds)) == len(seeds) else "run"
            value = _note_field(note, name)
            aside = note.split(";")[1].strip()[:30] if ";" in note else ""
            base += f", {name} {value}" if value else (f", {aside}" if aside else "")
        settings.append(base)
    return settings


def _tables(table: pd.DataFrame) -> list[str]:
    return [str(t) for t in table["table"]] if "table" in table else [""] * len(table)


#: The leaderboard rows' position words, as the shipped `table` field writes them.
ROW_WORDS = {"first": 1, "second": 2, "third": 3}
UNNAMED = "model not named"


def display_model(model: str, table: str = "") -> str:
    """A published row's model as the report shows it: a leaderboard row whose name is an
    image without alt text, or only a tentative guess, is "leaderboard row N, model not
    named" (a guess kept after it: "; possibly <guess>").

    Args:
        model: the shipped `model` field (an `UNRESOLVED ...` placeholder, a name with
            "tentative" in it, or a plain model name).
        table: the row's `table` field, which says the leaderboard row ("first row" ...).

    Returns:
        The model name as it is, or "leaderboard row N, model not named" with "; possibly
        <guess>" for a tentative one."""
    text = str(model)
    if not (text.startswith("UNRESOLVED") or "tentative" in text):
        return text
    row = next((n for word, n in ROW_WORDS.items() if f"{word} row" in table), None)
    where = f"leaderboard row {row}" if row else "leaderboard row"
    guess = text.split(" (", 1)[0]
    if text.startswith("UNRESOLVED"):
        return f"{where}, {UNNAMED}"
    return f"{where}, {UNNAMED}; possibly {guess}"


def named(model: str) -> bool:
    """False for a row whose model is not known (left out of figure legends).

    Args:
        model: the model as `display_model` shows it.

    Returns:
        Whether the model is named."""
    return UNNAMED not in str(model)


def with_wilson(rows: pd.DataFrame) -> pd.DataFrame:
    """Published rows with the Wilson 95% interval (%) of their accuracy from their own n
    (the solved count is accuracy x n, rounded: the papers print one decimal).

    Args:
        rows: published rows with `n` (puzzles) and `accuracy` (percent).

    Returns:
        The rows with `ci95_low` and `ci95_high` in percent; None for a row without n or
        accuracy."""
    from inspect_sparc.report.statistics.score_intervals import wilson

    lows: list[float | None] = []
    highs: list[float | None] = []
    for n, acc in zip(rows.get("n", []), rows.get("accuracy", []), strict=True):
        if n != n or acc != acc or n is None or acc is None:
            lows.append(None)
            highs.append(None)
            continue
        interval = wilson(round(float(acc) * float(n) / 100), int(n))
        lows.append(100 * interval.low)
        highs.append(100 * interval.high)
    return rows.assign(ci95_low=lows, ci95_high=highs)


def sparc_and_rebuttal() -> pd.DataFrame:
    """The paper rows, then the rebuttal rows that no paper row already holds (the
    rebuttal repeats five paper runs under longer model names: same protocol, n, levels).

    Returns:
        The `sparc` table's rows followed by the new rows of `sparc_rebuttal`, a fresh index."""
    import pandas as pd

    paper = published("sparc")
    later = published("sparc_rebuttal")

    def keys(table: pd.DataFrame) -> list[tuple[Any, ...]]:
        numbers = table[["n", "accuracy", *[f"level_{lv}" for lv in range(1, 6)]]]
        cells = numbers.astype(float).round(1).to_numpy().tolist()
        return [(p, *c) for p, c in zip(table["protocol"], cells, strict=True)]

    seen = set(keys(paper))
    fresh = [key not in seen for key in keys(later)]
    return pd.concat([paper, later[fresh]], ignore_index=True)


def sparc_rows(protocol: str, prompt: str | None = "paper") -> pd.DataFrame:
    """Published SPaRC rows of a protocol whose prompt matches ours (`prompt=None`: any),
    the authors' rebuttal rows included.

    Args:
        protocol: the protocol as the run frame names it (`single_shot`, `gym` ...).
        prompt: our `prompt` setting; its published counterparts are `PROMPT_MATCH[prompt]`
            (none for a prompt the papers did not run); None for every prompt.

    Returns:
        The matching rows of `sparc_and_rebuttal`."""
    table = sparc_and_rebuttal()
    rows = table[table["protocol"] == protocol]
    if prompt is not None:
        rows = rows[rows["prompt"].isin(PROMPT_MATCH.get(prompt, ()))]
    return rows


def baseline_rows() -> pd.DataFrame:
    """The Spatial-Gym paper's A* and random baselines (gym protocol, 500 test puzzles).

    Returns:
        The `sparc` table's rows of protocol `baseline_astar` and `baseline_random`."""
    table = published("sparc")
    return table[table["protocol"].isin(["baseline_astar", "baseline_random"])]


def source_of(row: pd.Series) -> str:
    """One line naming where a published row comes from: paper, arXiv id and table.

    Args:
        row: a published row (`paper`, else `source`; `arxiv` and `table` where known).

    Returns:
        "paper, arXiv id, table", the parts missing from the row left out."""
    paper = row.get("paper") or row.get("source") or ""
    arxiv = row.get("arxiv")
    table = row.get("table")
    parts = [str(paper)]
    if isinstance(arxiv, str | float) and str(arxiv) not in ("", "nan"):
        parts.append(f"arXiv {arxiv}")
    if isinstance(table, str) and table:
        parts.append(table)
    return ", ".join(parts)


def published_results(runs: pd.DataFrame) -> pd.DataFrame:
    """The published SPaRC rows for the protocols (and prompts) present in the runs, marked.

    Args:
        runs: the run frame (its `protocol` and `prompt` columns).

    Returns:
        Per protocol present, the rows whose prompt matches a run's (the human row beside
        single shot, the A* and random baselines beside the gym protocols), with `source` a
        line naming paper and table, their Wilson interval (%) and `named`; empty for no
        matching protocol."""
    import pandas as pd

    parts = []
    for protocol in PROTOCOLS:
        present = runs[runs["protocol"] == protocol]
        if present.empty:
            continue
        if protocol == "visual":
            rows = published("sparc_visual")
            rows = rows[rows["protocol"] == "visual"].rename(columns={"source": "paper"})
        else:
            prompts = set(present["prompt"].dropna()) or {"paper"}
            rows = pd.concat([sparc_rows(protocol, p) for p in prompts])
            if protocol == "single_shot":
                rows = pd.concat([rows, human_row()])
        if not rows.empty:
            parts.append(rows.assign(source=[source_of(r) for _, r in rows.iterrows()]))
    if not runs[runs["protocol"].isin(["gym", "gym_traceback"])].empty:
        base = baseline_rows()
        parts.append(base.assign(source=[source_of(r) for _, r in base.iterrows()]))
    if not parts:
        return pd.DataFrame()
    table = with_wilson(pd.concat(parts, ignore_index=True))
    keep = ["protocol", "prompt", "setting", "model", "n", "accuracy", "ci95_low", "ci95_high"]
    keep += [f"level_{lv}" for lv in LEVELS] + ["mean_steps", "source", "named"]
    return table[[c for c in keep if c in table]]


#: How the human row is shown: its study did not use the 500-puzzle split (its level rates
#: are no k/86 or k/89), so it has no n and no interval.
HUMAN_LABEL = "Human (not the 500-puzzle split)"


def human_row() -> pd.DataFrame:
    """The SPaRC human row, shown beside single-shot runs (the leaderboard's protocol).

    Returns:
        The `sparc` table's human row, as protocol `single_shot`, model `HUMAN_LABEL` and
        prompt "human study"."""
    table = published("sparc")
    rows = table[table["protocol"] == "human"].assign(protocol="single_shot")
    return rows.assign(model=HUMAN_LABEL, prompt="human study")
