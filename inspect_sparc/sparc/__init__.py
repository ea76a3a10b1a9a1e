"""The SPaRC Inspect layer: record sources, prompts, datasets, scorer, solvers and tasks."""
