"""Ring labels of the SPaRC explanation: each broken rule's number once per position it names."""

from __future__ import annotations

from inspect_sparc.core.puzzle.rules import Violation
from inspect_sparc.evals.sparc.scorer import mark_labels


def test_a_rule_naming_a_position_twice_labels_it_once() -> None:
    # The rings read "the rules listed above that name this position": rule 1 lists (1, 1) twice
    # (a region's two shapes, say), rule 2 once; the ring says 1 and 2, each number once.
    violations = [
        Violation(rule="polyshape", positions=((1, 1), (1, 1), (3, 1)), message="shapes"),
        Violation(rule="dot", positions=((1, 1),), message="dot missed"),
    ]
    assert mark_labels(violations) == {(1, 1): "1,2", (3, 1): "1"}
