"""The human-baseline page's server as participants meet it over HTTP (no browser): the token on
every request, hostile input refused without harm, disjoint puzzles, a quiet page's puzzle
handed on, and the solutions never in any response. Puzzles: the bundled sample records."""

from __future__ import annotations

import time

import pytest
from human_client import Client, solutions_in

from inspect_sparc.core.algopuzzlevqa.prompts import option_letters
from inspect_sparc.core.episode.settings import EpisodeSettings
from inspect_sparc.core.episode.stepper import ACTIONS, replay_moves, step_letter
from inspect_sparc.core.prompts.single_shot import user_prompt
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.algopuzzlevqa.dataset import algopuzzlevqa_dataset
from inspect_sparc.evals.human import server as server_module
from inspect_sparc.evals.human.judges import ChoiceJudge, GymJudge, PathJudge, image_uri
from inspect_sparc.evals.human.pool import Offer
from inspect_sparc.evals.human.server import HumanServer
from inspect_sparc.evals.sparc.dataset import sparc_dataset

#: What the page may be shown of each kind of puzzle, and nothing else.
VIEW_KEYS = {
    "path": {"kind", "text", "puzzle_id", "level", "image", "image_size", "spacing", "points"}
    | {"start", "end", "columns", "rows"},
    "choice": {"kind", "puzzle_id", "text", "image", "options", "letters"},
}
VIEW_KEYS["gym"] = VIEW_KEYS["path"] | {"traceback", "max_steps"}


@pytest.fixture(scope="module")
def records():
    """The bundled sample puzzles' records, by id."""
    found = [(s.metadata or {})["puzzle"] for s in sparc_dataset("sample")]
    return {record["id"]: record for record in found}


@pytest.fixture(scope="module")
def choices():
    """Two bundled AlgoPuzzleVQA questions."""
    return list(algopuzzlevqa_dataset(source="sample", max_image_size=0))[:2]


@pytest.fixture
def run(monkeypatch):
    """A fresh server (short waits), closed after the test."""
    monkeypatch.setattr(server_module, "WAIT_FOR_PUZZLE", 0.2)
    server = HumanServer(heartbeat=0.6)
    yield server
    server.close()


def path_offer(server: HumanServer, record) -> Offer:
    judge = PathJudge(parse_puzzle(record), user_prompt(record))
    offer = Offer(judge, judge.view)
    server.pool.add(offer)
    return offer


def choice_offer(server: HumanServer, sample) -> Offer:
    judge = ChoiceJudge(
        str(sample.id),
        sample.input[0].content[0].text,
        image_uri(sample.input[0].content[1].image),
        list(sample.metadata["options"]),
        sample.target,
    )
    offer = Offer(judge, judge.view)
    server.pool.add(offer)
    return offer


def test_every_request_needs_the_runs_token(run):
    client = Client(run.url)
    for path in ("/", "/app.js", "/app.css"):
        assert client.request("GET", path, token=None)[0] == 403
        assert client.request("GET", path, token="wrong")[0] == 403
        assert client.request("GET", path)[0] == 200
    assert client.post("/api/join", {"name": "Ada"}, token=None)[0] == 403
    assert client.post("/api/join", {"name": "Ada"}, token=client.token + "x")[0] == 403
    status, _, headers = client.request("GET", f"/?token={client.token}", token=None)
    assert status == 200
    assert headers["set-cookie"].startswith(f"sparc_human_token={client.token};")
    assert "HttpOnly" in headers["set-cookie"] and "SameSite=Strict" in headers["set-cookie"]
    assert headers["referrer-policy"] == "no-referrer"
    assert run.url.startswith("http://127.0.0.1:")


def test_hostile_input_is_refused_and_never_overwrites_an_answer(run, records):
    record = next(iter(records.values()))
    offer = path_offer(run, record)
    client = Client(run.url)
    me = client.join("Ada")
    handle = client.next(me)["offer"]
    start = list(parse_puzzle(record).start)
    refused = [
        ({"participant": me, "offer": handle, "path": "all of it"}, 400),
        ({"participant": me, "offer": handle, "path": [[0, "1"]]}, 400),
        ({"participant": me, "offer": handle, "path": [[999, 0]]}, 400),
        ({"participant": me, "offer": handle, "path": [[0, 0]] * 10_000}, 413),
        ({"participant": me, "offer": handle, "path": [start], "moves": -1}, 400),
        ({"participant": "nobody", "offer": handle, "path": [start]}, 403),
        ({"participant": me, "offer": "not-this-one", "path": [start]}, 409),
        ({"participant": me, "offer": "../../etc", "path": [start]}, 400),
    ]
    for body, status in refused:
        got, reply = client.post("/api/submit", body)
        assert (got, bool(reply["error"])) == (status, True), body
    assert client.request("POST", "/api/submit", b"{not json")[0] == 400
    assert client.request("POST", "/api/nothing", b"{}")[0] == 404
    big = {"Content-Length": str(10**9)}
    assert client.request("POST", "/api/submit", b"", headers=big)[0] == 413
    assert offer.answer is None  # nothing refused was recorded
    solution = [list(p) for p in parse_puzzle(record).solutions[0]]
    status, reply = client.post(
        "/api/submit", {"participant": me, "offer": handle, "path": [start]}
    )
    assert status == 200 and reply["feedback"]["solved"] is False
    replay = {"participant": me, "offer": handle, "path": solution}
    assert client.post("/api/submit", replay)[0] == 409
    assert offer.answer is not None and offer.answer.result == f"####\n({start[0]},{start[1]})"
    assert offer.done.wait(5)  # the sample wakes once the reply has gone (not before it)


