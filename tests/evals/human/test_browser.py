"""The human page in Chromium, as participants meet it: one solves by keyboard (Escape and
Backspace too), one by mouse (clicks, then a drag over the grid), one answers wrong, one gives
up, one closes the tab mid-puzzle (its puzzle goes to the next person); the participants hold
disjoint puzzles and the run's log scores them as a model's. A run stopped mid-way and resumed
with `inspect eval-retry` keeps the answer given before the stop and serves only the others. In
`sparc_gym` a move the gym refuses is refused on the page and counted as the reference gym
counts it; in `algopuzzlevqa` keys 1-4 or a click pick an option. Neither the drawn page nor any
response the browser received holds a solution. Screenshots land in the test's folder, or in
HUMAN_SCREENSHOTS=DIR when set."""

from __future__ import annotations

import json
import os
import shutil
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from gym_reference import reference_env
from human_client import solutions_in
from inspect_ai.log import list_eval_logs, read_eval_log
from test_cli import eval_args, solutions, start, wait_for_url

from inspect_sparc.core.episode.stepper import ACTIONS
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.algopuzzlevqa.dataset import algopuzzlevqa_dataset
from inspect_sparc.evals.sparc.dataset import sparc_dataset

pytestmark = pytest.mark.slow
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
if shutil.which("chromium") is None:
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

KEYS = {(1, 0): "ArrowRight", (-1, 0): "ArrowLeft", (0, 1): "ArrowDown", (0, -1): "ArrowUp"}


@contextmanager
def chromium_on(process, url_file: Path) -> Iterator[tuple[Any, str]]:
    """Chromium and the page's address, once the run `process` has written it to `url_file`;
    on the way out the browser closes and a run still going is killed."""
    try:
        url = wait_for_url(url_file, process)
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"))
            try:
                yield browser, url
            finally:
                browser.close()
    finally:
        if process.poll() is None:
            process.kill()


def open_page(browser, url: str, name: str, bodies: list[str]):
    """A new participant's tab (its own context), named, every response body kept."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()

    def keep(response) -> None:
        try:
            bodies.append(response.body().decode("utf-8", "replace"))
        except Exception:  # noqa: BLE001 - a beacon or aborted request has no body
            pass

    page.on("response", keep)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(url)
    page.fill("#name", name)
    page.press("#name", "Enter")
    page.wait_for_selector("#board[data-puzzle-id]:not([data-puzzle-id=''])", state="attached")
    page.wait_for_selector("#play:not([hidden])")
    bodies.append(page.content())  # the page as drawn, before the participant answers
    return page


def puzzle_id(page) -> str:
    return str(page.get_attribute("#board", "data-puzzle-id"))


def by_keyboard(page, path) -> None:
    for a, b in zip(path, path[1:], strict=False):
        page.keyboard.press(KEYS[(b[0] - a[0], b[1] - a[1])])


def where(page, point) -> tuple[float, float]:
    """The page coordinates of a grid point's centre on the board."""
    box = page.locator("#overlay").bounding_box()
    width, height = page.evaluate("() => S.view.image_size")
    px, py = page.evaluate("() => S.view.pixels")[f"{point[0]},{point[1]}"]
    return box["x"] + px * box["width"] / width, box["y"] + py * box["height"] / height


def click(page, point) -> None:
    page.mouse.click(*where(page, point))


def by_mouse(page, path) -> None:
    """Press on the path's first point (its current end) and drag through every point."""
    page.mouse.move(*where(page, path[0]))
    page.mouse.down()
    for point in path[1:]:
        page.mouse.move(*where(page, point), steps=4)
    page.mouse.up()


def verdict(page) -> str:
    page.wait_for_selector("#feedback:not([hidden])")
    return str(page.text_content("#verdict"))


