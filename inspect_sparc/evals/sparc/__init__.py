"""The SPaRC Inspect layer: one subpackage per protocol (`single_shot`, `gym`, `visual`,
`agent`), each with its `tasks.py`, over what they share here: sources, dataset, prompt text,
the scorer and failure drawing, the task body (`task.py`), and for the step-by-step protocols the
episode settings (`settings.py`) and run-time pieces (`episode.py`). A protocol package imports
from here and from `core`, never another protocol's modules, except that `agent` plays `gym`'s
episode: it uses gym's prompts and scorer (their public functions)."""
