"""The `human` solver: people answer the puzzles on a local web page, logged like a model.

    inspect eval inspect_sparc/sparc --solver inspect_sparc/human --model none -T level=1 --limit 10

Building the solver starts the run's page server (`server.py`) and prints its address, token
included, on stderr before Inspect's display starts (so every `--display` mode leaves it on the
screen; `full` and `rich` also show it in the task's footer) and, with `-S url_file=PATH`, writes
it to a file for scripts. Each sample then opens its puzzle on the page and waits for a
participant's answer, which goes through the task's own scorer: `sparc` and `sparc_hard` get the
path as model-like answer text, `sparc_gym` the moves as the gym records them, `algopuzzlevqa`
the chosen option. This protocol is new (the papers' human studies used their own interfaces).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from inspect_ai.model import ContentImage, ContentText, ModelOutput, ModelUsage
from inspect_ai.solver import Generate, Solver, TaskState, solver

from inspect_sparc.core.episode.settings import EpisodeSettings
from inspect_sparc.core.episode.stepper import Stepper, moves_text, step_letter
from inspect_sparc.core.puzzle.parse import parse_puzzle
from inspect_sparc.evals.human.judges import ChoiceJudge, GymJudge, PathJudge, image_uri
from inspect_sparc.evals.human.pool import Answer, Offer
from inspect_sparc.evals.human.server import HumanServer
from inspect_sparc.evals.sparc.episode import MOVES_KEY
from inspect_sparc.evals.sparc.protocols import sample_protocol

__all__ = ["human"]

#: Model name recorded on the participants' outputs.
HUMAN_MODEL = "inspect_sparc/human"
#: Seconds between a waiting sample's looks at its puzzle (and at silent participants).
POLL_SECONDS = 0.2


def start_server(host: str, port: int, url_file: str | None, heartbeat: float) -> HumanServer:
    """Start the run's page server, print its address and write it to `url_file`.

    Args:
        host: the address to serve on (127.0.0.1: this machine only).
        port: the port to serve on (0: any free port).
        url_file: a file to write the address to, for scripts; None writes none.
        heartbeat: the seconds a page may stay silent before its puzzle goes to someone else.

    Returns:
        The server, serving on its own thread."""
    server = HumanServer(host, port, heartbeat)
    if url_file:
        Path(url_file).write_text(server.url + "\n", encoding="utf-8")
    print(f"Human baseline page (open it in a browser): {server.url}", file=sys.stderr, flush=True)
    return server


def prompt_text(state: TaskState) -> str:
    """The text a model is given for this sample (its input messages' text, in order).

    Args:
        state: the sample's state before any answer (its messages are the model's input).

    Returns:
        The text parts of its messages, each stripped of leading and trailing newlines, joined by
        blank lines (images left out)."""
    parts = []
    for message in state.messages:
        if isinstance(message.content, str):
            parts.append(message.content)
        else:
            parts += [c.text for c in message.content if isinstance(c, ContentText)]
    return "\n\n".join(part.strip("\n") for part in parts if part.strip())


def first_image(state: TaskState) -> str:
    """The sample's image (an AlgoPuzzleVQA question's), as Inspect holds it.

    Args:
        state: the sample's state.

    Returns:
        The first image of its messages: a file path or a data URI (ValueError when it has none)."""
    for message in state.messages:
        if not isinstance(message.content, str):
            for content in message.content:
                if isinstance(content, ContentImage):
                    return content.image
    raise ValueError("this sample has no image to show")


def make_judge(state: TaskState) -> ChoiceJudge | GymJudge | PathJudge:
    """The judge for this sample's task: a path, a gym episode or a multiple choice.

    Args:
        state: the sample's state; its metadata tells the task: `options` and `answer` for
            `algopuzzlevqa`, else `puzzle` with the SPaRC protocol (ValueError for `sparc_agent`
            or a sample of neither benchmark).

    Returns:
        A `ChoiceJudge`, a `GymJudge` or a `PathJudge`."""
    metadata = state.metadata
    if "options" in metadata and "answer" in metadata:
        return ChoiceJudge(
            str(state.sample_id),
            prompt_text(state),
            image_uri(first_image(state)),
            list(metadata["options"]),
            str(state.target.text),
        )
    if not isinstance(metadata.get("puzzle"), dict):
        raise ValueError("human: this sample is neither a SPaRC puzzle nor an AlgoPuzzleVQA one")
    puzzle = parse_puzzle(metadata["puzzle"])
    protocol = sample_protocol(metadata, state.tools)
    if protocol == "gym":
        return GymJudge(puzzle, EpisodeSettings.from_metadata(metadata), prompt_text(state))
    if protocol == "agent":
        raise ValueError(
            "human plays sparc, sparc_hard, sparc_gym and algopuzzlevqa, not sparc_agent"
        )
    return PathJudge(puzzle, prompt_text(state))


def record_answer(state: TaskState, answer: Answer, judge: Any) -> None:
    """Put the participant's answer where the task's scorer reads a model's, and who gave it
    (and how) in the sample's metadata.

    Args:
        state: the sample's state: its output and last message become the answer (the gym's
            moves also go to the store, under `MOVES_KEY`), its metadata gains `participant`,
            `seconds`, `moves`, `undos` and `gave_up`.
        answer: the participant's answer; its `result` is the answer text, or the gym's
            `Stepper`.
        judge: the sample's judge (not read: `answer.result` holds what it made of the answer)."""
    if isinstance(answer.result, Stepper):
        env = answer.result
        state.store.set(MOVES_KEY, "".join(step_letter(result) for result in env.history))
        content = f"Moves: {moves_text(env.history)}\nEnded: {env.ended}"
    else:
        content = str(answer.result)
    output = ModelOutput.from_content(model=HUMAN_MODEL, content=content)
    output.usage = ModelUsage(input_tokens=0, output_tokens=0, total_tokens=0)
    state.output = output
    state.messages.append(output.message)
    state.metadata.update(
        {
            "participant": answer.participant,
            "seconds": answer.seconds,
            "moves": answer.moves,
            "undos": answer.undos,
            "gave_up": answer.gave_up,
        }
    )


@solver
def human(
    host: str = "127.0.0.1",
    port: int = 0,
    url_file: str | None = None,
    heartbeat: float = 15.0,
) -> Solver:
    """People answer each puzzle on a local web page (new protocol: a human baseline).

    Args:
        host: Address to serve on (127.0.0.1: this machine only; another only when asked).
        port: Port to serve on (0: any free port).
        url_file: Also write the page's address (token included) to this file.
        heartbeat: Seconds a page may stay silent before its puzzle goes to someone else.

    Returns:
        A solver that puts each sample's puzzle on the page (started as the solver is built, its
        address printed on stderr), waits for a participant's answer and records it as the
        model's output, so the task's own scorer scores it.
    """
    import anyio
    from inspect_ai.util import display_counter

    server = start_server(str(host), int(port), url_file, float(heartbeat))

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        display_counter("Human page", server.url)
        judge = make_judge(state)
        offer = Offer(judge, judge.view)
        server.pool.add(offer)
        try:
            while not offer.done.is_set():
                await anyio.sleep(POLL_SECONDS)
                server.pool.expire()
        finally:
            if offer.answer is None:  # the sample was cancelled: the puzzle closes
                server.pool.withdraw(offer)
        assert offer.answer is not None
        record_answer(state, offer.answer, judge)
        return state

    return solve
