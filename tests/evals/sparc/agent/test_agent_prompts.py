"""The text `sparc_agent` shows a model, checked without Inspect on real puzzles and episodes.

Expectations come from the gym itself (`core.stepper.Stepper`, the labels its observations print)
and from the coordinates of real solutions (x grows to the right, y downwards), not from the
prompt module's own tables.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest

from inspect_sparc.core.episode.stepper import Stepper
from inspect_sparc.core.prompts.episode import (
    gym_system_prompt,
    gym_visual_system_prompt,
    legal_actions_text,
)
from inspect_sparc.core.prompts.single_shot import PROMPT_KINDS
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.sparc.agent.prompts import (
    ended_text,
    illegal_text,
    intro_text,
    late_text,
    move_text,
    read_direction,
    state_text,
    tools_text,
)
from inspect_sparc.evals.sparc.agent.tasks import sparc_agent

#: A unit step on the grid and the word a reader uses for it (y grows downwards).
STEP_WORD = {(1, 0): "RIGHT", (0, -1): "UP", (-1, 0): "LEFT", (0, 1): "DOWN"}


def word_of(a, b) -> str:
    return STEP_WORD[(b[0] - a[0], b[1] - a[1])]


def action_of(env: Stepper, word: str) -> int:
    """The gym action whose step goes the way `word` says, found by trying each legal one on a
    replayed copy of `env`: the gym's own numbering, not the prompt module's."""
    for action in env.legal_actions():
        probe = Stepper(env.puzzle, env.traceback, env.max_steps).run(replay(env))
        probe.step(action)
        if word_of(env.position, probe.position) == word:
            return action
    raise AssertionError((word, env.legal_actions()))


def replay(env: Stepper) -> list[int | None]:
    return [r.action for r in env.history]


def legal_labels(text: str) -> list[str]:
    """The `1=UP` labels of a `Legal Actions: [...]` or `Legal moves: [...]` list."""
    match = re.search(r"Legal (?:Actions|moves): \[([^\]]*)\]", text)
    assert match, text
    return [label for label in match.group(1).split(", ") if label]


# --- read_direction: what the `move` tool accepts ---------------------------------------------


def test_every_label_the_observation_prints_reads_back_as_its_action():
    """A model copying a label from `Legal Actions: [...]`, its number or its name (any case,
    any spacing around) gets exactly that action."""
    for action in range(4):
        [label] = legal_labels(f"Legal Actions: [{legal_actions_text([action])}]")
        number, name = label.split("=")
        assert int(number) == action
        for given in (label, number, name, name.lower(), name.title(), f"  {name.lower()}\n"):
            assert read_direction(given) == action, given
        assert read_direction(action) == action  # a JSON number, not a string
        assert read_direction(f"{number} = {name.lower()}") == action
        assert read_direction(f"{number}={name}\t") == action


def test_anything_else_is_unreadable():
    """Labels whose number and name disagree, numbers outside 0-3 and other words are None
    (an unreadable step, as in `sparc_gym`), never a guess."""
    names = ["RIGHT", "UP", "LEFT", "DOWN"]
    for number in range(4):
        for other in range(4):
            if other != number:
                assert read_direction(f"{number}={names[other]}") is None
    for given in ("4", "-1", "10", "03", "1.0", "4=RIGHT", "r", "u", "rightt", "up down",
                  "right, up", "1=", "=UP", "1=UPP", "x1=UP", "", None, 1.0, True):  # fmt: skip
        assert read_direction(given) is None, given


# --- replies of the `move` tool on real episodes -----------------------------------------------


def solution_episode(record: dict[str, Any], **kwargs) -> tuple[Stepper, list[str]]:
    """An episode walking the record's first solution, and the move_text of each step."""
    puzzle = parse_puzzle(record)
    env = Stepper(puzzle, **kwargs)
    texts = []
    path = puzzle.solutions[0]
    for a, b in zip(path, path[1:], strict=False):
        result = env.step(action_of(env, word_of(a, b)))
        texts.append(move_text(result))
    return env, texts


