"""The tasks are importable from the package by name, and importing the package stays cheap."""

from __future__ import annotations

import subprocess
import sys

import inspect_sparc


def test_every_task_is_exported_by_name():
    from inspect_ai._util.registry import registry_info

    for name in inspect_sparc.TASK_MODULES:
        task = getattr(inspect_sparc, name)
        assert registry_info(task).name == f"inspect_sparc/{name}"
    assert set(inspect_sparc.TASK_MODULES) <= set(inspect_sparc.__all__)


def test_import_inspect_sparc_loads_no_inspect():
    code = "import sys, inspect_sparc, inspect_sparc.core.rules; print('inspect_ai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_names_module_loads_no_inspect():
    # the report reads metric and value-key names from here without loading Inspect
    code = "import sys, inspect_sparc.contract.scores; print('inspect_ai' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
