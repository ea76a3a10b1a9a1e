"""The names the evals write and the report reads, defined once for both sides.

`scores`: score-value keys, score metadata keys and metric names; `ontology`: AlgoPuzzleVQA's
categories (metric names); `registry`: the registry names of the baseline solvers the report
recognises, and the task arguments it copies as settings; `columns`: the column names of
the report's frames. The evals and the report import these modules, never each other's strings,
so a rename on one side breaks a test (`tests/test_contract.py`) instead of the report quietly.
Pure: no Inspect import.
"""
