"""The published runs' CSVs that the package ships, read with pandas as the tests' oracle (not
through the package's own readers), and the two runs the tests pair most often."""

from __future__ import annotations

from importlib.resources import files
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

DATA = files("inspect_sparc.published_runs") / "data"
GPT_OSS = "gym-analysis/openai_gpt-oss-120b"
OLMO = "gym-analysis/allenai_Olmo-3.1-32B-Think"


def shipped(name: str) -> pd.DataFrame:
    """The shipped CSV `name` (`verdicts.csv`, `subsets.csv`, ...), puzzle ids kept as text."""
    import pandas as pd

    with (DATA / name).open(encoding="utf-8") as handle:
        return pd.read_csv(handle, dtype={"puzzle_id": str})


def published_on(subset: str, run_id: str) -> dict[str, float]:
    """Published run `run_id`'s verdict on each puzzle of shipped subset `subset` (puzzle id ->
    1.0 or 0.0), in the verdicts file's order."""
    chosen = set(shipped("subsets.csv").dropna(subset=[subset])["puzzle_id"])
    verdicts = shipped("verdicts.csv")
    kept = verdicts[verdicts["puzzle_id"].isin(chosen)]
    return {pid: float(v) for pid, v in zip(kept["puzzle_id"], kept[run_id], strict=True)}
