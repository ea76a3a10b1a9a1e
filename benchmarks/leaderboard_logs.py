"""The report at leaderboard scale: 16 `sparc` logs of 16 "models" on the same 500 test puzzles,
written offline, then the report built and timed (wall, peak RSS, size). Each model is
`openai-api/replay/frac-F` served by a local OpenAI-compatible stand-in
(`tests/openai_stand_in.py`): it answers a fraction F of the puzzles (chosen per model by a
seeded hash of the puzzle id) with the stored solution, and the rest with the solution walked
backwards or no answer, so every verdict comes from the task's own scorer. Eleven of the 16
are stand-ins for published single-shot models (`openai-api/replay/stand-in-o4-mini`: F is
that model's published accuracy), so the report's "vs published" column has something to
compare; the other five (`frac-F`) have no published counterpart.

    python benchmarks/leaderboard_logs.py WORKDIR            # logs once into WORKDIR/logs
    python benchmarks/leaderboard_logs.py WORKDIR --report   # and the report into WORKDIR/report
    python benchmarks/screenshot_report.py WORKDIR/report    # then look at it in Chromium

Needs pip install openai (Inspect's openai-api provider; no extra of the package installs it)
and, for --report, pip install -e ".[report]". Writing the logs takes about 10 minutes on 2
cores (Inspect's display shows the progress); the report about a minute.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

from command_line import arguments, needs, run_main

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "tests"))

SPLIT = ROOT / "tests" / "fixtures" / "sparc" / "test_split.jsonl.gz"
#: Stand-ins for the published single-shot models (SPaRC's default prompt): each answers the
#: share of puzzles the paper reports for its model, under a name the report matches to it.
STAND_INS = {
    "stand-in-gpt-oss-120b": 0.216,
    "stand-in-olmo-3.1-32b": 0.162,
    "stand-in-o4-mini": 0.158,
    "stand-in-qwen-3-14b": 0.126,
    "stand-in-nemotron-49b": 0.114,
    "stand-in-qwen-3-4b": 0.078,
    "stand-in-qwen-3-32b": 0.052,
    "stand-in-r1-distill-32b": 0.036,
    "stand-in-magistral-small": 0.016,
    "stand-in-gemma-3-27b": 0.008,
    "stand-in-qwen-3-0.6b": 0.004,
}
#: Models with no published counterpart: `frac-F` answers a share F.
UNMATCHED = {f"frac-{f:.2f}": f for f in (0.05, 0.25, 0.45, 0.65, 0.80)}
FRACTIONS = {**STAND_INS, **UNMATCHED}  # 16 models: name -> share of puzzles answered right
PROVIDER = "REPLAY"  # openai-api/replay/...: REPLAY_BASE_URL, REPLAY_API_KEY


def solved(model: str, puzzle_id: str, fraction: float) -> bool:
    """Whether `model` answers `puzzle_id` right: a seeded hash below `fraction`."""
    digest = hashlib.sha256(f"{model}|{puzzle_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < fraction


def answers() -> dict[str, tuple[str, str]]:
    """Each single-shot prompt's (puzzle id, stored solution as the task's target)."""
    from inspect_sparc import sparc

    found = {}
    for sample in sparc(source=str(SPLIT)).dataset:
        text = sample.input[-1].text if not isinstance(sample.input, str) else sample.input
        target = sample.target if isinstance(sample.target, str) else sample.target[0]
        found[text] = (str(sample.id), target)
    return found


def responder(by_prompt: dict[str, tuple[str, str]]):
    """The stand-in's model: right on its share of puzzles, else reversed or no answer."""

    def respond(body: dict[str, Any]) -> dict[str, Any]:
        model = body["model"]
        fraction = FRACTIONS[model]
        last = body["messages"][-1]["content"]
        text = last if isinstance(last, str) else "".join(p.get("text", "") for p in last)
        puzzle_id, target = by_prompt[text]
        if solved(model, puzzle_id, fraction):
            answer = f"#### {target}"
        elif solved(model + "/wrong", puzzle_id, 0.5):
            answer = "#### " + ", ".join(reversed(target.split(", ")))
        else:
            answer = "I cannot find a path."
        return {"role": "assistant", "content": answer}

    return respond


def write_logs(log_dir: Path) -> None:
    """The 16 logs into `log_dir`, through Inspect's own eval and the openai-api provider."""
    from inspect_ai import eval
    from openai_stand_in import stand_in_server

    from inspect_sparc import sparc

    with stand_in_server(responder(answers())) as server:
        os.environ[f"{PROVIDER}_BASE_URL"] = server.base_url
        os.environ[f"{PROVIDER}_API_KEY"] = "none"
        models = [f"openai-api/{PROVIDER.lower()}/{name}" for name in FRACTIONS]
        print(f"writing {len(models)} logs of 500 puzzles into {log_dir} (once per folder)...")
        logs = eval(
            sparc(source=str(SPLIT)),
            model=models,
            log_dir=str(log_dir),
            max_connections=64,
            max_tasks=4,
        )
    failed = [log.location for log in logs if log.status != "success"]
    if failed:
        raise RuntimeError(f"{len(failed)} of {len(logs)} runs did not finish, e.g. {failed[0]}")


def build(log_dir: Path, out: Path) -> None:
    """Build the report and print its wall time, peak RSS, size and load."""
    from inspect_sparc.report import build_report

    print(f"building the report of {log_dir} ...")
    start = time.perf_counter()
    report = build_report(log_dir, out)
    seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 2**20
    problems = [line["text"] for line in report.summary if line["problem"]]
    print("\n".join(problems) or "no log left out or incomplete")
    print(
        f"{len(report.runs)} runs x 500 puzzles: report in {seconds:.1f} s, peak RSS "
        f"{rss:.0f} MiB, {size:.1f} MiB written; load average {os.getloadavg()[0]:.1f}"
    )
    print(f"report written to {out / 'index.html'}")


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "workdir", type=Path, help="logs go to WORKDIR/logs, the report to .../report"
    )
    parser.add_argument("--report", action="store_true", help="also build and time the report")


def main(work: Path, with_report: bool) -> None:
    """Write the logs unless WORKDIR has them all, then the report when asked."""
    logs = work / "logs"
    if len(list(logs.glob("*.eval"))) != len(FRACTIONS):
        write_logs(logs)
    print(f"{len(FRACTIONS)} logs in {logs}")
    if with_report:
        build(logs, work / "report")


if __name__ == "__main__":
    options = arguments(__doc__, _options)
    needs("openai", install="pip install openai (Inspect's openai-api provider)")
    needs("matplotlib", "jinja2", "pandas", "scipy", install='pip install -e ".[report]"')
    run_main(main, options.workdir, options.report)
