"""What the tasks write and the report reads, defined once for both sides.

`scores`: score-value keys, score metadata keys and metric names; `protocols`: the tasks'
registry names, the protocol a run follows and each protocol's published counterpart. The
AlgoPuzzleVQA category names (metric names) come from the paper's ontology in
`core/algopuzzlevqa/ontology.py`, whose puzzle -> categories table the evals alone read. The
evals and the report import these modules, never each other's strings, so a rename on one side
breaks a test (`tests/test_contract.py`) instead of the report quietly. What one side alone uses
lives on that side (the report's column names and the settings it copies are in `report/read/`).
Pure: no Inspect import.
"""
