"""The report's tables, from the run frame (the logs' own metrics) and the sample frame.

Rates are percentages with the logs' values times 100, never recomputed where a log has the
metric; what no metric covers (rule types, path length, tokens by level) is counted from the
samples, each sample's epochs averaged first (Inspect's default `mean` reduction).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

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
#: How a gym episode ended: column -> how to get it from the log's metrics.
ENDINGS = ("solved", "reached E off the solutions", "dead end", "step limit", "cut")


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
    """Each sample's values averaged over its epochs (Inspect's `mean` reducer), per run."""
    return samples.groupby(["run", "id", *keys], dropna=False)[values].mean().reset_index()


def results_table(runs: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per run: n, accuracy and its 95% interval (the log's stderr), levels 1-5, mean path
    length or steps, invalid paths, mean output and reasoning tokens, time, status."""
    import pandas as pd

    rows = []
    path_means = _path_lengths(samples)
    for _, run in runs.iterrows():
        acc = run.get("accuracy")
        err = run.get("stderr")
        per = run.get("samples") or None
        epochs = int(run.get("epochs") or 1)
        n = per // epochs if _known(per) else None
        steps = run.get("mean_steps")
        row = {
            "run": run["run"],
            "task": run["task"],
            "version": run["task_version"],
            "protocol": run["protocol"],
            "model": run["model"],
            "n": n,
            "epochs": run["epochs"],
            "reducer": run.get("epochs_reducer"),
            "accuracy": pct(acc),
            "ci95_low": pct(max(0.0, acc - 1.96 * err)) if _known(acc) and _known(err) else None,
            "ci95_high": pct(min(1.0, acc + 1.96 * err)) if _known(acc) and _known(err) else None,
            **{f"level_{lv}": pct(run.get(f"level_{lv}")) for lv in LEVELS},
            "mean_steps": steps if _known(steps) else None,
            "mean_path_length": None if _known(steps) else path_means.get(run["run"]),
            "invalid_path_rate": pct(run.get("invalid_path_rate")),
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


def _known(value: Any) -> bool:
    return value is not None and not (isinstance(value, float) and value != value)


def _per(total: Any, count: Any) -> float | None:
    return float(total) / float(count) if _known(total) and _known(count) and count else None


def _path_lengths(samples: pd.DataFrame | None) -> dict[str, float]:
    """Mean points in the extracted path, over answers with a path (the papers' "Avg. Path
    Length"), per single-shot run."""
    if samples is None or samples.empty or "path_length" not in samples:
        return {}
    shot = samples[samples["protocol"].isin(["single_shot", "visual"])]
    shot = shot[shot["path_length"].fillna(0) > 0]
    return shot.groupby("run")["path_length"].mean().to_dict()


def rule_table(samples: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) over the puzzles that contain each rule kind, per SPaRC run (as the
    Spatial-Gym rule tables), with the number of puzzles behind each cell."""
    import pandas as pd

    sparc = samples[samples["task"].isin(SPARC_TASKS)] if not samples.empty else samples
    if sparc.empty:
        return pd.DataFrame()
    flags = [f"has_{k}" for k in RULE_KINDS]
    per_sample = sample_means(sparc, ["protocol", "model", *flags], ["correct"])
    rows = []
    for run, group in per_sample.groupby("run", sort=False):
        row: dict[str, Any] = {
            "run": run,
            "protocol": group["protocol"].iloc[0],
            "model": group["model"].iloc[0],
        }
        for kind in RULE_KINDS:
            having = group[group[f"has_{kind}"] == True]  # noqa: E712 - pandas mask
            row[kind] = 100 * having["correct"].mean() if len(having) else None
            row[f"n_{kind}"] = len(having)
        rows.append(row)
    return pd.DataFrame(rows)


def level_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (%) by level, long form (run, protocol, model, level, accuracy), from the logs."""
    import pandas as pd

    rows = []
    for _, run in runs[runs["task"].isin(SPARC_TASKS)].iterrows():
        for lv in LEVELS:
            value = pct(run.get(f"level_{lv}"))
            if value is not None:
                rows.append(
                    {
                        "run": run["run"],
                        "protocol": run["protocol"],
                        "model": run["model"],
                        "baseline": run["baseline"],
                        "level": lv,
                        "accuracy": value,
                    }
                )
    return pd.DataFrame(rows)


def delta_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per model with runs of both protocols: accuracy difference in points (the latest run of
    each protocol, named in the row; prompts must match)."""
    import pandas as pd

    sparc = runs[runs["task"].isin(SPARC_TASKS) & ~runs["baseline"]]
    sparc = sparc[sparc["task"] != "sparc_hard"]
    rows = []
    for (model, prompt), group in sparc.groupby(["model", "prompt"], dropna=False):
        latest = group.sort_values("started_at").groupby("protocol").tail(1).set_index("protocol")
        for name, plus, minus in DELTAS:
            if plus in latest.index and minus in latest.index:
                a, b = latest.loc[plus], latest.loc[minus]
                rows.append(
                    {
                        "model": model,
                        "prompt": prompt,
                        "delta": name,
                        "points": pct(a["accuracy"]) - pct(b["accuracy"]),
                        "accuracy_a": pct(a["accuracy"]),
                        "accuracy_b": pct(b["accuracy"]),
                        "run_a": a["run"],
                        "run_b": b["run"],
                    }
                )
    return pd.DataFrame(rows)


def endings_table(runs: pd.DataFrame) -> pd.DataFrame:
    """How gym episodes ended (% of episodes), from the logs' ending rates."""
    import pandas as pd

    gym = runs[runs["task"] == "sparc_gym"]
    rows = []
    for _, run in gym.iterrows():
        if not _known(run.get("reached_end_rate")):
            continue
        solved = pct(run["accuracy"])
        rows.append(
            {
                "run": run["run"],
                "protocol": run["protocol"],
                "solved": solved,
                "reached E off the solutions": pct(run["reached_end_rate"]) - solved,
                "dead end": pct(run.get("dead_end_rate")),
                "step limit": pct(run.get("step_limit_rate")),
                "cut": pct(run.get("cut_rate")),
            }
        )
    return pd.DataFrame(rows)


def breaks_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Share of answers (%) breaking each rule, per SPaRC run, from the logs' `breaks_*`."""
    import pandas as pd

    rows = []
    for _, run in runs[runs["task"].isin(SPARC_TASKS)].iterrows():
        values = {rule: pct(run.get(f"breaks_{rule}")) for rule in BREAK_RULES}
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
    cols = ["output_tokens", "reasoning_tokens", "correct"]
    table = sparc.groupby(["run", "protocol", "level"])[cols].mean().reset_index()
    table["correct"] = 100 * table["correct"]
    return table.rename(columns={"correct": "accuracy"})


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
            "accuracy": [pct(v) for v in image["accuracy"]],
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
        puzzles = sparc.drop_duplicates(["run", "id"])
        for run, group in puzzles.groupby("run", sort=False):
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
                    }
                )
    for _, run in runs[runs["task"].isin(SPARC_TASKS)].iterrows():
        if run["baseline"]:
            rows.append(
                {
                    "reference": run["model"],
                    "protocol": run["protocol"],
                    "n": run["samples"],
                    "accuracy": pct(run["accuracy"]),
                    "from": run["run"],
                }
            )
        if _known(run.get("chance")) and not run["baseline"]:
            rows.append(
                {
                    "reference": "chance (random legal walk, exact)",
                    "protocol": run["protocol"],
                    "n": run["samples"],
                    "accuracy": pct(run["chance"]),
                    "from": run["run"],
                }
            )
    table = pd.DataFrame(rows)
    if table.empty:
        return table
    return table.drop_duplicates(subset=["reference", "protocol", "n", "accuracy"])


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
            {**row, **{p: pct(run.get(p)) for p in puzzles}, "average": pct(run["accuracy"])}
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
    styler = table.style.hide(axis="index").format(
        {c: "{:.1f}" for c in numeric if c not in ("n", "epochs")}, na_rep="--"
    )
    text = styler.to_latex(hrules=True, caption=caption or None, label=f"tab:{name}")
    tex.write_text(_latex_escape_cells(text), encoding="utf-8")
    written.append(tex)
    return written


def _latex_escape_cells(text: str) -> str:
    """Escape the characters LaTeX reads specially in the table's cells (model names may hold
    `_`, `%`, `#`, `&`-free text); the structure lines are kept."""
    out = []
    for line in text.splitlines():
        if line.startswith("\\") or "&" not in line:
            out.append(line)
            continue
        body, end = (line[:-2], line[-2:]) if line.endswith("\\\\") else (line, "")
        cells = [_escape(cell) for cell in body.split(" & ")]
        out.append(" & ".join(cells) + end)
    return "\n".join(out) + "\n"


def _escape(cell: str) -> str:
    for char, repl in (("\\", r"\textbackslash{}"), ("_", r"\_"), ("%", r"\%"), ("#", r"\#")):
        cell = cell.replace(char, repl)
    for char in "{}$^~<>":
        cell = cell.replace(char, "\\" + char if char in "{}$" else f"\\verb|{char}|")
    return cell
