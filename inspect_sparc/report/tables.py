"""The report's tables, from the run frame (the logs' own metrics) and the sample frame.

Rates are percentages with the logs' values times 100, never recomputed where a log has the
metric; what no metric covers (rule types, path length, tokens by level) is counted from the
samples, each sample's epochs averaged first (Inspect's default `mean` reduction).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspect_sparc.report import keys as K
from inspect_sparc.report.frame import BREAK_RULES, RULE_KINDS, SPARC_TASKS
from inspect_sparc.report.published import (
    ALGOPUZZLEVQA_SETUP,
    baseline_rows,
    published,
    source_of,
    sparc_rows,
)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

LEVELS = (1, 2, 3, 4, 5)
#: Protocols in the order the papers present them.
PROTOCOLS = ("single_shot", "gym", "gym_traceback", "visual", "gym_visual", "agent")
#: (name, minuend protocol, subtrahend protocol): the deltas the report shows per model.
DELTAS = (
    ("gym - single shot", "gym", "single_shot"),
    ("traceback - no traceback", "gym_traceback", "gym"),
    ("image - text (single shot)", "visual", "single_shot"),
    ("image - text (gym)", "gym_visual", "gym"),
)
#: The columns of the gym endings table (and figure), in the order they stack.
ENDING_COLUMNS = ("solved", "reached E off the solutions", "dead end", "step limit", "cut")


def pct(value: Any) -> float | None:
    """A 0-1 rate as a percentage (None stays None)."""
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if number != number else 100 * number


def sample_means(samples: pd.DataFrame, keys: list[str], values: list[str]) -> pd.DataFrame:
    """Each sample's values averaged over its epochs (Inspect's `mean` reducer), per run (per
    log: runs are never merged, whatever their labels). A value no sample has (no sample of
    an errored run was scored) is missing, never an error."""
    samples = samples.assign(**{v: float("nan") for v in values if v not in samples})
    return samples.groupby(["log", "run", "id", *keys], dropna=False)[values].mean().reset_index()


def run_n(run: Any) -> int | None:
    """Samples in a run, each counted once whatever its epochs (Inspect's completed_samples
    counts sample-epochs)."""
    per = run.get("samples") or None
    epochs = int(run.get("epochs") or 1)
    return int(per) // epochs if _known(per) else None


def results_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per run: n, accuracy and its 95% interval (the log's stderr), levels 1-5, mean path
    length or steps, invalid paths, mean output and reasoning tokens, time, status."""
    import pandas as pd

    rows = []
    path_means = _path_lengths(samples)
    for _, run in runs.iterrows():
        acc = run.get(K.ACCURACY)
        err = run.get(K.STDERR)
        per = run.get("samples") or None
        n = run_n(run)
        steps = run.get(K.MEAN_STEPS)
        row = {
            "run": run["run"],
            "task": run["task"],
            "version": run["task_version"],
            "protocol": run["protocol"],
            "model": run["model"],
            "n": n,
            "epochs": run["epochs"],
            "reducer": _reducer_text(run),
            "accuracy": pct(acc),
            "ci95_low": pct(max(0.0, acc - 1.96 * err)) if _known(acc) and _known(err) else None,
            "ci95_high": pct(min(1.0, acc + 1.96 * err)) if _known(acc) and _known(err) else None,
            **{f"level_{lv}": pct(run.get(K.level_key(lv))) for lv in LEVELS},
            "mean_steps": steps if _known(steps) else None,
            "mean_path_length": None if _known(steps) else path_means.get(run["log"]),
            "invalid_path_rate": pct(run.get(K.INVALID_PATH_RATE)),
            "output_tokens_per_sample": _per(run.get("output_tokens"), per),
            "reasoning_tokens_per_sample": _per(run.get("reasoning_tokens"), per),
            "time_s": run.get("time_s"),
            "status": run["status"],
            "notes": run.get("notes") or "",
        }
        rows.append(row)
    return pd.DataFrame(rows)


#: The results table's columns set in LaTeX (the CSV has them all).
PAPER_COLUMNS = [
    "model",
    "protocol",
    "n",
    "accuracy",
    *[f"level_{lv}" for lv in LEVELS],
    "mean_steps",
    "mean_path_length",
]