def test_each_step_reply_names_the_way_the_line_went(sparc_records):
    for record in sparc_records[:15]:
        env, texts = solution_episode(record)
        path = env.puzzle.solutions[0]
        assert texts == [f"Moved {word_of(a, b)}." for a, b in zip(path, path[1:], strict=False)]


def test_a_step_back_is_named_as_such_and_the_way_it_went(sparc_records):
    for record in sparc_records[:15]:
        puzzle = parse_puzzle(record)
        env = Stepper(puzzle, traceback=True)
        first, second = puzzle.solutions[0][:2]
        env.step(action_of(env, word_of(first, second)))
        back = env.step(action_of(env, word_of(second, first)))
        assert back.backtrack and env.position == first
        assert move_text(back) == f"Stepped back {word_of(second, first)}."


def test_the_episode_end_is_told_once_it_has_ended(sparc_records):
    """While the episode runs no end is told; on E, at a dead end or at the step limit the reply
    says so with the steps taken, and later calls are refused with the same words."""
    for record in sparc_records[:10]:
        puzzle = parse_puzzle(record)
        env = Stepper(puzzle)
        assert ended_text(env) == ""
        env, _ = solution_episode(record)
        steps = len(puzzle.solutions[0]) - 1
        assert env.ended == "reached_end"
        said = ended_text(env)
        assert said.startswith(f"The episode has ended after {steps} steps: you reached E.")
        assert "No more moves can be made" in said
        assert late_text(env) == f"No move made: {said}"
    dead = limit = 0
    for record in sparc_records:
        env = Stepper(parse_puzzle(record), max_steps=12)
        while not env.done:
            env.step(env.legal_actions()[0])
        said = ended_text(env)
        assert f"after {env.steps} steps" in said
        if env.ended == "dead_end":
            dead += 1
            assert "no legal move is left" in said
        elif env.ended == "step_limit":
            limit += 1
            assert env.steps == 12 and "the step limit is reached" in said
    assert dead and limit


def test_an_illegal_move_says_what_was_wrong_and_the_state_it_left(sparc_records):
    for record in sparc_records[:15]:
        puzzle = parse_puzzle(record)
        env = Stepper(puzzle, max_steps=50)
        illegal = next(a for a in range(4) if a not in env.legal_actions())
        result = env.step(illegal)
        text = illegal_text(["right", "up", "left", "down"][illegal], result, env)
        here = env.position_text()
        name = ["RIGHT", "UP", "LEFT", "DOWN"][illegal]
        assert text.startswith(f"Illegal move: {name} is not a legal move from {here}.")
        assert "The step counts (1 of 50); nothing moved." in text
        # the state after it: the next step's number, where the agent stands, what is legal
        lines = text.splitlines()
        assert lines[1] == "Step: 2" and lines[2] == f"Current Position: {here}"
        legal = [read_direction(label) for label in legal_labels(text)]
        assert legal == env.legal_actions()
        assert "Grid State" not in text and "Final" not in text
        result = env.step(None)
        text = illegal_text("north-east", result, env)
        assert "'north-east' is not a direction" in text
        assert "The step counts (2 of 50)" in text and "Step: 3\n" in text
        # a hostile argument is shown cut short, not echoed whole into the transcript
        hostile = "north" * 20_000
        text = illegal_text(hostile, env.step(None), env)
        assert f"'{hostile[:40]}...' is not a direction" in text and len(text) < 1_000


def test_an_illegal_move_that_uses_the_last_step_ends_the_episode(sparc_records):
    for record in sparc_records[:10]:
        env = Stepper(parse_puzzle(record), max_steps=1)
        illegal = next(a for a in range(4) if a not in env.legal_actions())
        text = illegal_text("x", env.step(illegal), env)
        assert env.ended == "step_limit"
        assert "The step counts (1 of 1)" in text
        assert text.splitlines()[-1] == ended_text(env) and "the step limit is reached" in text
        assert "Step:" not in text and "Legal Actions" not in text


