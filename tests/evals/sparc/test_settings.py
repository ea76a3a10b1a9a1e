"""The step-by-step settings travel as one value: what a task stores is what the solvers,
the agent's tools and the scorer read back, and the stored shapes are the logged ones."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, cast

import pytest

from inspect_sparc.core.episode.settings import EpisodeSettings
from inspect_sparc.evals.sparc.agent.tools import SETTINGS_KEY, store_fields, stored_settings

if TYPE_CHECKING:
    from inspect_ai.util import Store

ALL = [
    EpisodeSettings.from_task(prompt, traceback, steps, observation, plot)
    for prompt, traceback, steps, observation, plot in itertools.product(
        ("paper", "corrected"),
        (False, "true"),
        (1, "37"),
        ("text", "image"),
        ("original", "rotated"),
    )
]


class FakeStore(dict[str, Any]):
    """The two methods of Inspect's Store the tools use."""

    def set(self, key, value):
        self[key] = value


@pytest.mark.parametrize("settings", ALL)
def test_what_a_sample_stores_reads_back_the_same(settings):
    for always in (False, True):
        stored = {"gym": settings.metadata(observation_always=always)}
        read = EpisodeSettings.from_metadata(stored)
        assert read.traceback is settings.traceback and read.max_steps == settings.max_steps
        assert (read.prompt, read.observation) == (settings.prompt, settings.observation)
        if settings.image:  # the plot only matters for pictures, and is stored only then
            assert read == settings
    store = FakeStore({SETTINGS_KEY: store_fields(settings)})
    back = stored_settings(cast("Store", store))  # the fake has the two methods used
    assert (back.traceback, back.max_steps) == (settings.traceback, settings.max_steps)
    assert (back.observation, back.plot) == (settings.observation, settings.plot)


def test_the_logged_shapes_are_the_ones_earlier_logs_hold():
    text = EpisodeSettings.from_task("paper", False, 100, "text", "original")
    image = EpisodeSettings.from_task("corrected", True, 7, "image", "rotated")
    assert list(text.metadata()) == ["traceback", "max_steps", "prompt"]
    assert list(text.metadata(observation_always=True)) == [
        "traceback",
        "max_steps",
        "prompt",
        "observation",
    ]
    assert image.metadata() == {
        "traceback": True,
        "max_steps": 7,
        "prompt": "corrected",
        "observation": "image",
        "plot": "rotated",
    }
    assert store_fields(text) == {
        "traceback": False,
        "max_steps": 100,
        "kind": "text",
        "plot": "original",
    }
    assert list(text.task_metadata()) == ["traceback", "max_steps", "observation"]
    assert list(image.task_metadata())[:4] == ["traceback", "max_steps", "observation", "plot"]


def test_a_sample_without_settings_reads_the_reference_defaults():
    read = EpisodeSettings.from_metadata({})
    assert (read.prompt, read.traceback, read.max_steps, read.observation) == (
        "paper",
        False,
        100,  # the reference's step limit (sparc-puzzle --gym)
        "text",
    )