def _reducer_text(run: Any) -> str | None:
    """The epochs reducer(s), and which one's metrics the table shows when there are several."""
    reducer = run.get("epochs_reducer")
    shown = run.get("metrics_reducer")
    if reducer and "," in str(reducer) and isinstance(shown, str):
        return f"{reducer} (metrics: {shown})"
    return reducer


def _known(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and value != value)


def _per(total: Any, count: Any) -> float | None:
    return float(total) / float(count) if _known(total) and _known(count) and count else None


def _path_lengths(samples: pd.DataFrame | None) -> dict[str, float]:
    """Mean points in the extracted path, over answers with a path (the papers' "Avg. Path
    Length"), per single-shot log: each sample's epochs averaged first, then the samples."""
    if samples is None or samples.empty or "path_length" not in samples:
        return {}
    shot = samples[samples["protocol"].isin(["single_shot", "visual"])]
    shot = shot[shot["path_length"].fillna(0) > 0]
    if shot.empty:
        return {}
    per_sample = sample_means(shot, [], ["path_length"])
    return per_sample.groupby("log")["path_length"].mean().to_dict()


def rule_table(samples: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) over the puzzles that contain each rule kind, per SPaRC run (as the
    Spatial-Gym rule tables), with the number of puzzles behind each cell."""
    import pandas as pd

    sparc = samples[samples["task"].isin(SPARC_TASKS)] if not samples.empty else samples
    if sparc.empty:
        return pd.DataFrame()
    flags = [f"has_{k}" for k in RULE_KINDS]
    per_sample = sample_means(sparc, ["protocol", "model", *flags], [K.CORRECT])
    rows = []
    for _, group in per_sample.groupby("log", sort=False):
        scored = group.dropna(subset=[K.CORRECT])
        if scored.empty:  # an errored run: no sample scored, nothing to show per rule
            continue
        row: dict[str, Any] = {
            "run": group["run"].iloc[0],
            "protocol": group["protocol"].iloc[0],
            "model": group["model"].iloc[0],
        }
        for kind in RULE_KINDS:
            having = scored[scored[f"has_{kind}"] == True]  # noqa: E712 - pandas mask
            row[kind] = 100 * having[K.CORRECT].mean() if len(having) else None
            row[f"n_{kind}"] = len(having)
        rows.append(row)
    return pd.DataFrame(rows)


def level_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) by level, long form (run, protocol, model, level, accuracy), from the logs."""
    import pandas as pd

    rows = []
    for _, run in runs[runs["task"].isin(SPARC_TASKS)].iterrows():
        for lv in LEVELS:
            value = pct(run.get(K.level_key(lv)))
            if value is not None:
                rows.append(
                    {
                        "log": run["log"],
                        "run": run["run"],
                        "protocol": run["protocol"],
                        "model": run["model"],
                        "baseline": run["baseline"],
                        "level": lv,
                        "accuracy": value,
                    }
                )
    return pd.DataFrame(rows)


#: Settings two runs must share to be compared in a delta (max_steps too between two gym runs).
DELTA_MATCH = ("prompt", "source", "split", "subset", "levels")
GYM_PROTOCOLS = frozenset({"gym", "gym_traceback", "gym_visual"})


