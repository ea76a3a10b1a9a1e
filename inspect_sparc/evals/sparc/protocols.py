"""Which SPaRC protocol a sample belongs to, so a baseline solver run in another task stops.

Inspect builds a `--solver` once, before and apart from the tasks it will run, so a solver
cannot refuse a task when it is built; it can only look at its first sample. The marks read
here are the ones each task already writes: the single-shot tasks' samples hold no episode
settings, `sparc_gym`'s hold them under `gym`, and `sparc_agent`'s setup also gives the sample
its tools. A baseline in the wrong task then stops the eval on that first sample with one line
naming the task it belongs to, instead of scoring 0% on every puzzle. Inspect shows an error
raised in a sample under a traceback (and exits 0), so under its command line the line is also
printed last, on stderr, as the command exits (`errors.say_last`). The no-model baselines of
`sparc_gym` and `sparc_agent` also end alike: `baseline_output` is their shared final output.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from inspect_ai.model import ModelOutput, ModelUsage

from inspect_sparc.core.episode.settings import METADATA_KEY
from inspect_sparc.core.episode.stepper import Stepper, moves_text
from inspect_sparc.evals.errors import say_last

Protocol = Literal["single_shot", "gym", "agent"]

#: The tasks of each protocol, as a user names them on the command line.
PROTOCOL_TASKS: dict[str, str] = {
    "single_shot": "sparc, sparc_hard or sparc_visual",
    "gym": "sparc_gym",
    "agent": "sparc_agent",
}


class WrongTaskError(ValueError):
    """A baseline solver was given a sample of another protocol's task."""


def sample_protocol(metadata: Mapping[str, Any] | None, tools: Sequence[Any] = ()) -> Protocol:
    """The protocol of a sample, from its metadata and the tools its task's setup gave it.

    Args:
        metadata: the sample's metadata; None or one without episode settings (`gym`) is
            single shot.
        tools: the tools the sample's task gave it (only `sparc_agent` gives any).

    Returns:
        `single_shot`, `gym` or `agent`."""
    if not metadata or METADATA_KEY not in metadata:
        return "single_shot"
    return "agent" if tools else "gym"


def wrong_task(solver: str, protocol: Protocol, found: str) -> WrongTaskError:
    """The one-line error for `solver` (a solver of `protocol`) given a sample from `found`,
    also printed last by Inspect's command line as it exits (`errors.say_last`).

    Args:
        solver: the solver's name as registered (`gym_astar`, ...).
        protocol: the protocol the solver plays.
        found: the tasks the sample comes from, as users name them (`PROTOCOL_TASKS`).

    Returns:
        The error, naming the command line that runs the solver in its own task (for the caller
        to raise)."""
    home = PROTOCOL_TASKS[protocol]
    first = home.split(",")[0]
    error = WrongTaskError(
        f"{solver} is a solver for {home}, but this sample comes from {found}: run it as "
        f"`inspect eval inspect_sparc/{first} --solver inspect_sparc/{solver}`."
    )
    say_last(f"WrongTaskError: {error}")
    return error


def require_protocol(
    solver: str, protocol: Protocol, metadata: Mapping[str, Any] | None, tools: Sequence[Any] = ()
) -> None:
    """Raise `WrongTaskError` (one line, also printed last by the CLI) unless the sample is of
    `protocol`'s tasks.

    Args:
        solver: the solver's name as registered (`gym_astar`, ...).
        protocol: the protocol the solver plays.
        metadata: the sample's metadata.
        tools: the tools the sample's task gave it."""
    found = sample_protocol(metadata, tools)
    if found != protocol:
        raise wrong_task(solver, protocol, PROTOCOL_TASKS[found])


def baseline_output(model: str, env: Stepper) -> ModelOutput:
    """A no-model baseline's final output, the same in `sparc_gym` and `sparc_agent`: its moves
    and where the episode ended.

    Args:
        model: the model name to record (`inspect_sparc/gym_astar`, `inspect_sparc/agent_random`,
            ...).
        env: the finished episode.

    Returns:
        An output with the moves (`RRDDL ...`) and how the episode ended as its text, and zero
        tokens of usage."""
    content = f"Moves: {moves_text(env.history)}\nEnded: {env.ended}"
    output = ModelOutput.from_content(model=model, content=content)
    output.usage = ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)
    return output
