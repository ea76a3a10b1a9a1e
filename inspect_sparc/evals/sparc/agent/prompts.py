"""The text of `sparc_agent`: the first user message and the replies of the `move` tool.

The rules are the Spatial-Gym system prompt (`sparc_gym`'s, by prompt kind, traceback and
observation), because the agent plays the same episode and sees the same grid: that text
explains the `V` and `L` marks, the traceback rule and the per-step state, which the single-shot
prompt does not. Only the gym's reply format (`Final: <action>`) is replaced, by how to use the
tools. Observations are the gym's own, without that reply instruction. Pure logic: no Inspect.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from inspect_sparc.core.episode.settings import EpisodeSettings, ObservationKind
from inspect_sparc.core.episode.stepper import (
    ACTION_NAMES,
    DEAD_END,
    DEFAULT_MAX_STEPS,
    REACHED_END,
    STEP_LIMIT,
    Stepper,
    StepResult,
)
from inspect_sparc.core.prompts.episode import (
    INSTRUCTION,
    episode_system_prompt,
    gym_visual_step_text,
    observation_text,
)
from inspect_sparc.core.prompts.single_shot import PromptKind

#: The direction names the `move` tool takes, in action order (0=right ... 3=down).
DIRECTIONS: tuple[str, ...] = tuple(name.lower() for name in ACTION_NAMES)

TOOLS_TEXT = """## How to play
You play this puzzle through tools, keeping the whole conversation. Call the `move` tool with \
one direction as text: right, up, left or down (x grows to the right, y grows downwards); the \
number or label from the legal moves list, as text ("3" or "3=DOWN"), also works. Each call \
is one step: its reply is the new state (step, position, legal moves and {view}), or an error \
when the move is not legal. An illegal move still counts as a step and moves nothing. Several \
moves in one turn are taken in order.
{traceback}The episode ends when you reach E, when no legal move is left, or after {max_steps} \
steps; the path drawn then is scored. There is nothing to submit: reaching E ends the puzzle."""
TRACEBACK_TEXT = (
    "To step back, move onto the position you came from (it is listed among the legal moves): "
    "that erases your last step.\n"
)
#: The view each observation kind gives, for the instructions.
VIEWS = {"text": "the grid", "image": "the picture of the puzzle with your path"}
#: Sent back when a turn has no tool call (the default agent): the episode goes on.
CONTINUE_TEXT = (
    "The episode is still running: make your next move with the `move` tool "
    "(right, up, left or down)."
)
#: How the episode ended, as the last reply says it.
ENDING_REPLIES = {
    REACHED_END: "you reached E",
    DEAD_END: "no legal move is left (dead end)",
    STEP_LIMIT: "the step limit is reached",
}


def rules_text(
    record: Mapping[str, Any],
    kind: PromptKind,
    traceback: bool,
    observation: ObservationKind = "text",
) -> str:
    """The gym system prompt for this puzzle: the text one for `text`, the visual one else.

    Args:
        record: the compact puzzle record.
        kind: the prompt wording, `paper` or `corrected`.
        traceback: whether stepping back is allowed (the prompt then says how).
        observation: `text` or `image`.

    Returns:
        The system prompt `sparc_gym` sends, for this puzzle and these settings."""
    settings = EpisodeSettings(prompt=kind, traceback=traceback, observation=observation)
    return episode_system_prompt(record, settings)


def tools_text(traceback: bool, max_steps: int, observation: str = "text") -> str:
    """How to play through the tools: the part that replaces the gym's `Final:` instruction.

    Args:
        traceback: whether stepping back is allowed (a sentence says how).
        max_steps: the steps per episode, named in the text.
        observation: `text` or `image`: what each reply shows, named in the text.

    Returns:
        The "How to play" section."""
    return TOOLS_TEXT.format(
        view=VIEWS[observation],
        traceback=TRACEBACK_TEXT if traceback else "",
        max_steps=max_steps,
    )


def state_text(env: Stepper, observation: str = "text") -> str:
    """The gym's observation for the next step, without its reply instruction.

    `text`: step, position, legal actions and the grid (`sparc_gym`'s user message); `image`:
    the one line that follows the picture. After the end, the last state with the step count.

    Args:
        env: the episode so far.
        observation: `text` or `image`.

    Returns:
        The observation text, `Steps taken: N` in place of the step number once it ended.
    """
    if observation == "image":
        text = gym_visual_step_text(env.steps + 1, env.position_text(), env.legal_actions())
    else:
        text = observation_text(
            env.steps + 1, env.position_text(), env.legal_actions(), env.grid_text()
        )
    text = text.removesuffix(f"\n\n{INSTRUCTION}")
    if env.done:  # there is no next step: say how many were taken instead
        text = re.sub(r"^Step:? \d+", f"Steps taken: {env.steps}", text)
    return text


def ended_text(env: Stepper) -> str:
    """How the episode ended, for the last reply; empty while it runs.

    Args:
        env: the episode so far.

    Returns:
        A sentence with the steps taken and why it ended (E reached, dead end or step limit),
        or ""."""
    if not env.done:
        return ""
    return (
        f"The episode has ended after {env.steps} steps: {ENDING_REPLIES[env.ended or '']}. "
        "No more moves can be made; the path drawn is scored."
    )


def move_text(result: StepResult) -> str:
    """What a legal step did: `Moved RIGHT.` or `Stepped back LEFT.`.

    Args:
        result: a legal step.

    Returns:
        `Moved <DIRECTION>.`, or `Stepped back <DIRECTION>.` for a step back."""
    name = ACTION_NAMES[result.action or 0]
    return f"Stepped back {name}." if result.backtrack else f"Moved {name}."


def illegal_text(direction: str, result: StepResult, env: Stepper) -> str:
    """The tool error for an illegal or unreadable move (the step counted, nothing moved).

    Args:
        direction: the argument the agent gave (shown up to 40 characters when unreadable).
        result: the step just counted.
        env: the episode after it.

    Returns:
        What was wrong and that the step counted, then the state line (step, position, legal
        moves), or how the episode ended when that step ended it."""
    if result.action is None:
        given = str(direction)
        shown = (
            given if len(given) <= 40 else given[:40] + "..."
        )  # a hostile argument is not echoed whole
        what = f"{shown!r} is not a direction: use right, up, left or down."
    else:
        what = f"{ACTION_NAMES[result.action]} is not a legal move from {env.position_text()}."
    counted = f"The step counts ({env.steps} of {env.max_steps}); nothing moved."
    lines = [f"Illegal move: {what} {counted}"]
    if env.done:
        lines.append(ended_text(env))
    else:
        lines.append(state_text(env, "text").split("\n\n")[0])  # step, position, legal actions
    return "\n".join(lines)


def late_text(env: Stepper) -> str:
    """The tool error for a move after the episode ended (not a step).

    Args:
        env: the finished episode.

    Returns:
        `No move made:` and how the episode ended."""
    return f"No move made: {ended_text(env)}"


def read_direction(direction: object) -> int | None:
    """The action a `move` argument names: a direction name (any case), its gym number `0`-`3`,
    or the gym's `1=UP` label; None for anything else (an unreadable step, as in `sparc_gym`).

    Args:
        direction: the `move` tool's argument as the agent sent it (any type; turned to text).

    Returns:
        The action, 0 right, 1 up, 2 left, 3 down, or None."""
    text = str(direction).strip().lower()
    if text in DIRECTIONS:
        return DIRECTIONS.index(text)
    if text in ("0", "1", "2", "3"):
        return int(text)
    match = re.fullmatch(r"([0-3])\s*=\s*(right|up|left|down)", text)
    if match and DIRECTIONS.index(match.group(2)) == int(match.group(1)):
        return int(match.group(1))
    return None


def intro_text(
    record: Mapping[str, Any],
    kind: PromptKind = "paper",
    traceback: bool = False,
    max_steps: int = DEFAULT_MAX_STEPS,
    observation: ObservationKind = "text",
) -> str:
    """The first user message before the first observation: the gym rules, then how to play.

    The text gym prompt's four-space indent (from the reference's source) is taken off, so the
    message reads as text rather than a code block wherever Markdown is rendered.

    Args:
        record: the compact puzzle record.
        kind: the prompt wording, `paper` or `corrected`.
        traceback: whether stepping back is allowed.
        max_steps: the steps per episode.
        observation: `text` or `image` (the visual gym prompt and picture replies).

    Returns:
        The message text: the rules, a blank line, then the "How to play" section.
    """
    rules = rules_text(record, kind, traceback, observation).lstrip("\n").rstrip()
    rules = re.sub(r"^ {4}", "", rules, flags=re.MULTILINE)
    return f"{rules}\n\n{tools_text(traceback, max_steps, observation)}"
