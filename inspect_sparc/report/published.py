"""The published results shipped with the package (see data/README.md for every number's source).

Percentages as the papers print them (15.8 means 15.8%); every row names its paper and table.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: The shipped files, by the name the report uses.
FILES = {
    "sparc": "sparc_published.csv",
    "sparc_by_rule": "sparc_published_by_rule.csv",
    "sparc_visual": "sparc_published_visual.csv",
    "algopuzzlevqa": "algopuzzlevqa_published.csv",
    "algopuzzlevqa_by_category": "algopuzzlevqa_published_by_category.csv",
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
    """One shipped table (a copy: callers may change it)."""
    return _read(name).copy()


def sparc_rows(protocol: str, prompt: str | None = "paper") -> pd.DataFrame:
    """Published SPaRC rows of a protocol whose prompt matches ours (`prompt=None`: any)."""
    table = published("sparc")
    rows = table[table["protocol"] == protocol]
    if prompt is not None:
        rows = rows[rows["prompt"].isin(PROMPT_MATCH.get(prompt, ()))]
    return rows


def baseline_rows() -> pd.DataFrame:
    """The Spatial-Gym paper's A* and random baselines (gym protocol, 500 test puzzles)."""
    table = published("sparc")
    return table[table["protocol"].isin(["baseline_astar", "baseline_random"])]


def source_of(row: pd.Series) -> str:
    """One line naming where a published row comes from: paper, arXiv id and table."""
    paper = row.get("paper") or row.get("source") or ""
    arxiv = row.get("arxiv")
    table = row.get("table")
    parts = [str(paper)]
    if isinstance(arxiv, str | float) and str(arxiv) not in ("", "nan"):
        parts.append(f"arXiv {arxiv}")
    if isinstance(table, str) and table:
        parts.append(table)
    return ", ".join(parts)