@pytest.mark.parametrize("observation", ["text", "image"])
def test_the_state_reply_is_the_gym_observation_without_its_reply_format(
    sparc_records, observation
):
    for record in sparc_records[:10]:
        env, _ = solution_episode(record, max_steps=100)
        fresh = Stepper(env.puzzle)
        text = state_text(fresh, observation)
        assert "Final:" not in text and not text.endswith("\n")
        assert re.match(r"Step:? 1\b", text), text
        assert fresh.position_text() in text
        assert [read_direction(x) for x in legal_labels(text)] == fresh.legal_actions()
        if observation == "text":
            assert text.endswith(fresh.grid_text())
        else:
            assert "\n" not in text  # the one line under the picture
        # after the end there is no next step: the count of steps taken instead
        over = state_text(env, observation)
        assert over.startswith(f"Steps taken: {env.steps}"), over
        assert not re.search(r"Step:? \d", over)


# --- the first message ---------------------------------------------------------------------------


@pytest.mark.parametrize("traceback", [False, True])
@pytest.mark.parametrize("observation", ["text", "image"])
def test_the_first_message_is_the_gym_rules_unindented_then_how_to_play(
    sparc_records, traceback, observation
):
    # a CommonMark reader (rich's, under Inspect) shows it as text, not as code blocks
    markdown = pytest.importorskip("markdown_it").MarkdownIt("commonmark")
    record = next(r for r in sparc_records if r["polyshapes"] != "{}")
    for kind in PROMPT_KINDS:
        text = intro_text(record, kind, traceback, 37, observation)
        prompt = gym_visual_system_prompt if observation == "image" else gym_system_prompt
        rules = prompt(record, kind, traceback)
        # every line of the gym's rules, in order
        lines = [line.strip() for line in rules.splitlines() if line.strip()]
        body = [line.strip() for line in text.splitlines() if line.strip()]
        assert body[: len(lines)] == lines
        blocks = [t.type for t in markdown.parse(text) if t.type in ("code_block", "fence")]
        assert blocks == [], (kind, blocks)
        assert text == text.strip()
        # then how to play through the tool, with this episode's settings
        head, how = text.split("\n\n## How to play\n", 1)
        assert head == head.rstrip()  # one blank line between the rules and how to play
        assert "Call the `move` tool" in how and "after 37 steps" in how
        assert ("step back" in how) is traceback
        assert ("picture" in how, "the grid" in how) == (
            observation == "image",
            observation == "text",
        )
        assert "Final:" not in how
        # the traceback version only adds how to step back
        if traceback:
            plain = intro_text(record, kind, False, 37, observation)
            without = plain.split("\n\n## How to play\n")[1]
            added = [line for line in how.splitlines() if "step back" in line]
            assert len(added) == 1 and how.replace(added[0] + "\n", "") == without


def test_the_texts_default_to_the_tasks_defaults(sparc_records):
    """Called without settings, the texts are those of a default `sparc_agent` task."""
    params = inspect.signature(sparc_agent).parameters
    kind, traceback, max_steps, observation = (
        params[name].default for name in ("prompt", "traceback", "max_steps", "observation")
    )
    record = sparc_records[0]
    assert intro_text(record) == intro_text(record, kind, traceback, max_steps, observation)
    assert tools_text(traceback, max_steps) == tools_text(traceback, max_steps, observation)
    env = Stepper(parse_puzzle(record))
    assert state_text(env) == state_text(env, observation)


def test_an_unreadable_move_is_echoed_whole_up_to_40_characters(sparc_records):
    # The cut the test above checks (the first 40 characters, then "...") starts past 40: an
    # argument that fits is shown as given, with no "..." suggesting that something was cut.
    env = Stepper(parse_puzzle(sparc_records[0]), max_steps=50)
    fits, over = "n" * 40, "n" * 41
    assert f"{fits!r} is not a direction" in illegal_text(fits, env.step(None), env)
    assert f"'{over[:40]}...' is not a direction" in illegal_text(over, env.step(None), env)
