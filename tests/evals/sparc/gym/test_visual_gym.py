"""sparc_gym -T observation=image: every step's messages equal the reference's visual gym loop
(`process_puzzle_step_by_step_visual`, run unchanged on local records with a scripted client)."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import random
from typing import Any, cast

import pytest
from gym_reference import ScriptedClient, local_gym_records
from inspect_ai import eval
from inspect_ai.model import ContentImage, ContentText, get_model
from mock_outputs import mock_output
from PIL import Image
from sparc import process_puzzle as reference

from inspect_sparc.core.episode.stepper import Stepper, path_actions
from inspect_sparc.core.picture.image import FONT_PATH
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.gym.solvers import gym_agent
from inspect_sparc.evals.sparc.gym.tasks import sparc_gym

REFERENCE_PROMPTS = {
    ("paper", False): "gym_visual_paper",
    ("corrected", False): "gym_visual",
    ("paper", True): "gym_visual_traceback_paper",
    ("corrected", True): "gym_visual_traceback",
}
WORDS = ("right", "up", "left", "down")


@pytest.fixture
def reference_in_tmp(tmp_path, monkeypatch):
    """The reference writes each step's image to ./puzzle_image.png, and looks its font up."""
    from sparc_visualization.fonts import load_plot_font

    monkeypatch.chdir(tmp_path)
    for module in ("text_plot", "path_cell_annotation_plot"):
        monkeypatch.setattr(
            f"sparc_visualization.plots.{module}.load_plot_font",
            lambda size, preferred_path=None: load_plot_font(size, str(FONT_PATH)),
        )


def reference_requests(
    record: dict[str, Any], replies: list[str], traceback: bool, plot: str, prompt: str
):
    client = ScriptedClient(replies)
    name = REFERENCE_PROMPTS[prompt, traceback]
    with local_gym_records([record]):
        asyncio.run(
            reference.process_puzzle_step_by_step_visual(
                client, record, "scripted", 0.0, 0, traceback, plot, name
            )
        )
    return client.requests


def our_requests(
    record: dict[str, Any], replies: list[str], traceback: bool, plot: str, prompt: str, tmp
):
    """The messages our sparc_gym sends, one [system, user] list per step."""
    source = tmp / "one.jsonl"
    source.write_text(json.dumps(record))
    queue, sent = list(replies), []

    def respond(messages, tools, tool_choice, config):
        sent.append(messages)
        return mock_output(queue.pop(0))

    task = sparc_gym(
        source=str(source),
        observation="image",
        plot=plot,
        traceback=traceback,
        prompt=cast(Any, prompt),
    )
    model = get_model("mockllm/model", custom_outputs=respond)
    [log] = eval(task, model=model, log_dir=str(tmp / "logs"), display="none")
    assert log.status == "success", log.error
    return sent


def pixels(uri: str) -> tuple[str, tuple[int, int], bytes]:
    image = Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1])))
    return image.mode, image.size, image.tobytes()


def walk(record: dict[str, Any], seed: int, traceback: bool) -> list[int]:
    """Actions that end the episode with illegal tries on the way: without traceback a random
    legal walk (to E or a dead end); with it the first solution with a step out and back."""
    rng = random.Random(seed)
    puzzle = parse_puzzle(record)
    env = Stepper(puzzle, traceback)
    actions: list[int] = []
    plan = path_actions(puzzle.solutions[0]) if traceback else []
    while not env.done:
        legal = env.legal_actions()
        if rng.random() < 0.2:  # an illegal try: nothing moves
            tries = [a for a in range(4) if a not in legal]
            if tries:
                actions.append(tries[0])
                env.step(tries[0])
                continue
        if traceback and plan:
            action = plan.pop(0)
            out = [a for a in legal if a != action]
            if out and len(env.path) > 1 and len(actions) < 8:  # step out and back first
                actions += [out[0], (out[0] + 2) % 4]
                env.run([out[0], (out[0] + 2) % 4])
        else:
            action = rng.choice(legal)
        if not env.done:
            actions.append(action)
            env.step(action)
    return actions


CASES = [  # (record index, walk or solution, traceback, plot, prompt)
    (5, "solution", False, "original", "paper"),
    (22, "walk", True, "path_cell_annotated", "corrected"),
    pytest.param(31, "walk", False, "text", "paper", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("index", "kind", "traceback", "plot", "prompt"), CASES)
def test_each_step_equals_the_reference(
    sparc_records, reference_in_tmp, tmp_path, index, kind, traceback, plot, prompt
):
    record = sparc_records[index]
    puzzle = parse_puzzle(record)
    if kind == "solution":
        actions = path_actions(puzzle.solutions[0])
    else:
        actions = walk(record, index, traceback)
    replies = [f"Final: {WORDS[a]}" if i % 2 else f"Final: {a}" for i, a in enumerate(actions)]
    theirs = reference_requests(record, replies, traceback, plot, prompt)
    ours = our_requests(record, replies, traceback, plot, prompt, tmp_path)
    assert len(ours) == len(theirs) >= 3
    for step, (mine, ref) in enumerate(zip(ours, theirs, strict=True), start=1):
        system, user = mine
        assert system.content == ref[0]["content"], step
        image, text = user.content
        assert isinstance(image, ContentImage) and isinstance(text, ContentText)
        ref_image, ref_text = ref[1]["content"]
        assert text.text == ref_text["text"], step
        assert pixels(image.image) == pixels(ref_image["image_url"]["url"]), step


def test_an_unknown_observation_or_plot_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="text, image"):
        sparc_gym(source="/nonexistent.jsonl", observation="picture")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="path_cell_annotated"):
        sparc_gym(source="/nonexistent.jsonl", observation="image", plot="fancy")


def test_the_gym_agent_given_by_name_keeps_the_samples_image_observation(sparc_records, tmp_path):
    # `--solver inspect_sparc/gym_agent` on `-T observation=image` must still send images.
    source = tmp_path / "one.jsonl"
    source.write_text(json.dumps(sparc_records[0]))
    sent = []

    def respond(messages, tools, tool_choice, config):
        sent.append(messages)
        return mock_output("Final: 9")  # unreadable: the episode runs to its step limit

    task = sparc_gym(source=str(source), observation="image", max_steps=2)
    model = get_model("mockllm/model", custom_outputs=respond)
    [log] = eval(task, model=model, solver=gym_agent(), log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    assert len(sent) == 2
    assert all(isinstance(user.content[0], ContentImage) for _, user in sent)
