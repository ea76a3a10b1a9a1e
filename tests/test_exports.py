"""The tasks are importable from the package by name, and importing the package stays cheap."""

from __future__ import annotations

import subprocess
import sys

import pytest

import inspect_sparc


def test_every_task_is_exported_by_name():
    from inspect_ai._util.registry import registry_info

    for name in inspect_sparc.TASK_MODULES:
        task = getattr(inspect_sparc, name)
        assert registry_info(task).name == f"inspect_sparc/{name}"
    assert set(inspect_sparc.TASK_MODULES) <= set(inspect_sparc.__all__)


def test_import_inspect_sparc_loads_no_inspect():
    code = (
        "import sys, inspect_sparc, inspect_sparc.core.puzzle.rules; "
        "print('inspect_ai' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_names_module_loads_no_inspect():
    # the report reads metric and value-key names from here without loading Inspect
    code = "import sys, inspect_sparc.contract.scores; print('inspect_ai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize(
    "package", ["inspect_sparc.core", "inspect_sparc.core.algopuzzlevqa", "inspect_sparc.runtime"]
)
def test_a_packages_public_names_are_its_modules_own_and_load_on_use(package):
    import importlib

    module = importlib.import_module(package)
    for name in module.__all__:
        assert getattr(module, name) is getattr(importlib.import_module(module.EXPORTS[name]), name)
    assert set(module.__all__) == set(module.EXPORTS)
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        module.nothing  # noqa: B018 - the lookup itself is the test
    # importing the package loads none of the modules behind its names, nor Inspect
    code = (
        f"import sys, {package}\n"
        f"loaded = [m for m in sys.modules if m.startswith(('{package}.', 'inspect_ai'))]\n"
        "print(sorted(m for m in loaded if m != 'inspect_sparc.runtime.lazy'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_algopuzzlevqa_package_exports_its_inspect_objects_on_use():
    import inspect_sparc.evals.algopuzzlevqa as package
    from inspect_sparc.evals.algopuzzlevqa.scorer import algopuzzlevqa_scorer
    from inspect_sparc.evals.algopuzzlevqa.solvers import algopuzzlevqa_solver
    from inspect_sparc.evals.algopuzzlevqa.tasks import algopuzzlevqa

    assert package.algopuzzlevqa is algopuzzlevqa
    assert package.algopuzzlevqa_solver is algopuzzlevqa_solver
    assert package.algopuzzlevqa_scorer is algopuzzlevqa_scorer
    with pytest.raises(AttributeError, match="inspect_sparc.evals.algopuzzlevqa"):
        package.nothing  # noqa: B018 - the lookup itself is the test