def start_run(tmp_path: Path, limit: int, *task: str) -> tuple[Path, Any, Path]:
    """A human run of `limit` puzzles (`eval_args`' task and its `-T` options; default `sparc`)
    started in `tmp_path`: the file it writes its page address to, its process, and the folder
    screenshots go to (HUMAN_SCREENSHOTS when set, else `tmp_path`)."""
    url_file = tmp_path / "url.txt"
    process = start(eval_args(url_file, limit, *task), tmp_path, url_file, "plain")
    return url_file, process, Path(os.environ.get("HUMAN_SCREENSHOTS", tmp_path))


def test_people_play_in_chromium_and_their_answers_are_scored(tmp_path):
    url_file, process, shots = start_run(tmp_path, 5)
    known = solutions()
    bodies: list[str] = []
    with chromium_on(process, url_file) as (browser, url):
        leaver = open_page(browser, url, "Leaves", bodies)
        left = puzzle_id(leaver)
        leaver.context.close()  # the tab closes mid-puzzle: its puzzle goes back
        keys = open_page(browser, url, "Keyboard", bodies)
        mouse = open_page(browser, url, "Mouse", bodies)
        wrong = open_page(browser, url, "Wrong", bodies)
        quitter = open_page(browser, url, "Gives up", bodies)
        held = [puzzle_id(page) for page in (keys, mouse, wrong, quitter)]
        assert len(set(held)) == 4  # disjoint
        path = known[held[0]]
        by_keyboard(keys, path[:3])
        keys.keyboard.press("Escape")  # starts again from S
        assert json.loads(keys.get_attribute("#board", "data-path")) == path[:1]
        by_keyboard(keys, path[:3])
        keys.keyboard.press("Backspace")
        by_keyboard(keys, path[1:3])
        assert json.loads(keys.get_attribute("#board", "data-path")) == path[:3]
        by_keyboard(keys, path[2:])
        keys.screenshot(path=str(shots / "human_page.png"))
        keys.keyboard.press("Enter")
        assert verdict(keys) == "Solved"
        clicked = known[held[1]]
        click(mouse, clicked[1])  # one click, one step
        click(mouse, clicked[2])
        click(mouse, clicked[1])  # a click on the previous point steps back
        assert json.loads(mouse.get_attribute("#board", "data-path")) == clicked[:2]
        by_mouse(mouse, clicked[1:])  # then a drag on from there
        assert json.loads(mouse.get_attribute("#board", "data-path")) == known[held[1]]
        mouse.click("#submit")
        assert verdict(mouse) == "Solved"
        wrong.keyboard.press("Enter")  # S alone: not a path to E
        assert verdict(wrong) == "Not solved"
        wrong.screenshot(path=str(shots / "human_feedback.png"))
        quitter.click("#giveup")
        assert verdict(quitter) == "Not solved"
        keys.keyboard.press("Enter")  # next puzzle: the one the closed tab left
        keys.wait_for_selector("#play:not([hidden])")
        fifth = puzzle_id(keys)
        by_keyboard(keys, known[fifth])
        keys.keyboard.press("Enter")
        assert verdict(keys) == "Solved"
        keys.keyboard.press("Enter")
        keys.wait_for_selector("#over:not([hidden])", timeout=60_000)
        process.communicate(timeout=120)
    log: Any = read_eval_log(list_eval_logs(str(tmp_path))[0].name)
    assert log.status == "success"
    who = {s.id: s.metadata["participant"] for s in log.samples}
    correct = {s.id: s.scores["sparc_scorer"].value["correct"] for s in log.samples}
    names = ["Keyboard", "Mouse", "Wrong", "Gives up", "Keyboard"]
    assert who == dict(zip([*held, fifth], names, strict=True))
    assert left in who  # the closed tab's puzzle was answered by someone else
    assert correct == {held[0]: 1, held[1]: 1, held[2]: 0, held[3]: 0, fifth: 1}
    gave_up = {s.id for s in log.samples if s.metadata["gave_up"]}
    assert gave_up == {held[3]}
    clicks = next(s for s in log.samples if s.id == held[1])
    assert clicks.metadata["undos"] == 1 and clicks.metadata["moves"] == len(clicked)
    keyboard = next(s for s in log.samples if s.id == held[0])
    assert keyboard.metadata["undos"] == 2 and keyboard.metadata["moves"] == len(path) + 2
    assert solutions_in("\n".join(bodies)) == []


