"""`--model inspect_sparc/replay`: a model that answers every call with one fixed text, offline.

Inspect's `mockllm/model` leaves token usage to `tiktoken`, which downloads its encoding file on
first use, so an offline run that calls `generate()` with it ends in a traceback. This model sets
its usage itself (words, not tokens), so a task runs end to end, model call and scorer included,
with no network, no key and no download: `-M answer=TEXT` sets the reply (default: no path).

Inspect reads each `-M` value as YAML and splits `-M` on commas, so an answer holding a comma, a
`#` or a line break is cut or lost on the command line: `-M answer_file=PATH` reads the answer
from a file, as does `answer:` in a `--model-config FILE`. A name the model does not take, an
empty answer or one that is no text (what YAML makes of `[1, 2]`) stops with one line: a run
must never go on with an answer other than the one meant.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from inspect_sparc.core.suggest import did_you_mean
from inspect_sparc.evals.errors import PlainValueError, show_in_every_display

#: The provider's name (`--model inspect_sparc/replay`) and its one model.
PROVIDER = "inspect_sparc"
MODELS = ("replay",)
#: What the model answers unless `-M answer=...` says otherwise: a reply without a path.
DEFAULT_ANSWER = "I could not find a path."
#: The `-M` arguments the model takes.
MODEL_ARGUMENTS = ("answer", "answer_file")
#: Where to turn when `-M answer=` cannot carry the text.
FROM_A_FILE = (
    "put the answer in a file and pass -M answer_file=PATH (or answer: in --model-config FILE)"
)


class ReplayModel(ModelAPI):
    """Answers every call with `answer`; usage counted in words, so tiktoken is never asked."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        answer: Any = DEFAULT_ANSWER,
        answer_file: Any = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
        if model_name not in MODELS:
            stop(
                f"{PROVIDER} has no model {model_name!r}{did_you_mean(model_name, MODELS)}; "
                f"its models: {', '.join(f'{PROVIDER}/{name}' for name in MODELS)}"
            )
        unknown = [name for name in model_args if name not in MODEL_ARGUMENTS]
        if unknown:
            stop(
                f"{PROVIDER}/{model_name} takes no -M argument {unknown[0]!r}"
                f"{did_you_mean(unknown[0], MODEL_ARGUMENTS)}; its arguments: "
                f"{', '.join(MODEL_ARGUMENTS)}"
            )
        self.answer = replay_answer(answer, answer_file)

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """The fixed answer, with the prompt's and the answer's word counts as usage.

        Args:
            input: the conversation so far (only its words are counted).
            tools: the tools offered (ignored: the model never calls one).
            tool_choice: the tool choice asked for (ignored).
            config: the generation settings (ignored: the answer is fixed).

        Returns:
            An output whose completion is the fixed answer, with usage counted in words: the
            input's words as input tokens, the answer's as output tokens."""
        asked = sum(len(message.text.split()) for message in input)
        said = len(self.answer.split())
        output = ModelOutput.from_content(model=self.model_name, content=self.answer)
        output.usage = ModelUsage(input_tokens=asked, output_tokens=said, total_tokens=asked + said)
        return output


def stop(message: str) -> NoReturn:
    """Stop with `message` as one line, in every display mode.

    Args:
        message: what is wrong and what to do, shown as one line.

    Returns:
        Never: it always raises PlainValueError with `message`."""
    show_in_every_display()
    raise PlainValueError(message)


def replay_answer(answer: Any, answer_file: Any) -> str:
    """The text to answer with: `answer_file`'s text if given, else `answer` (as `-M` parsed it).

    Args:
        answer: `-M answer=` as Inspect's YAML reading left it (text, a number, or worse).
        answer_file: `-M answer_file=`: the path of a UTF-8 text file, or None.

    Returns:
        The answer; a one-line PlainValueError when it is empty, no text or unreadable.
    """
    if answer_file is not None:
        if answer != DEFAULT_ANSWER:
            stop("give the answer once: -M answer=TEXT or -M answer_file=PATH, not both")
        try:
            answer = Path(str(answer_file)).expanduser().read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            stop(f"-M answer_file={answer_file}: cannot read it ({reason})")
    if isinstance(answer, bool) or not isinstance(answer, str | int | float):
        stop(f"-M answer was read as {answer!r}, not as text (a # starts a comment and a comma "
             f"splits -M arguments): {FROM_A_FILE}")  # fmt: skip
    if not str(answer).strip():
        stop("the replay answer is empty: give the text to answer with (-M answer=TEXT, or "
             "-M answer_file=PATH for text with commas or lines)")  # fmt: skip
    return str(answer)


@modelapi(name=PROVIDER)
def replay_model() -> type[ModelAPI]:
    """The provider Inspect finds for `--model inspect_sparc/...`.

    Returns:
        The `ReplayModel` class, registered as provider `inspect_sparc`."""
    return ReplayModel
