"""The settings of a step-by-step SPaRC episode (`sparc_gym`, `sparc_agent`), as one typed value.

A task checks its arguments once (`EpisodeSettings.from_task`, the one-line errors the CLI
shows), stores the settings in each sample's metadata under `gym` (`metadata`, in the shape the
logs have always had) and solvers, tools and scorers read them back from there once
(`from_metadata`). A new setting is a field here, its check in `from_task`, the task
parameters that pass it, and its use. Pure: no Inspect imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

from inspect_sparc.core.gym import DEFAULT_MAX_STEPS, check_max_steps
from inspect_sparc.core.picture import check_plot_type, renderer_info
from inspect_sparc.evals.sparc.prompts import check_prompt_kind

ObservationKind = Literal["text", "image"]
#: How the model is shown the puzzle each step: the grid as text (`--gym`) or the picture with
#: the path so far (`--gym --visual`).
OBSERVATIONS: tuple[str, ...] = get_args(ObservationKind)
#: The sample metadata field that holds the settings.
METADATA_KEY = "gym"


def check_traceback(traceback: object) -> bool:
    """`traceback` as a bool (`-T traceback=true` may arrive as text); ValueError otherwise."""
    if isinstance(traceback, str) and traceback.strip().lower() in ("true", "false"):
        return traceback.strip().lower() == "true"
    if not isinstance(traceback, bool):
        raise ValueError(f"traceback must be true or false; got {traceback!r}")
    return traceback


def check_observation(observation: object) -> str:
    """`observation` when the gym can show it ("text", "image"), else a ValueError listing them."""
    if observation not in OBSERVATIONS:
        raise ValueError(
            f"observation must be one of {', '.join(OBSERVATIONS)}; got {observation!r}"
        )
    return str(observation)


@dataclass(frozen=True)
class EpisodeSettings:
    """What an episode is played with: the rules text, the moves allowed and what is shown."""

    #: The prompt kind of the rules text ("paper" or "corrected").
    prompt: str = "paper"
    #: Whether stepping back onto the previous position is allowed (`--gym-traceback`).
    traceback: bool = False
    #: Steps per episode, illegal and unreadable ones included.
    max_steps: int = DEFAULT_MAX_STEPS
    #: "text" or "image" (see `OBSERVATIONS`).
    observation: str = "text"
    #: The renderer's plot type of image observations.
    plot: str = "original"

    @classmethod
    def from_task(
        cls, prompt: object, traceback: object, max_steps: object, observation: object, plot: str
    ) -> EpisodeSettings:
        """The settings from a task's arguments, each checked (ValueError naming it), in the
        order the tasks have always checked them."""
        check_prompt_kind(prompt)  # type: ignore[arg-type]
        checked_traceback = check_traceback(traceback)
        checked_steps = check_max_steps(max_steps)
        checked_observation = check_observation(observation)
        check_plot_type(plot)
        return cls(str(prompt), checked_traceback, checked_steps, checked_observation, plot)

    @property
    def image(self) -> bool:
        """True when the model is shown pictures."""
        return self.observation == "image"

    def metadata(self, observation_always: bool = False) -> dict[str, Any]:
        """The sample metadata `gym` field: traceback, max_steps, prompt, then observation and
        plot for image observations (`observation_always`: the observation for text too, as
        `sparc_agent` logs it)."""
        fields: dict[str, Any] = {
            "traceback": self.traceback,
            "max_steps": self.max_steps,
            "prompt": self.prompt,
        }
        if self.image or observation_always:
            fields["observation"] = self.observation
        if self.image:
            fields["plot"] = self.plot
        return fields

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, Any]) -> EpisodeSettings:
        """The settings a task stored in a sample's metadata (defaults for what is absent)."""
        fields = dict(metadata.get(METADATA_KEY) or {})
        return cls(
            prompt=str(fields.get("prompt", "paper")),
            traceback=bool(fields.get("traceback", False)),
            max_steps=int(fields.get("max_steps", DEFAULT_MAX_STEPS)),
            observation=str(fields.get("observation", "text")),
            plot=str(fields.get("plot", "original")),
        )

    def task_metadata(self) -> dict[str, Any]:
        """The task metadata the settings add: traceback, max_steps, observation and, for
        image observations, the plot and what drew the images."""
        visual = {"plot": self.plot, **renderer_info()} if self.image else {}
        return {
            "traceback": self.traceback,
            "max_steps": self.max_steps,
            "observation": self.observation,
            **visual,
        }
