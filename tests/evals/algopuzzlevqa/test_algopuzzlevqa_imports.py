"""Pure modules stay free of inspect_ai; the package exposes the task lazily."""

from __future__ import annotations

import subprocess
import sys


def test_pure_modules_do_not_import_inspect_ai() -> None:
    code = (
        "import sys\n"
        "import inspect_sparc.evals.algopuzzlevqa as package\n"
        "from inspect_sparc.core.algopuzzlevqa import answer, layout, prompts, puzzles, sources\n"
        "from inspect_sparc.core.algopuzzlevqa import images\n"
        "from inspect_sparc.core.algopuzzlevqa import ontology\n"
        "assert 'inspect_ai' not in sys.modules, 'inspect_ai imported'\n"
        "assert 'PIL' not in sys.modules, 'PIL imported before an image is resized'\n"
        "assert package.algopuzzlevqa.__name__ == 'algopuzzlevqa'\n"
        "assert 'inspect_ai' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