def finish(process, page, log_dir: Path) -> Any:
    """Leave the last feedback, wait for the page to say the run is over and for the run to
    end; the run's log."""
    page.keyboard.press("Enter")
    page.wait_for_selector("#over:not([hidden])", timeout=60_000)
    process.communicate(timeout=120)
    return read_eval_log(list_eval_logs(str(log_dir))[0].name)


def settle(page) -> None:
    """Wait until every gym move the page has sent has been answered and drawn."""
    page.evaluate("() => S.queue.then(() => true)")


def step(a, b) -> tuple[int, int]:
    return (b[0] - a[0], b[1] - a[1])


def reference_count(record, actions: list[int]) -> tuple[int, int, bool]:
    """(steps, refused moves, solved) of `actions` in the reference gym (`SPaRC_Gym` 0.2.7):
    a move is refused when it is not among the legal actions the gym offers before it."""
    env = reference_env(record)
    _, info = env.reset(options={"puzzle_id": record["id"]})
    steps = illegal = 0
    for action in actions:
        illegal += action not in info["legal_actions"]
        _, reward, terminated, truncated, info = env.step(action)
        steps += 1
        if terminated or truncated:
            return steps, illegal, terminated and reward > 0
    return steps, illegal, False


def test_a_move_the_gym_refuses_is_refused_on_the_page_and_counted_as_the_gym_counts_it(
    tmp_path, sparc_by_id
):
    url_file, process, shots = start_run(tmp_path, 1, "sparc_gym")
    records = {s.id: (s.metadata or {})["puzzle"] for s in sparc_dataset("sample")}
    bodies: list[str] = []
    with chromium_on(process, url_file) as (browser, url):
        page = open_page(browser, url, "Gym", bodies)
        puzzle = parse_puzzle(records[puzzle_id(page)])
        solution = [list(point) for point in puzzle.solutions[0]]
        sx, sy = puzzle.start
        off = next(d for d in ACTIONS if not puzzle.in_grid((sx + d[0], sy + d[1])))
        page.keyboard.press(KEYS[off])  # off the grid: the gym refuses it
        settle(page)
        assert json.loads(page.get_attribute("#board", "data-path")) == [solution[0]]
        assert "refuses that move (counted as step 1)" in page.text_content("#status")
        page.keyboard.press(KEYS[step(*solution[:2])])
        settle(page)
        page.keyboard.press("Backspace")  # back onto S: refused, this run has no traceback
        settle(page)
        assert json.loads(page.get_attribute("#board", "data-path")) == solution[:2]
        assert "refuses that move (counted as step 3)" in page.text_content("#status")
        page.screenshot(path=str(shots / "human_gym_page.png"))
        for a, b in zip(solution[1:], solution[2:], strict=False):
            page.keyboard.press(KEYS[step(a, b)])
            settle(page)
        assert verdict(page) == "Solved"
        log = finish(process, page, tmp_path)
    pressed = [off, step(*solution[:2]), step(solution[1], solution[0])]
    pressed += [step(a, b) for a, b in zip(solution[1:], solution[2:], strict=False)]
    actions = [ACTIONS.index(d) for d in pressed]
    steps, illegal, solved = reference_count(sparc_by_id[puzzle.id], actions)
    assert (illegal, solved) == (2, True)
    assert log.status == "success" and len(log.samples) == 1
    sample = log.samples[0]
    value = next(iter(sample.scores.values())).value
    assert (value["steps"], value["illegal"], value["correct"]) == (steps, illegal, 1)
    assert sample.metadata["participant"] == "Gym"
    assert solutions_in("\n".join(bodies)) == []


