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


def answers_by_prompt(task, answer_for) -> dict[str, list[str]]:
    """Map each sample's user prompt to the answers the mock model gives it, in call order."""
    return {s.input[1].content: answer_for(s) for s in task.dataset}


def scripted_model(script: dict[str, list[str]]):
    """A mockllm model that answers each prompt from its own queue (order-proof under epochs)."""
    queues = {prompt: list(answers) for prompt, answers in script.items()}

    def respond(messages, tools, tool_choice, config):
        return mock_output(queues[messages[-1].text].pop(0))

    return get_model("mockllm/model", custom_outputs=respond)