def delta_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per model with runs of both protocols on the same puzzles: accuracy difference in
    points. Runs are paired only when prompt, source, split, subset, levels and the number of
    puzzles match (and max_steps, between two gym protocols); of several such runs the latest
    of each protocol is taken, named in the row."""
    import pandas as pd

    sparc = runs[runs["task"].isin(SPARC_TASKS) & ~runs["baseline"].astype(bool)]
    sparc = sparc[sparc["task"] != "sparc_hard"]
    keys = [k for k in DELTA_MATCH if k in sparc]
    sparc = sparc.assign(**{k: sparc[k].astype(str) for k in keys})
    # the same number of puzzles too (`--limit`): the same selection then gives the same ones
    sparc = sparc.assign(n=[run_n(run) for _, run in sparc.iterrows()])
    keys.append("n")
    rows = []
    for match, group in sparc.groupby(["model", *keys], dropna=False, sort=False):
        model = match[0]
        group = group.sort_values("started_at")
        for name, plus, minus in DELTAS:
            a_runs, b_runs = group[group["protocol"] == plus], group[group["protocol"] == minus]
            if a_runs.empty or b_runs.empty:
                continue
            a = a_runs.iloc[-1]
            if plus in GYM_PROTOCOLS and minus in GYM_PROTOCOLS:
                b_runs = b_runs[b_runs["max_steps"].astype(str) == str(a["max_steps"])]
                if b_runs.empty:
                    continue
            b = b_runs.iloc[-1]
            rows.append(
                {
                    "model": model,
                    **{k: a[k] for k in keys},
                    "delta": name,
                    "points": pct(a[K.ACCURACY]) - pct(b[K.ACCURACY]),
                    "accuracy_a": pct(a[K.ACCURACY]),
                    "accuracy_b": pct(b[K.ACCURACY]),
                    "run_a": a["run"],
                    "run_b": b["run"],
                }
            )
    return pd.DataFrame(rows)


def endings_table(runs: pd.DataFrame) -> pd.DataFrame:
    """How gym and agent episodes ended (% of episodes), from the logs' ending rates (the
    agent is scored by the gym scorer)."""
    import pandas as pd

    gym = runs[runs["task"].isin(["sparc_gym", "sparc_agent"])]
    rows = []
    for _, run in gym.iterrows():
        if not _known(run.get(K.REACHED_END_RATE)):
            continue
        solved = pct(run[K.ACCURACY])
        rows.append(
            {
                "run": run["run"],
                "protocol": run["protocol"],
                "solved": solved,
                "reached E off the solutions": pct(run[K.REACHED_END_RATE]) - solved,
                "dead end": pct(run.get(K.DEAD_END_RATE)),
                "step limit": pct(run.get(K.STEP_LIMIT_RATE)),
                "cut": pct(run.get(K.CUT_RATE)),
            }
        )
    return pd.DataFrame(rows)


def breaks_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Share of answers (%) breaking each rule, per SPaRC run, from the logs' `breaks_*`."""
    import pandas as pd

    rows = []
    for _, run in runs[runs["task"].isin(SPARC_TASKS)].iterrows():
        values = {rule: pct(run.get(K.breaks_key(rule))) for rule in BREAK_RULES}
        if any(v is not None for v in values.values()):
            rows.append({"run": run["run"], "protocol": run["protocol"], **values})
    return pd.DataFrame(rows)


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


def visual_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) of image runs by plot type and prompt, from the logs."""
    import pandas as pd

    image = runs[runs["protocol"].isin(["visual", "gym_visual"])]
    return pd.DataFrame(
        {
            "run": image["run"],
            "protocol": image["protocol"],
            "model": image["model"],
            "plot": image["plot"],
            "prompt": image["prompt"],
            "accuracy": [pct(v) for v in image[K.ACCURACY]],
        }
    )


def baselines_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Reference marks for the puzzles in the logs: the baseline runs' accuracy, each gym log's
    exact chance level (its `chance` metric), and, per run's puzzles, the A* baseline and the
    exact chance computed from the puzzle records (overall and by level)."""
    import pandas as pd

    rows = []
    if samples is not None and not samples.empty and "astar_solves" in samples:
        sparc = samples[samples["task"].isin(SPARC_TASKS) & ~samples["baseline"].astype(bool)]
        puzzles = sparc.drop_duplicates(["log", "id"])
        for _, group in puzzles.groupby("log", sort=False):
            run = group["run"].iloc[0]
            for name, column in (
                ("A* baseline", "astar_solves"),
                ("chance (random legal walk, exact)", "chance_exact"),
            ):
                known = group.dropna(subset=[column])
                if known.empty:
                    continue
                by_level = known.groupby("level")[column].mean()
                rows.append(
                    {
                        "reference": f"{name} on these puzzles",
                        "protocol": group["protocol"].iloc[0],
                        "n": len(known),
                        "accuracy": 100 * known[column].mean(),
                        **{f"level_{int(lv)}": 100 * v for lv, v in by_level.items()},
                        "from": run,
                        "computed": True,
                    }
                )
    for _, run in runs[runs["task"].isin(SPARC_TASKS)].iterrows():
        if run["baseline"]:
            rows.append(
                {
                    "reference": run["model"],
                    "protocol": run["protocol"],
                    "n": run_n(run),
                    "accuracy": pct(run[K.ACCURACY]),
                    "from": run["run"],
                    "computed": False,
                }
            )
        if _known(run.get(K.CHANCE)) and not run["baseline"]:
            rows.append(
                {
                    "reference": "chance (random legal walk, exact)",
                    "protocol": run["protocol"],
                    "n": run_n(run),
                    "accuracy": pct(run[K.CHANCE]),
                    "from": run["run"],
                    "computed": True,
                }
            )
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    # the same reference computed on the same puzzles for several runs is shown once; the
    # baseline runs themselves are runs, never merged
    computed = table[table["computed"]].drop_duplicates(
        subset=["reference", "protocol", "n", "accuracy"]
    )
    kept = table[~table["computed"]]
    table = pd.concat([computed, kept]).sort_index().drop(columns="computed")
    levels = [f"level_{lv}" for lv in LEVELS if f"level_{lv}" in table]
    order = ["reference", "protocol", "n", "accuracy", *levels, "from"]
    return table[order].reset_index(drop=True)


