"""The human solver through the real `inspect` command line: the page's address shows in every
`--display` mode and in `-S url_file`, answers given over HTTP are scored by the task's own
scorer, and a stopped run resumed with `inspect eval-retry` keeps every answer and serves only
the unanswered puzzles."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from human_client import Client
from inspect_ai.log import list_eval_logs, read_eval_log

from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.dataset import sparc_dataset

DISPLAYS = ["full", "rich", "plain", "log", "none", "conversation"]


def solutions() -> dict[str, list[list[int]]]:
    """The first stored solution of each bundled sample puzzle (the test's oracle)."""
    records = [(s.metadata or {})["puzzle"] for s in sparc_dataset("sample")]
    return {r["id"]: [list(p) for p in parse_puzzle(r).solutions[0]] for r in records}


def start(args: list[str], log_dir: Path, url_file: Path, display: str) -> subprocess.Popen[str]:
    """`inspect eval` (or `eval-retry`) with the human solver, output captured."""
    command = [sys.executable, "-m", "inspect_ai", *args, "--log-dir", str(log_dir)]
    command += ["--display", display]
    return subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "300"},
    )


def eval_args(url_file: Path, limit: int, task: str = "sparc", *options: str) -> list[str]:
    """A run of `task` (default `sparc`) on its bundled sample answered on the page, with more
    `-T` task `options` ("name=value")."""
    return [
        "eval", f"inspect_sparc/{task}", "-T", "source=sample", "--limit", str(limit),
        *[part for option in options for part in ("-T", option)],
        "--solver", "inspect_sparc/human", "-S", f"url_file={url_file}", "--model", "none",
    ]  # fmt: skip


def wait_for_url(url_file: Path, process: subprocess.Popen[str], old: str = "") -> str:
    """The address the run wrote to `url_file` (a new one when `old` is given)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if url_file.exists() and (text := url_file.read_text(encoding="utf-8").strip()) != old:
            if text:
                return text
        if process.poll() is not None:
            raise AssertionError(f"the run ended before serving: {process.communicate()}")
        time.sleep(0.2)
    raise AssertionError("no address written")


def answer_all(url: str, name: str, count: int, wrong: bool = False) -> list[str]:
    """Answer `count` puzzles as the page serves them (stored solutions, or just S when
    `wrong`), waiting while none is open (a run may open its samples late); the ids."""
    client, known = Client(url), solutions()
    answered: list[str] = []
    me = client.join(name)
    deadline = time.monotonic() + 90
    while len(answered) < count and time.monotonic() < deadline:
        reply = client.next(me)
        if reply["state"] != "puzzle":
            continue
        view = reply["view"]
        path = [view["start"]] if wrong else known[view["puzzle_id"]]
        body = {"participant": me, "offer": reply["offer"], "path": path, "moves": len(path)}
        status, result = client.post("/api/submit", body)
        assert status == 200, result
        answered.append(view["puzzle_id"])
    return answered


def run_and_answer(tmp_path: Path, display: str) -> tuple[str, str, str, list[str]]:
    """One two-puzzle run answered on the page: (address, stdout, stderr, answered ids)."""
    url_file = tmp_path / "url.txt"
    process = start(eval_args(url_file, 2), tmp_path, url_file, display)
    try:
        url = wait_for_url(url_file, process)
        answered = answer_all(url, "Ada", 2)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    return url, stdout, stderr, answered


def test_a_run_answered_on_the_page_is_scored_like_a_models(tmp_path):
    url, stdout, stderr, answered = run_and_answer(tmp_path, "plain")
    assert url in stdout + stderr
    log: Any = read_eval_log(list_eval_logs(str(tmp_path))[0].name)
    assert log.status == "success" and len(log.samples) == 2
    for sample in log.samples:
        score = sample.scores["sparc_scorer"]
        assert score.value["correct"] == 1 and score.value["invalid_path"] == 0
        assert sample.output.model == "inspect_sparc/human"
        assert sample.metadata["participant"] == "Ada" and sample.metadata["gave_up"] is False
        assert sample.metadata["seconds"] >= 0 and sample.metadata["moves"] > 0
    assert sorted(s.id for s in log.samples) == sorted(answered)
    assert log.results.scores[0].metrics["accuracy"].value == 1.0


@pytest.mark.slow
@pytest.mark.parametrize("display", DISPLAYS)
def test_the_address_shows_in_every_display_mode(tmp_path, display):
    url, stdout, stderr, answered = run_and_answer(tmp_path, display)
    assert url in stdout + stderr, display
    assert len(answered) == 2


@pytest.mark.slow
def test_a_stopped_run_resumed_with_eval_retry_loses_no_answer(tmp_path):
    url_file = tmp_path / "url.txt"
    process = start(eval_args(url_file, 3), tmp_path, url_file, "plain")
    client = Client(wait_for_url(url_file, process))
    me = client.join("First")
    reply = client.next(me)
    first = reply["view"]["puzzle_id"]
    path = solutions()[first]
    client.post("/api/submit", {"participant": me, "offer": reply["offer"], "path": path})
    time.sleep(1.5)  # the sample is logged
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=60)
    stopped: Any = read_eval_log(list_eval_logs(str(tmp_path))[0].name)
    assert stopped.status != "success"
    assert [s.id for s in stopped.samples or [] if s.scores] == [first]
    old = url_file.read_text(encoding="utf-8").strip()
    retry = start(["eval-retry", stopped.location], tmp_path, url_file, "plain")
    try:
        url = wait_for_url(url_file, retry, old)
        served = answer_all(url, "Second", 2, wrong=True)
        retry.communicate(timeout=120)
    finally:
        if retry.poll() is None:
            retry.kill()
    assert first not in served and len(served) == 2
    logs: list[Any] = [read_eval_log(info.name) for info in list_eval_logs(str(tmp_path))]
    final = next(log for log in logs if log.status == "success")
    by_id = {s.id: s for s in final.samples}
    assert sorted(by_id) == sorted([first, *served])
    assert by_id[first].metadata["participant"] == "First"
    assert by_id[first].scores["sparc_scorer"].value["correct"] == 1
    assert {by_id[i].metadata["participant"] for i in served} == {"Second"}
