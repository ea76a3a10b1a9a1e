"""The settings of a step-by-step SPaRC episode (`sparc_gym`, `sparc_agent`), as one typed value.

A task checks its arguments once (`EpisodeSettings.from_task`, the one-line errors the CLI
shows), stores the settings in each sample's metadata under `gym` (`metadata`, in the shape the
logs have always had) and solvers, tools and scorers read them back from there once
(`from_metadata`). A new setting is a field here, its check in `from_task`, the task
parameters that pass it, and its use. Pure: no Inspect imports.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, Literal, cast, get_args

from inspect_sparc.core.episode.stepper import DEFAULT_MAX_STEPS, check_max_steps
from inspect_sparc.core.picture.image import check_plot_type, renderer_info
from inspect_sparc.core.prompts.single_shot import PromptKind, check_prompt_kind
from inspect_sparc.core.suggest import did_you_mean

ObservationKind = Literal["text", "image"]
#: How the model is shown the puzzle each step: the grid as text (`--gym`) or the picture with
#: the path so far (`--gym --visual`).
OBSERVATION_KINDS: tuple[str, ...] = get_args(ObservationKind)
#: The sample metadata field that holds the settings.
METADATA_KEY = "gym"


def check_traceback(traceback: object) -> bool:
    """`traceback` as a bool (`-T traceback=true` may arrive as text); ValueError otherwise.

    Args:
        traceback: the task argument: a bool, or "true"/"false" in any case and spacing.

    Returns:
        The bool it means."""
    if isinstance(traceback, str) and traceback.strip().lower() in ("true", "false"):
        return traceback.strip().lower() == "true"
    if not isinstance(traceback, bool):
        raise ValueError(f"traceback must be true or false; got {traceback!r}")
    return traceback


def check_observation(observation: object) -> ObservationKind:
    """`observation` when the gym can show it ("text", "image"), else a ValueError listing them.

    Args:
        observation: the task argument.

    Returns:
        The observation kind, unchanged."""
    if observation not in OBSERVATION_KINDS:
        raise ValueError(
            f"observation must be one of {', '.join(OBSERVATION_KINDS)}; got {observation!r}"
            f"{did_you_mean(observation, OBSERVATION_KINDS)}"
        )
    return cast(ObservationKind, str(observation))  # one of OBSERVATION_KINDS, checked above


@dataclass(frozen=True)
class EpisodeSettings:
    """What an episode is played with: the rules text, the moves allowed and what is shown.

    The fields are in the order the logs hold them (`metadata`), so the conversions below are
    generic: a new field travels to the sample and task metadata with no other change here.
    """

    #: Whether stepping back onto the previous position is allowed (`--gym-traceback`).
    traceback: bool = False
    #: Steps per episode, illegal and unreadable ones included.
    max_steps: int = DEFAULT_MAX_STEPS
    #: The prompt kind of the rules text ("paper" or "corrected").
    prompt: PromptKind = "paper"
    #: "text" or "image" (see `OBSERVATION_KINDS`).
    observation: ObservationKind = "text"
    #: The renderer's plot type of image observations.
    plot: str = "original"

    @classmethod
    def from_task(
        cls, prompt: object, traceback: object, max_steps: object, observation: object, plot: str
    ) -> EpisodeSettings:
        """The settings from a task's arguments, each checked (ValueError naming it), in the
        order the tasks have always checked them.

        Args:
            prompt: the rules text's prompt kind ("paper" or "corrected").
            traceback: whether stepping back is allowed (a bool or "true"/"false").
            max_steps: steps per episode (a positive integer, or its digits as text).
            observation: "text" or "image".
            plot: the renderer's plot type, checked even for text observations.

        Returns:
            The checked settings."""
        return cls(
            prompt=cast(PromptKind, check_prompt_kind(prompt)),  # one of PROMPT_KINDS, checked
            traceback=check_traceback(traceback),
            max_steps=check_max_steps(max_steps),
            observation=check_observation(observation),
            plot=check_plot_type(plot),
        )

    @property
    def image(self) -> bool:
        """True when the model is shown pictures.

        Returns:
            True for image observations, False for text."""
        return self.observation == "image"

    def metadata(self, observation_always: bool = False) -> dict[str, Any]:
        """The sample metadata `gym` field: every setting, except the observation and plot of
        text observations.

        Args:
            observation_always: also store the observation for text observations (as
                `sparc_agent` logs it); the plot stays out for text either way.

        Returns:
            The settings by field name, in field order."""
        fields = asdict(self)
        if not self.image:
            del fields["plot"]
            if not observation_always:
                del fields["observation"]
        return fields

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, Any]) -> EpisodeSettings:
        """The settings a task stored in a sample's metadata (defaults for what is absent).

        Args:
            metadata: the sample's metadata; its `gym` field is read (missing or None: all
                defaults).

        Returns:
            The settings."""
        return cls.from_fields(metadata.get(METADATA_KEY) or {})

    @classmethod
    def from_fields(cls, stored: Mapping[str, Any]) -> EpisodeSettings:
        """The settings from a dict of them (`metadata`'s), defaults for what is absent.

        Args:
            stored: settings by field name; names that are not fields are ignored.

        Returns:
            The settings."""
        names = {field.name for field in dataclass_fields(cls)}
        return cls(**{name: value for name, value in stored.items() if name in names})

    def task_metadata(self) -> dict[str, Any]:
        """The task metadata the settings add after the prompt: every other setting, the plot and
        what drew the images only for image observations.

        Returns:
            The settings but the prompt by field name, with `renderer_info()` for image
            observations."""
        fields = asdict(self)
        del fields["prompt"]  # the task metadata states it first, with the source
        if not self.image:
            del fields["plot"]
            return fields
        return {**fields, **renderer_info()}