def test_participants_get_disjoint_puzzles_until_none_is_left(run, records):
    offers = [path_offer(run, record) for record in list(records.values())[:3]]
    client = Client(run.url)
    people = [client.join(f"P{n}") for n in range(4)]
    got = [client.next(person) for person in people]
    handles = [reply.get("offer") for reply in got[:3]]
    assert sorted(handles) == sorted(offer.handle for offer in offers)
    assert got[3]["state"] == "waiting"
    assert client.next(people[0])["offer"] == handles[0]  # the same puzzle until answered


def test_a_quiet_page_and_a_released_one_hand_their_puzzle_on(run, records):
    offers = [path_offer(run, record) for record in list(records.values())[:2]]
    client = Client(run.url)
    quiet, leaving, next_one = client.join("A"), client.join("B"), client.join("C")
    held = client.next(quiet)["offer"]
    released = client.next(leaving)["offer"]
    assert client.post("/api/release", {"participant": leaving}) == (200, {"released": True})
    assert client.next(next_one)["offer"] == released
    time.sleep(0.8)  # A sends no heartbeat for longer than the server waits (0.6 s)
    late = client.join("D")
    assert client.next(late)["offer"] == held
    start = list(offers[0].judge.puzzle.start)
    status, _ = client.post("/api/submit", {"participant": quiet, "offer": held, "path": [start]})
    assert status == 409  # A's stale page can no longer answer it


def test_a_gym_move_is_refused_and_counted_as_the_stepper_counts_it(run, records):
    record = next(iter(records.values()))
    puzzle = parse_puzzle(record)
    judge = GymJudge(puzzle, EpisodeSettings(), "rules")
    offer = Offer(judge, judge.view)
    run.pool.add(offer)
    client = Client(run.url)
    me = client.join("Gym")
    handle = client.next(me)["offer"]
    solution = puzzle.solutions[0]
    outward = [
        a
        for a, (dx, dy) in enumerate(ACTIONS)
        if not puzzle.in_grid((puzzle.start[0] + dx, puzzle.start[1] + dy))
    ]
    actions = outward[:1] + [
        ACTIONS.index((b[0] - a[0], b[1] - a[1]))
        for a, b in zip(solution, solution[1:], strict=False)
    ]
    replies = [
        client.post("/api/move", {"participant": me, "offer": handle, "action": a})[1]
        for a in actions
    ]
    oracle = replay_moves(puzzle, "")
    for action, reply in zip(actions, replies, strict=True):
        result = oracle.step(action)
        assert (reply["legal"], reply["steps"], reply["illegal"]) == (
            result.legal,
            oracle.steps,
            oracle.illegal,
        )
    assert replies[0]["legal"] is False and replies[-1]["ended"] == "reached_end"
    assert replies[-1]["feedback"]["solved"] is True
    assert offer.answer is not None
    letters = "".join(step_letter(r) for r in offer.answer.result.history)
    assert letters[0].islower() and replay_moves(puzzle, letters).solved


def test_the_page_is_shown_what_a_model_is_and_never_a_solution(run, records, choices):
    for record in records.values():
        path_offer(run, record)
    gym_record = next(iter(records.values()))
    gym = GymJudge(parse_puzzle(gym_record), EpisodeSettings(), "rules")
    run.pool.add(Offer(gym, gym.view))
    for sample in choices:
        choice_offer(run, sample)
    client = Client(run.url)
    client.request("GET", "/")
    client.request("GET", "/app.js")
    me = client.join("Leak test")
    seen_kinds = set()
    while (reply := client.next(me))["state"] == "puzzle":
        view, handle = reply["view"], reply["offer"]
        assert set(view) == VIEW_KEYS[view["kind"]]
        seen_kinds.add(view["kind"])
        body = {"participant": me, "offer": handle}
        if view["kind"] == "path":  # the stored solution itself, answered
            solution = parse_puzzle(records[view["puzzle_id"]]).solutions[0]
            status, answer = client.post(
                "/api/submit", {**body, "path": [list(p) for p in solution]}
            )
            assert answer["feedback"]["solved"] is True
        elif view["kind"] == "gym":
            client.post("/api/move", {**body, "action": 0})
            status, answer = client.post("/api/giveup", body)
        else:
            status, answer = client.post("/api/submit", {**body, "choice": 0})
            assert view["letters"] == option_letters(len(view["options"]))
        assert status == 200, answer
    assert seen_kinds == {"path", "gym", "choice"}
    text = "\n".join(body.decode("utf-8", "replace") for body in client.bodies)
    assert solutions_in(text) == []
    assert '"answer":' not in text and "answer_letter" not in text
