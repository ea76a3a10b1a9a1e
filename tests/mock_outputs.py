"""Mock model outputs that never make Inspect download a tokenizer (they carry `usage`)."""

from __future__ import annotations

from inspect_ai.model import Model, ModelOutput, ModelUsage, get_model


def mock_output(content: str) -> ModelOutput:
    """A mockllm output with token usage set, so tiktoken is never asked to count."""
    output = ModelOutput.from_content(model="mockllm/model", content=content)
    output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return output


def mock_model(contents: list[str]) -> Model:
    """A mockllm model that answers with `contents`, in order."""
    return get_model("mockllm/model", custom_outputs=[mock_output(c) for c in contents])
