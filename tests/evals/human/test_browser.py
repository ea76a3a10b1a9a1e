"""The human page in Chromium, as participants meet it: one solves by keyboard, one by mouse
(dragging over the grid), one answers wrong, one gives up, one closes the tab mid-puzzle (its
puzzle goes to the next person); the participants hold disjoint puzzles, the run's log scores
them as a model's, and no response the browser received holds a solution. Screenshots land in
the test's folder (and, with HUMAN_SCREENSHOTS=DIR, there too)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from test_cli import eval_args, solutions, start, wait_for_url

from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.dataset import sparc_dataset

pytestmark = pytest.mark.slow
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
if shutil.which("chromium") is None:
    pytest.skip("chromium is not installed (apt-get install chromium)", allow_module_level=True)

KEYS = {(1, 0): "ArrowRight", (-1, 0): "ArrowLeft", (0, 1): "ArrowDown", (0, -1): "ArrowUp"}


def serialisations(path) -> list[str]:
    pairs = [list(p) for p in path]
    return [
        ", ".join(f"({x},{y})" for x, y in path),
        ", ".join(f"({x}, {y})" for x, y in path),
        json.dumps(pairs),
        json.dumps(pairs, separators=(",", ":")),
    ]


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
    return page


def puzzle_id(page) -> str:
    return str(page.get_attribute("#board", "data-puzzle-id"))


def by_keyboard(page, path) -> None:
    for a, b in zip(path, path[1:], strict=False):
        page.keyboard.press(KEYS[(b[0] - a[0], b[1] - a[1])])


def by_mouse(page, path) -> None:
    """Press on S and drag through every point of `path`."""
    box = page.locator("#overlay").bounding_box()
    size = page.evaluate("() => [S.view.image_size[0], S.view.image_size[1]]")
    pixels = page.evaluate("() => S.view.pixels")

    def where(p):
        px, py = pixels[f"{p[0]},{p[1]}"]
        return box["x"] + px * box["width"] / size[0], box["y"] + py * box["height"] / size[1]

    page.mouse.move(*where(path[0]))
    page.mouse.down()
    for point in path[1:]:
        page.mouse.move(*where(point), steps=4)
    page.mouse.up()


def verdict(page) -> str:
    page.wait_for_selector("#feedback:not([hidden])")
    return str(page.text_content("#verdict"))


def test_people_play_in_chromium_and_their_answers_are_scored(tmp_path):
    url_file = tmp_path / "url.txt"
    process = start(eval_args(url_file, 5), tmp_path, url_file, "plain")
    shots = Path(os.environ.get("HUMAN_SCREENSHOTS", tmp_path))
    known = solutions()
    bodies: list[str] = []
    try:
        url = wait_for_url(url_file, process)
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=shutil.which("chromium"))
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
            keys.keyboard.press("Backspace")
            by_keyboard(keys, path[1:3])
            assert json.loads(keys.get_attribute("#board", "data-path")) == path[:3]
            by_keyboard(keys, path[2:])
            keys.screenshot(path=str(shots / "human_page.png"))
            keys.keyboard.press("Enter")
            assert verdict(keys) == "Solved"
            by_mouse(mouse, known[held[1]])
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
            browser.close()
        process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    from inspect_ai.log import list_eval_logs, read_eval_log

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
    keyboard = next(s for s in log.samples if s.id == held[0])
    assert keyboard.metadata["undos"] == 1 and keyboard.metadata["moves"] == len(path)
    text = "\n".join(bodies)
    for sample in sparc_dataset("sample"):
        for solution in parse_puzzle((sample.metadata or {})["puzzle"]).solutions:
            for written in serialisations(solution):
                assert written not in text
