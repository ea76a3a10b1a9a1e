"""`--model inspect_sparc/replay`: a model that answers every call with one fixed text, offline.

Inspect's `mockllm/model` leaves token usage to `tiktoken`, which downloads its encoding file on
first use, so an offline run that calls `generate()` with it ends in a traceback. This model sets
its usage itself (words, not tokens), so a task runs end to end, model call and scorer included,
with no network, no key and no download: `-M answer=TEXT` sets the reply (default: no path).
"""

from __future__ import annotations

from typing import Any

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


class ReplayModel(ModelAPI):
    """Answers every call with `answer`; usage counted in words, so tiktoken is never asked."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        answer: Any = DEFAULT_ANSWER,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
        if model_name not in MODELS:
            show_in_every_display()
            raise PlainValueError(
                f"{PROVIDER} has no model {model_name!r}{did_you_mean(model_name, MODELS)}; "
                f"its models: {', '.join(f'{PROVIDER}/{name}' for name in MODELS)}"
            )
        self.answer = str(answer)

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """The fixed answer, with the prompt's and the answer's word counts as usage."""
        asked = sum(len(message.text.split()) for message in input)
        said = len(self.answer.split())
        output = ModelOutput.from_content(model=self.model_name, content=self.answer)
        output.usage = ModelUsage(input_tokens=asked, output_tokens=said, total_tokens=asked + said)
        return output


@modelapi(name=PROVIDER)
def replay_model() -> type[ModelAPI]:
    """The provider Inspect finds for `--model inspect_sparc/...`."""
    return ReplayModel
