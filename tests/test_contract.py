"""The names the report recognises runs by (`inspect_sparc.contract.registry`, and the scorers
`--rescore` uses) are the names the package registers: renaming a solver, a scorer or a task
argument fails here, not in a report that quietly stops recognising it."""

from __future__ import annotations

import inspect
from importlib import import_module

import pytest

from inspect_sparc import TASK_MODULES
from inspect_sparc.contract import registry as R
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
    return {
        task: set(inspect.signature(getattr(import_module(module), task)).parameters)
        for task, module in TASK_MODULES.items()
    }


@pytest.mark.parametrize("setting", R.SETTINGS + tuple(R.FILTERS))
def test_each_setting_the_report_copies_is_an_argument_of_a_task(setting):
    assert any(setting in names for names in task_parameters().values())


def test_every_task_argument_that_tells_runs_apart_is_copied():
    # a new task argument reaches the report's settings (and its run labels) or fails here
    every = set().union(*task_parameters().values())
    assert every - set(R.SETTINGS) - set(R.FILTERS) == set()
