"""The SPaRC Inspect layer: what every protocol shares (sources, dataset, prompt text, scorer),
and one subpackage per protocol (`single_shot`, `gym`, `visual`), each with its `tasks.py`."""