def test_algopuzzlevqa_options_are_picked_by_key_or_click_and_scored(tmp_path):
    url_file, process, shots = start_run(tmp_path, 2, "algopuzzlevqa", "puzzle=chain_link")
    questions = {s.id: s for s in algopuzzlevqa_dataset("chain_link", source="sample")}
    bodies: list[str] = []
    with chromium_on(process, url_file) as (browser, url):
        page = open_page(browser, url, "Choices", bodies)
        served = []
        for turn in range(2):
            page.wait_for_selector("#play:not([hidden])")
            question = questions[puzzle_id(page)]
            served.append(question.id)
            options = list((question.metadata or {})["options"])
            gold = options.index(question.target)
            shown = page.locator("#choices button").all_text_contents()
            assert [text.split(") ", 1)[1] for text in shown] == options
            assert page.evaluate("() => document.getElementById('picture').naturalWidth") > 0
            assert question.input[0].content[0].text.strip() in page.text_content("#text")
            if turn == 0:  # the right option by its number key, then Enter
                page.keyboard.press(str(gold + 1))
                page.screenshot(path=str(shots / "human_choice_page.png"))
                page.keyboard.press("Enter")
                assert verdict(page) == "Solved"
                page.keyboard.press("Enter")
            else:  # a wrong option by a click, then the Submit button
                page.locator("#choices button").nth((gold + 1) % len(options)).click()
                page.click("#submit")
                assert verdict(page) == "Not solved"
        log = finish(process, page, tmp_path)
    assert log.status == "success"
    correct = {s.id: next(iter(s.scores.values())).value["correct"] for s in log.samples}
    assert correct == {served[0]: 1, served[1]: 0}
    assert {s.metadata["participant"] for s in log.samples} == {"Choices"}
    text = "\n".join(bodies)
    assert '"answer":' not in text and "answer_letter" not in text


def test_a_run_stopped_and_resumed_with_eval_retry_loses_no_answer_given_on_the_page(tmp_path):
    url_file, process, shots = start_run(tmp_path, 3)
    known = solutions()
    bodies: list[str] = []
    served: list[str] = []
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=shutil.which("chromium"))
        try:
            page = open_page(browser, wait_for_url(url_file, process), "First", bodies)
            first = puzzle_id(page)
            by_keyboard(page, known[first])
            page.keyboard.press("Enter")
            assert verdict(page) == "Solved"
            time.sleep(1.5)  # the sample is logged
            process.send_signal(signal.SIGINT)  # the lab stops the run
            process.communicate(timeout=60)
            page.keyboard.press("Enter")  # the next puzzle: the server has gone
            page.wait_for_selector("#over:not([hidden])")
            assert "every answer given was kept" in page.text_content("#over-why")
            assert page.text_content("#progress") == "1 answered"
            page.screenshot(path=str(shots / "human_stopped_page.png"))
            stopped: Any = read_eval_log(list_eval_logs(str(tmp_path))[0].name)
            assert stopped.status != "success"
            old = url_file.read_text(encoding="utf-8").strip()
            process = start(["eval-retry", stopped.location], tmp_path, url_file, "plain")
            page = open_page(browser, wait_for_url(url_file, process, old), "Second", bodies)
            for _ in range(2):
                page.wait_for_selector("#play:not([hidden])")
                served.append(puzzle_id(page))
                by_keyboard(page, known[served[-1]])
                page.keyboard.press("Enter")
                assert verdict(page) == "Solved"
                page.keyboard.press("Enter")
            page.wait_for_selector("#over:not([hidden])", timeout=60_000)
            process.communicate(timeout=120)
        finally:
            browser.close()
            if process.poll() is None:
                process.kill()
    assert first not in served and len(set(served)) == 2
    final = next(
        log
        for log in (read_eval_log(info.name) for info in list_eval_logs(str(tmp_path)))
        if log.status == "success"
    )
    who = {s.id: s.metadata["participant"] for s in final.samples}
    assert who == {first: "First", served[0]: "Second", served[1]: "Second"}
    assert all(s.scores["sparc_scorer"].value["correct"] == 1 for s in final.samples)
    assert solutions_in("\n".join(bodies)) == []
