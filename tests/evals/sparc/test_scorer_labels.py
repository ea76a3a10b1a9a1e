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


def test_a_rule_naming_many_positions_is_numbered_at_its_first_only() -> None:
    # A revisit can name a whole lane: its first position carries the number, the rest are
    # boxed without one; a rule naming two positions (a jump's ends) is numbered at both.
    lane = tuple((4, y) for y in range(1, 9))
    violations = [
        Violation(rule="revisit", positions=lane, message="visits the lane twice"),
        Violation(rule="disconnected", positions=((4, 8), (6, 8)), message="jumps"),
    ]
    labels = mark_labels(violations)
    assert labels[(4, 1)] == "1" and labels[(6, 8)] == "2" and labels[(4, 8)] == "2"
    assert all(labels[point] == "" for point in lane[1:-1])
    assert set(labels) == {*lane, (6, 8)}  # every named position is boxed
