"""The report's golden fingerprint: a fixed set of small real logs (committed under
`tests/fixtures/report_golden/logs/`) and what the report makes of them (every table as CSV
and LaTeX, and the page's text without its time stamp), kept in
`tests/fixtures/report_golden/fingerprint.txt`. A refactor of the report that changes none of
its output leaves the fingerprint as it is (`tests/report/test_report_golden.py`).

    python tests/report/golden.py logs          # write the logs once (offline, about a minute)
    python tests/report/golden.py fingerprint   # rewrite the fingerprint from the logs

Rewrite the fingerprint only in a commit that says what changed on the page and why.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
FIXTURE = HERE.parents[0] / "fixtures" / "report_golden"
LOGS = FIXTURE / "logs"
FINGERPRINT = FIXTURE / "fingerprint.txt"


def write_golden_logs(folder: Path) -> None:
    """Small real logs of every protocol (the suite's mock runs, 5 puzzles each, one per
    level), plus two scripted models on the same puzzles and a run reduced by `max` over
    epochs (what the paired sections and the reducer need); file names without time stamps."""
    sys.path.insert(0, str(HERE))
    from inspect_ai import eval
    from inspect_ai.log import read_eval_log, write_eval_log
    from make_logs import algo_model, gym_model, remember_targets, sparc_model
    from scripted import epochs_log, scripted_runs

    from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa
    from inspect_sparc.evals.sparc.gym.solvers import gym_astar
    from inspect_sparc.evals.sparc.gym.tasks import sparc_gym
    from inspect_sparc.evals.sparc.single_shot.solvers import search_solver
    from inspect_sparc.evals.sparc.single_shot.tasks import sparc
    from inspect_sparc.evals.sparc.visual.tasks import sparc_visual

    folder.mkdir(parents=True, exist_ok=True)
    scratch = folder / "scratch"
    common: dict[str, Any] = dict(log_dir=str(scratch), display="none", limit=5)
    runs: dict[str, Any] = {}
    runs["search"] = eval(sparc(source="sample"), solver=search_solver(), model="none", **common)
    task = sparc(source="sample")
    remember_targets(task)
    runs["mock"] = eval(task, model=sparc_model(), **common)
    runs["mock_epochs"] = eval(sparc(source="sample"), model=sparc_model(2), epochs=2, **common)
    runs["gym_astar"] = eval(sparc_gym(source="sample"), solver=gym_astar(), model="none", **common)
    runs["gym"] = eval(sparc_gym(source="sample", max_steps=20), model=gym_model(), **common)
    task = sparc_visual(source="sample", level=1)
    remember_targets(task)
    runs["visual"] = eval(task, model=sparc_model(), **{**common, "limit": 3})
    runs["algo"] = eval(
        algopuzzlevqa(source="sample"), model=algo_model(), epochs=2, **{**common, "limit": 2}
    )
    for k, (name, [log]) in enumerate(runs.items()):
        full = read_eval_log(log.location)
        full.stats.started_at = f"2026-01-01T00:{k:02d}:00+00:00"
        full.stats.completed_at = f"2026-01-01T00:{k:02d}:30+00:00"
        write_eval_log(full, str(folder / f"{k:02d}_{name}.eval"))
    base = read_eval_log(str(folder / "01_mock.eval"))
    scripted_runs(base, folder, {"m_a": {0, 1, 2}, "m_b": {0, 3}}, prefix="scripted/")
    epochs = read_eval_log(str(folder / "02_mock_epochs.eval"))
    assert epochs.samples is not None
    solved = {
        (str(s.id), s.epoch): int(s.epoch == 1 or str(s.id).endswith("1")) for s in epochs.samples
    }
    epochs_log(
        epochs,
        solved,
        folder / "m_max.eval",
        model="scripted/max",
        started="2026-01-02T00:00:00+00:00",
    )
    for path in scratch.iterdir():
        path.unlink()
    scratch.rmdir()


class _Text(HTMLParser):
    """The page's visible text, one line per text node (scripts and styles left out), and
    every image's alt text."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        if tag == "img":
            self.lines.append(f"[img alt={dict(attrs).get('alt')}]")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skip:
            self.lines.append(text)


#: The page's time stamp (`2026-01-01 12:00 UTC`): the one thing that changes between builds.
STAMP = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC")


def fingerprint(logs: Path, out: Path) -> str:
    """The report over `logs` written to `out`, as text: each table file (CSV and LaTeX) and
    the figure names, then the page's text, with the log folder and time stamp taken out."""
    from inspect_sparc.report import build_report

    report = build_report(logs, out)
    assert report.index is not None
    parts: list[str] = []
    for path in sorted((out / "tables").iterdir()):
        parts.append(f"=== tables/{path.name}\n{path.read_text(encoding='utf-8')}")
    figures = sorted(p.name for p in (out / "figures").iterdir())
    parts.append("=== figures\n" + "\n".join(figures) + "\n")
    page = _Text()
    page.feed(report.index.read_text(encoding="utf-8"))
    parts.append("=== page text\n" + "\n".join(page.lines) + "\n")
    text = "".join(parts).replace(str(logs.resolve()), "LOGS").replace(str(logs), "LOGS")
    return STAMP.sub("TIME", text)


if __name__ == "__main__":
    import tempfile

    if sys.argv[1:] == ["logs"]:
        write_golden_logs(LOGS)
    elif sys.argv[1:] == ["fingerprint"]:
        with tempfile.TemporaryDirectory() as tmp:
            FINGERPRINT.write_text(fingerprint(LOGS, Path(tmp) / "report"), encoding="utf-8")
    else:
        sys.exit(__doc__)