def algopuzzlevqa_table(runs: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Accuracy (%) per puzzle and per ontology category, per AlgoPuzzleVQA run (the log's
    `<puzzle>` and `<group>_<category>` metrics)."""
    import pandas as pd

    algo = runs[runs["task"] == "algopuzzlevqa"]
    puzzles = sorted(set(published("algopuzzlevqa")["puzzle"]) - {"average"})
    by_puzzle, by_category = [], []
    for _, run in algo.iterrows():
        row = {"run": run["run"], "setup": ALGOPUZZLEVQA_SETUP.get(run.get("prompt"), "")}
        by_puzzle.append(
            {**row, **{p: pct(run.get(p)) for p in puzzles}, "average": pct(run[K.ACCURACY])}
        )
        groups = {
            k: pct(v)
            for k, v in run.items()
            if isinstance(k, str) and k.startswith(("visual_", "algorithmic_")) and _known(v)
        }
        by_category.append({**row, **groups})
    return pd.DataFrame(by_puzzle), pd.DataFrame(by_category)


def published_results(runs: pd.DataFrame) -> pd.DataFrame:
    """The published SPaRC rows for the protocols (and prompts) present in the runs, marked."""
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
        if not rows.empty:
            parts.append(rows.assign(source=[source_of(r) for _, r in rows.iterrows()]))
    if not runs[runs["protocol"].isin(["gym", "gym_traceback"])].empty:
        base = baseline_rows()
        parts.append(base.assign(source=[source_of(r) for _, r in base.iterrows()]))
    if not parts:
        return pd.DataFrame()
    table = pd.concat(parts, ignore_index=True)
    keep = ["protocol", "prompt", "plot_type", "model", "n", "accuracy"]
    keep += [f"level_{lv}" for lv in LEVELS] + ["mean_steps", "source"]
    return table[[c for c in keep if c in table]]


def write_table(table: pd.DataFrame, name: str, out_dir: Path, caption: str = "") -> list[Path]:
    """Write `table` as CSV and as a booktabs LaTeX table (as the papers set them)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    csv = out_dir / f"{name}.csv"
    table.to_csv(csv, index=False)
    written = [csv]
    tex = out_dir / f"{name}.tex"
    numeric = table.select_dtypes("number").columns
    # text cells escaped by pandas in one pass (`\\ & % $ # _ { } ~ ^`), then the rates
    # formatted (numbers need no escaping); column names (`mean_steps`, `n_dot`) escaped too
    styler = table.style.hide(axis="index").format(na_rep="--", escape="latex")
    rates = [c for c in numeric if c not in ("n", "epochs")]
    if rates:
        styler = styler.format("{:.1f}", subset=rates, na_rep="--")
    styler = styler.format_index(escape="latex", axis=1)
    text = styler.to_latex(
        hrules=True,
        caption=_latex_escape(caption) if caption else None,
        label=f"tab:{name}",
    )
    tex.write_text(text, encoding="utf-8")
    written.append(tex)
    return written


#: LaTeX's special characters and what stands for each in text.
LATEX_SPECIAL = {
    "\\": r"\textbackslash ",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde ",
    "^": r"\textasciicircum ",
}


def _latex_escape(text: str) -> str:
    """Text with LaTeX's special characters escaped in one pass (a replacement is never
    escaped again), as pandas' `escape="latex"` escapes the cells."""
    import re

    return re.sub(r"[\\&%$#_{}~^]", lambda m: LATEX_SPECIAL[m.group()], text)
