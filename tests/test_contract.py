"""The names the report recognises runs by (`contract.protocols`, `report.read.registry`,
and the scorers `--rescore` uses) are the names the package registers: renaming a solver, a
scorer or a task argument fails here, not in a report that quietly stops recognising it."""

from __future__ import annotations

import inspect
from importlib import import_module

import pytest

from inspect_sparc import TASK_MODULES
from inspect_sparc.contract import protocols as P
from inspect_sparc.report.read import registry as R
from inspect_sparc.report.read.rescore import SCORERS

pytest.importorskip("inspect_ai")


def registered_name(obj) -> str:
    from inspect_ai._util.registry import registry_info

    return registry_info(obj).name


@pytest.mark.parametrize("name", R.BASELINE_SOLVER_NAMES)
def test_each_baseline_solver_name_is_a_registered_solver(name):
    registry = import_module("inspect_sparc._registry")  # what Inspect's entry point loads
    assert registered_name(getattr(registry, name)) == f"inspect_sparc/{name}"


@pytest.mark.parametrize("name", sorted(SCORERS))
def test_each_scorer_the_report_rescores_with_is_the_registered_one(name):
    assert registered_name(SCORERS[name]()) == f"inspect_sparc/{name}"


def test_every_registered_scorer_can_rescore():
    from inspect_ai._util.registry import is_registry_object

    registry = import_module("inspect_sparc._registry")
    scorers = {
        registered_name(obj).removeprefix("inspect_sparc/")
        for obj in vars(registry).values()
        if is_registry_object(obj, type="scorer")
    }
    assert scorers == set(SCORERS)


def task_parameters() -> dict[str, set[str]]:
    """Each task's named arguments (not the catch-all that lets a misspelled name be refused)."""
    named = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return {
        task: {
            name
            for name, parameter in inspect.signature(
                getattr(import_module(module), task)
            ).parameters.items()
            if parameter.kind in named
        }
        for task, module in TASK_MODULES.items()
    }


@pytest.mark.parametrize("setting", R.SETTINGS + tuple(R.FILTERS))
def test_each_setting_the_report_copies_is_an_argument_of_a_task(setting):
    assert any(setting in names for names in task_parameters().values())


def test_every_task_argument_that_tells_runs_apart_is_copied():
    # a new task argument reaches the report's settings (and its run labels) or fails here
    every = set().union(*task_parameters().values())
    assert every - set(R.SETTINGS) - set(R.FILTERS) == set()


def test_the_task_names_are_the_exported_tasks():
    assert sorted(P.TASK_NAMES) == sorted(TASK_MODULES)
    assert set(P.EPISODE_TASKS) < set(P.TASK_NAMES)


@pytest.mark.parametrize("task", sorted(TASK_MODULES))
def test_every_task_is_read_as_a_protocol_the_report_knows(task):
    # a task the report does not know by name would become a protocol of its own
    from inspect_sparc.contract.protocols import PROTOCOLS, protocol_of

    assert protocol_of(task, {}) in (*PROTOCOLS, P.ALGOPUZZLEVQA)


def test_the_settings_the_report_matches_runs_by_are_settings_it_copies():
    # each is a run frame column: a setting copied from the task arguments, or the task itself
    from inspect_sparc.report.analysis.deltas import DELTA_MATCH
    from inspect_sparc.report.analysis.fresh import SAME
    from inspect_sparc.report.analysis.paired import PUZZLE_SETTINGS
    from inspect_sparc.report.read.runs import DISTINGUISHING

    # or the eval options that choose a run's puzzles (`--sample-id`, `--limit`)
    columns = {*R.SETTINGS, *R.FILTERS.values(), "task", "protocol", "sample_ids", "limit"}
    for names in (DELTA_MATCH, SAME, PUZZLE_SETTINGS, DISTINGUISHING):
        assert set(names) <= columns, set(names) - columns
