"""The environment, observations, prompts and action parsing against the reference code itself.

The oracle is `sparc.process_puzzle.process_puzzle_step_by_step` running `SPaRC_Gym` 0.2.7 on the
same records with scripted replies: every observation text it sends (position, legal actions,
grid), its system prompts, and its final path, termination and verdict must equal ours.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from gym_reference import reference_env, reference_episode
from sparc.process_puzzle import _parse_action

from inspect_sparc.core.episode.stepper import (
    DEAD_END,
    REACHED_END,
    Stepper,
    parse_action,
    path_actions,
    read_action,
)
from inspect_sparc.core.prompts.episode import gym_system_prompt, observation_text
from inspect_sparc.core.puzzle.parse import parse_puzzle

REFERENCE_PROMPTS = {
    ("paper", False): "gym_step_paper",
    ("corrected", False): "gym_step",
    ("paper", True): "gym_step_traceback_paper",
    ("corrected", True): "gym_step_traceback",
}
#: Reply formats the reference reads, one per action (they rotate through the steps).
REPLY_FORMATS = ("Final: {digit}", "Final: {word}", "I move {word}", "...\nFinal: {DIGIT_WORD}")
WORDS = ("right", "up", "left", "down")


def reply_for(action: int, index: int) -> str:
    template = REPLY_FORMATS[index % len(REPLY_FORMATS)]
    word = WORDS[action]
    return template.format(digit=action, word=word, DIGIT_WORD=word.upper())


def our_episode(
    record: dict[str, Any], actions: list[int], traceback: bool
) -> tuple[Stepper, list[str]]:
    """Our environment driven by `actions`, and the observation sent before each step."""
    env = Stepper(parse_puzzle(record), traceback)
    observations = []
    for action in actions:
        if env.done:
            break
        observations.append(
            observation_text(
                env.steps + 1, env.position_text(), env.legal_actions(), env.grid_text()
            )
        )
        env.step(action)
    return env, observations


def assert_same_episode(
    record: dict[str, Any], actions: list[int], traceback: bool, prompt: str
) -> Stepper:
    replies = [reply_for(a, i) for i, a in enumerate(actions)]
    result, requests = reference_episode(
        record, replies, traceback, REFERENCE_PROMPTS[prompt, traceback]
    )
    env, observations = our_episode(record, actions, traceback)
    assert [r[1]["content"] for r in requests] == observations
    system = gym_system_prompt(record, prompt, traceback)
    assert all(r[0]["content"] == system for r in requests)
    assert result["actions"] == actions[: env.steps]
    assert result["steps_taken"] == env.steps
    assert result["solved"] == env.solved
    assert result["reached_end"] == (env.ended == REACHED_END)
    assert result["no_legal_actions"] == (env.ended not in (REACHED_END, None))
    assert [tuple(p) for p in result["extracted_path"]] == [
        env.puzzle.start,
        *[step.position for step in env.history],
    ]
    return env


def scripted_walks(record: dict[str, Any], seed: int, traceback: bool) -> list[list[int]]:
    """A stored solution, a blind walk (many illegal actions) and a mostly-legal walk."""
    puzzle = parse_puzzle(record)
    rng = random.Random(seed)
    walks = [path_actions(puzzle.solutions[0]) + [0]]
    walks.append([rng.randrange(4) for _ in range(101)])
    env = Stepper(puzzle, traceback)
    mostly_legal = []
    while not env.done:
        legal = env.legal_actions()
        action = rng.choice(legal) if rng.random() < 0.8 else rng.randrange(4)
        mostly_legal.append(action)
        env.step(action)
    walks.append(mostly_legal + [0])
    if traceback:  # the solution with a detour and a step back at every point that allows one
        detour: list[int] = []
        env = Stepper(puzzle, True)
        for action in path_actions(puzzle.solutions[0]):
            if env.done:  # a long solution with detours can run into the step limit
                break
            back = [a for a in env.legal_actions() if a != action]
            if back and len(env.path) > 1:
                detour += [back[0], (back[0] + 2) % 4]
                env.run([back[0], (back[0] + 2) % 4])
                if env.done:
                    break
            detour.append(action)
            env.step(action)
        walks.append(detour + [0])
    return walks


@pytest.mark.parametrize("traceback", [False, True])
def test_observations_and_verdicts_equal_the_reference(sparc_records, traceback):
    endings = set()
    for index, record in enumerate(sparc_records[:6]):
        prompt = ("paper", "corrected")[index % 2]
        for walk in scripted_walks(record, index, traceback):
            env = assert_same_episode(record, walk, traceback, prompt)
            endings.add((env.ended, env.solved))
    assert (REACHED_END, True) in endings and (REACHED_END, False) in endings
    assert any(ended not in (REACHED_END, None) for ended, _ in endings)


def test_a_dead_end_ends_the_episode_as_in_the_reference(sparc_records):
    found = 0
    for index, record in enumerate(sparc_records[:20]):
        walks = [w for w in scripted_walks(record, index, False) if w]
        for walk in walks:
            env, _ = our_episode(record, walk, False)
            if env.ended == DEAD_END:
                assert_same_episode(record, walk, False, "paper")
                found += 1
    assert found >= 3


def test_step_limit_and_legal_actions_match_the_bare_environment(sparc_records):
    record = sparc_records[3]
    for max_steps in (1, 4):
        reference = reference_env(record, traceback=True, max_steps=max_steps)
        env = Stepper(parse_puzzle(record), True, max_steps)
        rng = random.Random(max_steps)
        while not env.done:
            action = rng.randrange(4)
            _, _, terminated, truncated, info = reference.step(action)
            env.step(action)
            assert env.legal_actions() == info["legal_actions"]
            assert tuple(info["agent_location"]) == env.position
        assert (terminated, truncated) == (env.ended == REACHED_END, env.ended != REACHED_END)
        assert env.steps <= max_steps


def test_system_prompts_are_byte_identical_for_all_four_variants(sparc_records):
    from sparc.prompts import get_prompt

    for record in sparc_records:
        for (kind, traceback), name in REFERENCE_PROMPTS.items():
            expected = get_prompt(name, record)["system"]
            assert gym_system_prompt(record, kind, traceback) == expected


CRAFTED_REPLIES = [
    "Final: 2",
    "final:3",
    "FINAL:  left",
    "Final: Right.",
    "I think up is best.\nFinal: down",
    "Final: 4",
    "Final: 12",
    "Final: 1 because up",
    "Going left",
    "go 3",
    "go 3.",
    "Final: north",
    "",
    "   ",
    "Final: 0 Final: 3",
    "upright",
    "move: DOWN\n",
    "Final: <action>",
    "The answer is 2\n\n",
    "Final:\n1",
    "Final: leftover 2",
    "Final: 21",
    "0=RIGHT, 1=UP",
]


def test_action_parsing_equals_the_reference():
    for reply in CRAFTED_REPLIES:
        try:
            expected = _parse_action(reply)
        except ValueError:
            expected = None
        assert parse_action(reply) == expected, reply


def test_the_reply_is_read_after_the_last_think_tag_as_the_reference():
    reply = "<think>Final: 2</think>\n<think>Final: 1</think>  Final: 3 "
    assert read_action(reply) == _parse_action(reply.strip().split("</think>")[-1].strip()) == 3
    assert read_action("<think>Final: 2</think>") is None


def test_the_position_prints_like_a_numpy_array():
    import numpy as np

    from inspect_sparc.core.episode.stepper import numpy_vector_text

    for point in [(0, 0), (4, 10), (10, 4), (12, 12), (3, 100)]:
        assert numpy_vector_text(point) == str(np.array(point, dtype=np.int32))


@pytest.mark.slow
@pytest.mark.parametrize("traceback", [False, True])
def test_all_500_observations_and_verdicts_equal_the_reference(sparc_test_split, traceback):
    episodes = solved = 0
    for index, record in enumerate(sparc_test_split):
        prompt = ("paper", "corrected")[index % 2]
        for walk in scripted_walks(record, index, traceback):
            env = assert_same_episode(record, walk, traceback, prompt)
            episodes += 1
            solved += env.solved
    print(f"traceback={traceback}: {episodes} episodes equal, {solved} solved")
    assert solved >= 500
