"""The SPaRC Inspect layer: one subpackage per protocol (`single_shot`, `gym`, `visual`,
`agent`), each with its `tasks.py`, over what they share here: the dataset, the scorer and
failure drawing, the task body (`task.py`), and for the step-by-step protocols the episode's
run-time pieces (`episode.py`) and its scoring and metrics (`episode_scorer.py`). The pure parts
(sources, prompt text, the episode settings and prompts) are in `core`. A protocol package
imports from here and from `core`, never another protocol's modules."""
