"""The published SPaRC runs puzzle by puzzle: paired comparisons against them, and the
subset estimates of full-split accuracy calibrated on them.

Pure (no Inspect): numpy for the verdict matrix, scipy inside the estimators, pandas only in
`frames` (the report's entry points). See docs/published_runs.md.
"""
