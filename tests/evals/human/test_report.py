"""A human run in the report: answered on the page (in this process, a participant thread
answering over HTTP), it pairs with a model run on the shared puzzles through the report's
paired comparison, and the human section shows it beside the published human figures."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from human_client import Client

from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.human.solver import human
from inspect_sparc.evals.sparc.dataset import sparc_dataset
from inspect_sparc.evals.sparc.single_shot.tasks import sparc

pytestmark = pytest.mark.slow  # two evals and a report: about 15 s

PUZZLES = 12
SOLVED_BY_PERSON = {"Ada": 5, "Bo": 2}


def participant(url_file, name: str, solve: int, known, answered, done) -> None:
    """A person answering until the run is `done`: the first `solve` with a stored solution."""
    deadline = time.monotonic() + 60
    while not (url_file.exists() and url_file.read_text(encoding="utf-8").strip()):
        assert time.monotonic() < deadline
        time.sleep(0.1)
    client = Client(url_file.read_text(encoding="utf-8"))
    me = client.join(name)
    while not done.is_set():
        reply = client.next(me)
        if reply["state"] != "puzzle":
            continue
        view = reply["view"]
        path = known[view["puzzle_id"]] if solve > 0 else [view["start"]]
        solve -= 1
        client.post("/api/submit", {"participant": me, "offer": reply["offer"], "path": path})
        answered.append((name, view["puzzle_id"], path != [view["start"]]))
        time.sleep(0.05)


def test_a_human_run_pairs_with_a_model_run_and_sits_beside_the_published_humans(tmp_path):
    from inspect_ai import eval

    from inspect_sparc.report.analysis.human import human_table, participant_table
    from inspect_sparc.report.analysis.paired import paired_table
    from inspect_sparc.report.published import published
    from inspect_sparc.report.read.runs import runs_frame
    from inspect_sparc.report.read.samples import samples_frame

    records = [(s.metadata or {})["puzzle"] for s in sparc_dataset("sample")]
    known = {r["id"]: [list(p) for p in parse_puzzle(r).solutions[0]] for r in records}
    url_file = tmp_path / "url.txt"
    answered: list[tuple[str, str, bool]] = []
    done = threading.Event()
    people = [
        threading.Thread(target=participant, args=(url_file, name, solve, known, answered, done))
        for name, solve in SOLVED_BY_PERSON.items()
    ]
    for person in people:
        person.start()
    [human_log] = eval(
        sparc(source="sample"), solver=human(url_file=str(url_file)), model="none",
        limit=PUZZLES, log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    done.set()
    for person in people:
        person.join(timeout=30)
    assert human_log.status == "success"
    assert {who for who, _, _ in answered} == set(SOLVED_BY_PERSON), answered
    first = next(iter(known.values()))
    answer = "####\n" + ", ".join(f"({x}, {y})" for x, y in first)
    [model_log] = eval(
        sparc(source="sample"), model="inspect_sparc/replay", model_args={"answer": answer},
        limit=PUZZLES, log_dir=str(tmp_path / "logs"), display="none",
    )  # fmt: skip
    runs = runs_frame(str(tmp_path / "logs"))
    samples = samples_frame(str(tmp_path / "logs"), runs)
    table = paired_table(runs, samples)
    [row] = [r for _, r in table.iterrows() if "human" in (r["run_a"] + r["run_b"])]
    person_solved = {pid for _, pid, solved in answered if solved}
    model_samples: Any = model_log.samples
    model_solved = {s.id for s in model_samples if s.scores["sparc_scorer"].value["correct"]}
    human_first = row["run_a"].startswith("human")
    h, m = ("a", "b") if human_first else ("b", "a")
    assert row["n_shared"] == PUZZLES
    assert row["both"] == len(person_solved & model_solved)
    assert row[f"only_{h}"] == len(person_solved - model_solved)
    assert row[f"only_{m}"] == len(model_solved - person_solved)
    assert row["p"] == row["p"]  # tested: 12 shared puzzles
    shown = human_table(samples, published("sparc"))
    assert list(shown["reference"]) == ["", "published, unpaired"]
    assert shown.iloc[0]["accuracy"] == pytest.approx(100 * len(person_solved) / PUZZLES)
    assert shown.iloc[1]["accuracy"] == 98.0 and shown.iloc[1]["level_5"] == 94.5
    people_rows = participant_table(samples)
    assert dict(zip(people_rows["participant"], people_rows["n"], strict=True)) == {
        name: sum(1 for who, _, _ in answered if who == name) for name in SOLVED_BY_PERSON
    }
